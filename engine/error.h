#pragma once
// The two kinds of error (STYLE.md, practice 8):
//  - InputError: something the user can cause (bad scene, unknown device, impossible value). Its
//    message is one sentence meant for the user; programs print it and exit non-zero.
//  - VK_CHECK / std::logic_error: programmer errors, reported with file and line.
#include <stdexcept>
#include <string>

namespace weft {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace weft
