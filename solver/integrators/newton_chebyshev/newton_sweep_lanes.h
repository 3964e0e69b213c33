#pragma once
// One Jacobi sweep of Newton-Chebyshev's solve on the CPU backend (the CPU twin of
// newton_sweep.comp) row by row (springResidual, newtonSweepRow), and several rows at once in the
// lanes of the CPU backend's vector kernels (eight with AVX2, four with SSE2; cpu/simd/lanes.h picks
// the width). The sweep is nearly all of the integrator's step; its spring loop is implicit CG's
// product loop with the terms taken away (common/spring_term_lanes.h). Each lane does the scalar
// functions' operations in their order, so the lanes give their bits.
#include <cstdint>

#include "shaders/newton.h"
#include "shaders/shared.h"
#include "solver/cpu/simd/lane_kernel.h"

namespace weft::integrators {

// What a sweep reads and writes: sweep j reads the iterate y_j and y_(j-1), and writes y_(j+1)
// over y_(j-1).
struct NewtonSweepInput {
  const uint32_t* rows;             // SpringTable::rows: N + 1 row starts
  const gpu::SpringEntry* entries;  // SpringTable::entries: each spring end's far particle
  const glm::vec4* couplings;       // each spring end's coupling (newtonCoupling)
  const glm::vec4* rhs;             // the Newton step's right-hand side b
  const glm::vec4* diagonal;        // two per particle (symmetricDiagonal, symmetricRest); the second's z
                                    // is the mass term, not above 0 where the particle is pinned
  const glm::vec4* dx;              // the sweep's iterate y_j
  glm::vec4* dxPrev;                // y_(j-1) in (Chebyshev reads it), y_(j+1) out
  glm::vec4* lastJacobi;            // Nesterov's x_j, read and written (WEFT_BIND_LAST_JACOBI); else unused
  float omega;                      // the sweep's weight (accelerate)
  bool nesterov;                    // Nesterov's momentum, else Chebyshev's weights
};

inline float sweepMassTerm(const NewtonSweepInput& in, uint32_t i) { return in.diagonal[2 * size_t(i) + 1].z; }

// b_i - (mass term) y_i - the sum over i's spring ends of their coupling times (y_i - y_j), in row
// order; the sweep takes the elements' part from it next. Used only where the mass term is above 0.
inline glm::vec3 springResidual(const NewtonSweepInput& in, uint32_t i) {
  const float massTerm = sweepMassTerm(in, i);
  const glm::vec3 yi = gpu::xyz(in.dx[i]);
  glm::vec3 r = gpu::xyz(in.rhs[i]) - massTerm * yi;
  for (uint32_t k = in.rows[i]; k < in.rows[i + 1]; ++k)
    r -= gpu::applySystemBlock(in.couplings[k], yi - gpu::xyz(in.dx[in.entries[k].other]));
  return r;
}

// The rest of row i's sweep given its whole residual r_j (the springs' and the elements' part; any
// value where i is pinned): the block Jacobi step, the acceleration, y_(j+1) into dxPrev (0 where
// pinned) and Nesterov's x_(j+1) into lastJacobi. Returns |r_j|^2, 0 where pinned (which only
// measuring sweeps use).
inline float newtonSweepRow(const NewtonSweepInput& in, uint32_t i, glm::vec3 r) {
  if (!(sweepMassTerm(in, i) > 0.f)) {
    in.dxPrev[i] = glm::vec4(0.f);
    return 0.f;
  }
  const glm::vec3 jacobi = gpu::xyz(in.dx[i]) + gpu::newtonJacobiStep(in.nesterov ? 1u : 0u) *
                                                    gpu::symmetricProduct(in.diagonal[2 * size_t(i)],
                                                                          in.diagonal[2 * size_t(i) + 1], r);
  const glm::vec3 prev = in.nesterov ? jacobi : gpu::xyz(in.dxPrev[i]);
  const glm::vec3 last = in.nesterov ? gpu::xyz(in.lastJacobi[i]) : jacobi;
  if (in.nesterov) in.lastJacobi[i] = glm::vec4(jacobi, 0.f);
  const glm::vec3 next = gpu::accelerate(jacobi, prev, last, in.omega, in.nesterov);
  in.dxPrev[i] = glm::vec4(next, 0.f);
  return glm::dot(r, r);
}

// Rows first .. first + width - 1 of a sweep: springResidual, minus taken[l] (xyz) where taken is
// not null (the elements' part, which the lanes do not compute), then newtonSweepRow; each row's
// |r_j|^2 into norms[0 .. width), whatever number of spring ends each row has.
using NewtonSweepLanes = void (*)(const NewtonSweepInput& in, uint32_t first, const glm::vec4* taken, float* norms);

using NewtonSweepKernel = LaneKernel<NewtonSweepLanes>;

// The widest kernel this processor and build run (processorLaneWidth), asked once.
NewtonSweepKernel newtonSweepLanes();

// The kernels themselves, four wide (SSE2) and eight wide (AVX2; call it only where the processor
// has it), null where the build has none: for tests that hold each to the scalar bits.
NewtonSweepLanes newtonSweepLanesSse();
NewtonSweepLanes newtonSweepLanesAvx2();

}  // namespace weft::integrators
