#include "solver/integrators/xpbd/xpbd_finish_lanes.h"

#include "solver/integrators/xpbd/xpbd_finish_lanes_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"

namespace weft::integrators {

XpbdFinishLanes xpbdFinishLanesSse() { return WEFT_SSE_KERNEL(lanes::xpbdFinishGroup<sse::Ops>); }

XpbdFinishKernel xpbdFinishLanes() {
  static const XpbdFinishKernel kernel = widestLaneKernel(xpbdFinishLanesSse(), xpbdFinishLanesAvx2(), xpbdFinishLanesAvx512());
  return kernel;
}

}  // namespace weft::integrators
