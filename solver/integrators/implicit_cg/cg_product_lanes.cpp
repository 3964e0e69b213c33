#include "solver/integrators/implicit_cg/cg_product_lanes.h"

#include "solver/integrators/xpbd/xpbd_lanes.h"

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
  static const SpringProductKernel kernel = [] {
    const int width = processorLaneWidth();
    if (width >= 8 && springProductLanesAvx2()) return SpringProductKernel{springProductLanesAvx2(), 8};
    if (width >= 4 && springProductLanesSse()) return SpringProductKernel{springProductLanesSse(), 4};
    return SpringProductKernel{};
  }();
  return kernel;
}

}  // namespace weft::integrators
