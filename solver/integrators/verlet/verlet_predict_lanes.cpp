#include "solver/integrators/verlet/verlet_predict_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/verlet/verlet_predict_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

VerletPredictLanes verletPredictLanesSse() {
#if defined(__SSE2__)
  return lanes::verletPredictGroup<sse::Ops>;
#else
  return nullptr;
#endif
}

VerletPredictKernel verletPredictLanes() {
  static const VerletPredictKernel kernel = widestLaneKernel(verletPredictLanesSse(), verletPredictLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
