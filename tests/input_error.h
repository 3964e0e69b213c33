#pragma once
// The message of the InputError an action throws; a test failure when it throws none.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "engine/error.h"

namespace weft::test {

inline std::string inputErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

}  // namespace weft::test
