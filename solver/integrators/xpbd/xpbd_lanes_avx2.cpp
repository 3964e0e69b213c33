// The eight-wide kernels of the CPU backend's xpbd (cpu/simd/lanes.h, and the finish's,
// xpbd_finish_lanes.h), compiled for AVX2 by a target
// switch on this unit's own functions, so the rest of the binary still runs on any x86-64; they are
// called only where the processor has AVX2. FMA is not switched on: a multiply and an add fused
// into one rounding would not give the scalar path's bits.
#include <cstddef>
#include <cstdint>

#include "shaders/shared.h"
#include "solver/integrators/xpbd/xpbd_finish_lanes.h"
#include "solver/cpu/simd/lanes.h"

#if WEFT_XPBD_AVX2_LANES
// The lane type and the kernels' instantiations with it, compiled for AVX2.
#include "solver/cpu/simd/avx2_target_begin.h"

#include "solver/cpu/simd/avx2_lanes.h"
#include "solver/integrators/xpbd/xpbd_finish_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_spring_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_tether_lanes_kernel.h"
#include "solver/cpu/simd/twice_lanes.h"

namespace weft::integrators {

size_t projectSpringLanesAvx2(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x, const glm::vec4* start,
                              float h, glm::vec4* lambdas, bool first, bool keep) {
  // Sixteen at a time (two chains side by side, cpu/simd/twice_lanes.h), then one group of eight.
  const size_t done = lanes::projectSprings<lanes::Twice<avx2::Ops>>(constraints, count, x, start, h, lambdas, first, keep);
  return done + lanes::projectSprings<avx2::Ops>(constraints + done, count - done, x, start, h, lambdas + done, first, keep);
}

size_t projectTetherLanesAvx2(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x, const glm::vec4* start,
                              float h, glm::vec4* lambdas, bool first, bool keep) {
  const size_t done = lanes::projectTethers<lanes::Twice<avx2::Ops>>(constraints, count, x, start, h, lambdas, first, keep);
  return done + lanes::projectTethers<avx2::Ops>(constraints + done, count - done, x, start, h, lambdas + done, first, keep);
}

namespace {

void xpbdFinishAvx2(const XpbdFinishInput& in, uint32_t first) { lanes::xpbdFinishGroup<avx2::Ops>(in, first); }

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx2_target_end.h"

#endif  // WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

// Outside the target switch: asked on any processor.
XpbdFinishLanes xpbdFinishLanesAvx2() { return WEFT_AVX2_KERNEL(xpbdFinishAvx2); }

}  // namespace weft::integrators
