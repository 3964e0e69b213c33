#pragma once
// Whether a cloth's spring table is seed 004's grid exactly, so that kernels may find its springs
// from the particle's index (shaders/grid_stencil.h) instead of reading the table.
#include <vector>

#include "shaders/physics.h"
#include "solver/model/cloth_model.h"

namespace weft {

struct SpringTable;

// A grid's springs found from the index: the stencil and each particle's WEFT_GRID_REST_SLOTS rest
// lengths. None (width 0, no rest lengths) for a cloth that is not a grid.
struct GridSprings {
  gpu::GridStencil stencil{};
  std::vector<float> restLengths;

  // Stencil spring k of particle i, at (column, row), as the table's entry for it, into e; false
  // where the particle has no such spring. The CPU twin of gridSpring() in shaders/solver_bindings.glsl.
  bool spring(uint32_t i, uint32_t column, uint32_t row, uint32_t k, gpu::SpringEntry& e) const {
    uint32_t j = 0;
    if (!gpu::gridStencilNeighbour(stencil.width, stencil.height, column, row, k, j)) return false;
    e = gpu::gridStencilEntry(j, stencil.families[gpu::gridStencilFamily(k)],
                              restLengths[gpu::gridStencilRestIndex(i, j, k)]);
    return true;
  }

  // Calls f(entry) for each of particle i's springs, in the table's order: the CPU backend's loop.
  // A particle two or more from every border has all twelve, found without the border's checks in
  // a loop the compiler unrolls: the checked loop made Verlet's relaxation 12 % slower than reading
  // the table at 250², this one is as fast (docs/benchmarks.md).
  template <class F>
  void forEachSpring(uint32_t i, F&& f) const {
    const uint32_t column = i % stencil.width, row = i / stencil.width;
    if (column >= 2 && row >= 2 && column + 2 < stencil.width && row + 2 < stencil.height) {
#pragma GCC unroll 12
      for (uint32_t k = 0; k < WEFT_GRID_STENCIL_SPRINGS; ++k) {
        // gridStencilNeighbour's j, which inside the grid is i plus the spring's offset
        const uint32_t j = i + uint32_t(gpu::gridStencilRowStep(k) * int32_t(stencil.width) + gpu::gridStencilColumnStep(k));
        f(gpu::gridStencilEntry(j, stencil.families[gpu::gridStencilFamily(k)], restLengths[gpu::gridStencilRestIndex(i, j, k)]));
      }
      return;
    }
    for (uint32_t k = 0; k < WEFT_GRID_STENCIL_SPRINGS; ++k) {
      gpu::SpringEntry e;
      if (spring(i, column, row, k, e)) f(e);
    }
  }
};

// The grid springs that give every particle of `model` exactly its row of `table` (entry for entry,
// bit for bit, in the row's order), or none: a cloth that is not a grid, one whose springs were torn
// or edited, or one whose material bounds its spring forces (the stencil's springs are never bounded).
GridSprings findGridSprings(const ClothModel& model, const SpringTable& table);

}  // namespace weft
