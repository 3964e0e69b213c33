#pragma once
// verlet_predict.comp's pass (verletPredictParticle, verlet.h), which Verlet and xpbd share, on
// consecutive particles in vector lanes: sixteen with AVX-512, eight with AVX2, four with SSE2
// (lane_kernel.h). Each
// lane does the scalar particle's operations in its order, so the bits are the same. Only for a
// cloth whose elements gather no force at prediction (no aerodynamic kind: elementForces is then
// zero); a cloth with them takes the scalar pass.
#include <cstdint>

#include "shaders/shared.h"
#include "solver/cpu/simd/lane_kernel.h"

namespace weft::integrators {

// The pass's buffers and parameters.
struct VerletPredictInput {
  const glm::vec4* positions;
  const glm::vec4* velocities;
  glm::vec4* prevPositions;
  glm::vec4* positionsOut;
  glm::vec4* velocitiesOut;
  glm::vec4 gravity, wind;  // StepParams'
  float dt;
};

// Predicts particles [first, first + the kernel's width).
using VerletPredictLanes = void (*)(const VerletPredictInput& in, uint32_t first);
using VerletPredictKernel = LaneKernel<VerletPredictLanes>;

// The widest kernel this build and processor run (none: run null).
VerletPredictKernel verletPredictLanes();
// Each width's kernel, null where the build has none.
VerletPredictLanes verletPredictLanesSse();
VerletPredictLanes verletPredictLanesAvx2();
VerletPredictLanes verletPredictLanesAvx512();

}  // namespace weft::integrators
