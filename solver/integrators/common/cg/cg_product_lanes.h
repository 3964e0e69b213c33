#pragma once
// Implicit CG's system product over the springs, row by row (springSystemProduct, the CPU twin of
// the springs' part of cg_system_product.glsl) and several rows at once in the lanes of the CPU
// backend's vector kernels (cpu/simd/lanes.h: eight with AVX2, four with SSE2). The product is most of
// a solve's time (58 % of implicit-cg's step at 128^2, one thread): a dozen 3-vector block products
// a row, which the scalar build spends in shuffles. Each lane does the scalar function's operations
// in its order, so the lanes give its bits.
#include <cstddef>
#include <cstdint>

#include "shaders/physics.h"
#include "shaders/shared.h"
#include "solver/cpu/simd/lane_kernel.h"

namespace weft::integrators {

// What the springs' rows of A u read.
struct SpringProductInput {
  const uint32_t* rows;             // SpringTable::rows: N + 1 row starts
  const gpu::SpringEntry* entries;  // SpringTable::entries: each spring end's far particle
  const glm::vec4* blocks;          // each spring end's system block (springSystemBlock)
  const glm::vec4* positions;       // w: the inverse mass, 0 pinned
  const glm::vec4* u;               // the vector multiplied
  float dragTime;                   // the step's force time times the air's drag: the drag's diagonal
  // Baraff & Witkin's filter of each row (CgVectors::constraint), for a kernel to finish rows with
  // no elements as cg_product.comp does (cgFilteredRow); null: the rows as springSystemProduct.
  const glm::vec4* constraint = nullptr;
};

// Row i of A u over the mass, the drag and the springs: (m + a drag) u_i + sum over i's spring ends
// of their block times (u_i - u_j); 0 for a pinned particle. The elements' rows come after it.
inline glm::vec3 springSystemProduct(const SpringProductInput& in, uint32_t i) {
  const glm::vec4 xi = in.positions[i];
  if (!(xi.w > 0.f)) return glm::vec3(0.f);
  const glm::vec3 ui = gpu::xyz(in.u[i]);
  glm::vec3 product = (1.f / xi.w + in.dragTime) * ui;
  for (uint32_t k = in.rows[i]; k < in.rows[i + 1]; ++k)
    product += gpu::applySystemBlock(in.blocks[k], ui - gpu::xyz(in.u[in.entries[k].other]));
  return product;
}

// A row of a system with no elements as cg_product.comp ends it: q = filter(springs' row + 0) (a
// free row's elements add +0, which turns a -0 into +0; a pinned row is +0 already), and c.q, with c
// the vector multiplied. A system with elements adds their rows before the filter (cg_solve.cpp).
inline glm::vec3 cgFilteredRow(const SpringProductInput& in, uint32_t i, glm::vec3 springs, float& cq) {
  const glm::vec3 q = gpu::applyFilter(in.constraint[i], springs + glm::vec3(0.f));
  cq = glm::dot(gpu::xyz(in.u[i]), q);
  return q;
}

// Rows first .. first + width - 1 of springSystemProduct into out[0 .. width) (xyz; w 0), whatever
// number of spring ends each has (a lane out of ends keeps its sum while the others add theirs).
// With the input's constraint, out gets cgFilteredRow's q instead and cq[0 .. width) its c.q.
using SpringProductLanes = void (*)(const SpringProductInput& in, uint32_t first, glm::vec4* out, float* cq);

using SpringProductKernel = LaneKernel<SpringProductLanes>;

// The widest kernel this processor and build run (processorLaneWidth), asked once.
SpringProductKernel springProductLanes();

// The kernels themselves, four wide (SSE2, null where the build has none) and eight wide (AVX2,
// null where the build has none; call it only where the processor has AVX2), for tests that hold
// each to the scalar bits.
SpringProductLanes springProductLanesSse();
SpringProductLanes springProductLanesAvx2();

}  // namespace weft::integrators
