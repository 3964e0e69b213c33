#include "solver/integrators/xpbd/xpbd_finish_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/xpbd/xpbd_finish_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

XpbdFinishLanes xpbdFinishLanesSse() {
#if defined(__SSE2__)
  return lanes::xpbdFinishGroup<sse::Ops>;
#else
  return nullptr;
#endif
}

XpbdFinishKernel xpbdFinishLanes() {
  static const XpbdFinishKernel kernel = widestLaneKernel(xpbdFinishLanesSse(), xpbdFinishLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
