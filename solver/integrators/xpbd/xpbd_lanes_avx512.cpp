// The sixteen-wide kernels of the CPU backend's xpbd (cpu/simd/lanes.h, and the finish's,
// xpbd_finish_lanes.h): the springs', the tethers' and the finish's kernels with the AVX-512 lane
// type, compiled for AVX-512 F and DQ by a target switch on this
// unit's own functions, and with -ffp-contract=off (common/avx512_target_begin.h says why). They
// are called only where the processor has both. One group of sixteen at a time: two side by side
// (cpu/simd/twice_lanes.h), as the eight-wide kernels run, took the 128² cloth's step from 0.155 to
// 0.173 ms, the two chains' registers more than the 32 the processor has.
#include <cstddef>
#include <cstdint>

#include "shaders/shared.h"
#include "solver/integrators/xpbd/xpbd_finish_lanes.h"
#include "solver/cpu/simd/lanes.h"

#if WEFT_XPBD_AVX512_LANES
#include "solver/cpu/simd/avx512_target_begin.h"

#include "solver/cpu/simd/avx512_lanes.h"
#include "solver/integrators/xpbd/xpbd_finish_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_spring_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_tether_lanes_kernel.h"

namespace weft::integrators {

size_t projectSpringLanesAvx512(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x,
                                const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep) {
  return lanes::projectSprings<avx512::Ops>(constraints, count, x, start, h, lambdas, first, keep);
}

size_t projectTetherLanesAvx512(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x,
                                const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep) {
  return lanes::projectTethers<avx512::Ops>(constraints, count, x, start, h, lambdas, first, keep);
}

namespace {

void xpbdFinishAvx512(const XpbdFinishInput& in, uint32_t first) { lanes::xpbdFinishGroup<avx512::Ops>(in, first); }

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx512_target_end.h"
#endif  // WEFT_XPBD_AVX512_LANES

namespace weft::integrators {

// Outside the target switch: asked on any processor.
XpbdFinishLanes xpbdFinishLanesAvx512() { return WEFT_AVX512_KERNEL(xpbdFinishAvx512); }

}  // namespace weft::integrators
