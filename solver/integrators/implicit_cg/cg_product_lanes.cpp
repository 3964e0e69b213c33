#include "solver/integrators/implicit_cg/cg_product_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/implicit_cg/cg_product_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

SpringProductLanes springProductLanesSse() {
#if defined(__SSE2__)
  return lanes::springProducts<sse::Ops>;
#else
  return nullptr;
#endif
}

SpringProductKernel springProductLanes() {
  static const SpringProductKernel kernel = widestLaneKernel(springProductLanesSse(), springProductLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
