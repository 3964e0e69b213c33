#include "solver/integrators/common/verlet_predict_lanes.h"

#include "solver/integrators/common/verlet_predict_lanes_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"

namespace weft::integrators {

VerletPredictLanes verletPredictLanesSse() { return WEFT_SSE_KERNEL(lanes::verletPredictGroup<sse::Ops>); }

VerletPredictKernel verletPredictLanes() {
  static const VerletPredictKernel kernel = widestLaneKernel(verletPredictLanesSse(), verletPredictLanesAvx2(), verletPredictLanesAvx512());
  return kernel;
}

}  // namespace weft::integrators
