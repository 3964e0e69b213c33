#pragma once
// The springs' part of Newton-Chebyshev's Jacobi sweep residual (springResidual, the CPU twin of
// that part of newton_sweep.comp) row by row, and several rows at once in the lanes of the CPU
// backend's vector kernels (eight with AVX2, four with SSE2; xpbd_lanes.h picks the width). The
// sweep is nearly all of the integrator's step, and its spring loop is implicit CG's product loop
// with the terms taken away (common/spring_term_lanes.h). Each lane does the scalar function's
// operations in its order, so the lanes give its bits.
#include <cstdint>

#include "shaders/newton.h"
#include "shaders/shared.h"
#include "solver/integrators/common/lane_kernel.h"

namespace weft::integrators {

// What the springs' part of a sweep's residual reads.
struct SpringResidualInput {
  const uint32_t* rows;             // SpringTable::rows: N + 1 row starts
  const gpu::SpringEntry* entries;  // SpringTable::entries: each spring end's far particle
  const glm::vec4* couplings;       // each spring end's coupling (newtonCoupling)
  const glm::vec4* rhs;             // the Newton step's right-hand side b
  const glm::vec4* diagonal;        // two per particle; the second's z is the mass term, 0 pinned
  const glm::vec4* dx;              // the sweep's iterate y_j
};

// b_i - (mass term) y_i - the sum over i's spring ends of their coupling times (y_i - y_j), in row
// order; the sweep takes the elements' part from it next. Used only where the mass term is above 0.
inline glm::vec3 springResidual(const SpringResidualInput& in, uint32_t i) {
  const float massTerm = in.diagonal[2 * size_t(i) + 1].z;
  const glm::vec3 yi = gpu::xyz(in.dx[i]);
  glm::vec3 r = gpu::xyz(in.rhs[i]) - massTerm * yi;
  for (uint32_t k = in.rows[i]; k < in.rows[i + 1]; ++k)
    r -= gpu::couplingProduct(in.couplings[k], yi - gpu::xyz(in.dx[in.entries[k].other]));
  return r;
}

// Rows first .. first + width - 1 of springResidual into out[0 .. width) (xyz; w 0), whatever
// number of spring ends each has.
using SpringResidualLanes = void (*)(const SpringResidualInput& in, uint32_t first, glm::vec4* out);

using SpringResidualKernel = LaneKernel<SpringResidualLanes>;

// The widest kernel this processor and build run (processorLaneWidth), asked once.
SpringResidualKernel springResidualLanes();

// The kernels themselves, four wide (SSE2) and eight wide (AVX2; call it only where the processor
// has it), null where the build has none: for tests that hold each to the scalar bits.
SpringResidualLanes springResidualLanesSse();
SpringResidualLanes springResidualLanesAvx2();

}  // namespace weft::integrators
