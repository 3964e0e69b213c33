#include "solver/model/grid_stencil.h"

#include <bit>

#include "solver/model/spring_table.h"

namespace weft {
namespace {

bool sameBits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }

bool sameEntry(const gpu::SpringEntry& a, const gpu::SpringEntry& b) {
  return a.other == b.other && sameBits(a.restLength, b.restLength) && sameBits(a.stiffness, b.stiffness) &&
         sameBits(a.damping, b.damping);
}

}  // namespace

GridSprings findGridSprings(const ClothModel& model, const SpringTable& table) {
  const uint32_t width = model.gridWidth, height = model.gridHeight;
  const size_t n = model.particleCount();
  if (width == 0 || height == 0 || size_t{width} * height != n || table.rows.size() != n + 1) return {};
  if (!table.forceBounds.empty()) return {};
  // Each family's values and each rest length from the table, where the spring is met from the end
  // that keeps it; then every row checked against the stencil, entry for entry.
  GridSprings grid;
  grid.stencil.width = width;
  grid.stencil.height = height;
  grid.restLengths.assign(n * WEFT_GRID_REST_SLOTS, 0.f);
  bool seen[5] = {false, false, false, false, false};
  for (uint32_t pass = 0; pass < 2; ++pass) {
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t entry = table.rows[i];
      const uint32_t column = i % width, row = i / width;
      for (uint32_t k = 0; k < WEFT_GRID_STENCIL_SPRINGS; ++k) {
        uint32_t j = 0;
        if (!gpu::gridStencilNeighbour(width, height, column, row, k, j)) continue;
        if (entry >= table.rows[i + 1]) return {};  // the row lacks one of the grid's springs
        const gpu::SpringEntry& e = table.entries[entry++];
        if (pass == 0) {  // gather
          const uint32_t family = gpu::gridStencilFamily(k);
          if (!seen[family]) grid.stencil.families[family] = glm::vec4(e.stiffness, e.damping, 0.f, 0.f);
          seen[family] = true;
          if (gpu::gridStencilOwnSpring(k)) grid.restLengths[gpu::gridStencilRestIndex(i, j, k)] = e.restLength;
          continue;
        }
        gpu::SpringEntry expected{};
        grid.spring(i, column, row, k, expected);
        if (!sameEntry(expected, e)) return {};
      }
      if (entry != table.rows[i + 1]) return {};  // a spring the grid does not have
    }
  }
  return grid;
}

}  // namespace weft
