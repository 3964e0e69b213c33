#pragma once
// xpbd's finish before its collision (finishParticle in xpbd.cpp, xpbd_finish.comp) on consecutive
// particles in vector lanes: sixteen with AVX-512, eight with AVX2, four with SSE2 (lane_kernel.h). Each lane does the
// scalar particle's operations in its order (carryCorrection: v + (x - x*) / dt, a pinned particle
// left as it is), so the bits are the same.
#include <cstdint>

#include "shaders/shared.h"
#include "solver/cpu/simd/lane_kernel.h"

namespace weft::integrators {

struct XpbdFinishInput {
  const glm::vec4* positions;  // the sweeps' result
  const glm::vec4* predicted;  // x*
  glm::vec4* velocities;       // the predicted velocities, carried in place
  float dt;
};

// Finishes particles [first, first + the kernel's width).
using XpbdFinishLanes = void (*)(const XpbdFinishInput& in, uint32_t first);
using XpbdFinishKernel = LaneKernel<XpbdFinishLanes>;

// The widest kernel this build and processor run (none: run null).
XpbdFinishKernel xpbdFinishLanes();
// Each width's kernel, null where the build has none.
XpbdFinishLanes xpbdFinishLanesSse();
XpbdFinishLanes xpbdFinishLanesAvx2();
XpbdFinishLanes xpbdFinishLanesAvx512();

}  // namespace weft::integrators
