#pragma once
// verlet_relax.comp's Jacobi pass (verletRelaxParticle, verlet.h) on consecutive particles in vector
// lanes: eight with AVX2, four with SSE2 (lane_kernel.h). Each lane does the scalar particle's
// operations in its order, so the bits are the same. The pass is nearly all of a Verlet step on the
// CPU backend (95 % of it at 128^2, one thread), a dozen distance corrections a particle, each a
// square root and a division that the scalar loop waits on one after another. A cloth of springs
// alone (no elements, no contact pairs: their projections are then +0) under Chebyshev or plain
// Jacobi runs the whole pass in the lanes; any other (tethers, Nesterov's momentum) runs the
// springs' sums in them and the rest particle by particle. The collision of the last pass stays
// with the caller, after the lanes, as it comes last in the scalar particle too.
#include <cstdint>

#include "shaders/shared.h"
#include "solver/cpu/simd/lane_kernel.h"

namespace weft::integrators {

// The pass's tables, buffers and parameters.
struct VerletRelaxInput {
  const uint32_t* rows;           // SpringTable::rows: N + 1 row starts
  const gpu::SpringLink* links;   // SpringTable::links: each spring end's far particle and rest length
  const glm::vec4* positions;     // this pass's start (w: the inverse mass, 0 pinned)
  glm::vec4* positionsOut;        // read as the iterate before the last (Chebyshev), then written
  glm::vec4* velocitiesOut;       // the step's carried velocity, corrected by the pass's move
  float stiffness, relaxation, omega, dt;  // StepParams' constraintStiffness, relaxation, omega, dt
};

// Relaxes particles [first, first + the kernel's width); or, given `sums`, writes there only each
// particle's sum of its springs' distance corrections (xyz; w 0), for the caller to finish the
// particle as verletRelaxFinish does (a cloth with elements, or Nesterov's momentum).
using VerletRelaxLanes = void (*)(const VerletRelaxInput& in, uint32_t first, glm::vec4* sums);
using VerletRelaxKernel = LaneKernel<VerletRelaxLanes>;

// The widest kernel this build and processor run (none: run null).
VerletRelaxKernel verletRelaxLanes();
// Each width's kernel, null where the build has none.
VerletRelaxLanes verletRelaxLanesSse();
VerletRelaxLanes verletRelaxLanesAvx2();

}  // namespace weft::integrators
