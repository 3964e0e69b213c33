#pragma once
// Shared by the scene tests: a scene parsed from inline JSON, and how many particles a model pins.
#include <cstddef>
#include <cstdint>
#include <string>

#include "solver/io/scene_reader.h"
#include "solver/model/scene.h"

namespace weft::test {

inline Scene parseInline(const std::string& json) { return parseScene(json, "", "test.json"); }

inline size_t pinnedCount(const ClothModel& m) {
  size_t n = 0;
  for (uint8_t p : m.pinned) n += p;
  return n;
}

}  // namespace weft::test
