#include "solver/integrators/common/cg/cg_product_lanes.h"

#include "solver/integrators/common/cg/cg_product_lanes_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"

namespace weft::integrators {

SpringProductLanes springProductLanesSse() { return WEFT_SSE_KERNEL(lanes::springProducts<sse::Ops>); }

SpringProductKernel springProductLanes() {
  static const SpringProductKernel kernel = widestLaneKernel(springProductLanesSse(), springProductLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
