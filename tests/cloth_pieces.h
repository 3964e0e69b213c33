#pragma once
// The connected pieces of a cloth by its triangles (particles sharing a triangle are joined): what
// the tearing tests count to know whether a cloth came apart.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "solver/model/cloth_model.h"

namespace weft::test {

// Each particle's piece, named by one of its particles.
inline std::vector<uint32_t> pieces(const ClothModel& m) {
  std::vector<uint32_t> parent(m.particleCount());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const glm::uvec3& t : m.triangles) {
    parent[find(t.y)] = find(t.x);
    parent[find(t.z)] = find(t.x);
  }
  std::vector<uint32_t> label(m.particleCount());
  for (uint32_t i = 0; i < label.size(); ++i) label[i] = find(i);
  return label;
}

inline size_t pieceCount(const std::vector<uint32_t>& label) {
  std::vector<uint32_t> roots(label);
  std::sort(roots.begin(), roots.end());
  return size_t(std::unique(roots.begin(), roots.end()) - roots.begin());
}

inline size_t pieceCount(const ClothModel& m) { return pieceCount(pieces(m)); }

}  // namespace weft::test
