#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/newton_chebyshev/newton_sweep_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

SpringResidualLanes springResidualLanesSse() {
#if defined(__SSE2__)
  return lanes::springResiduals<sse::Ops>;
#else
  return nullptr;
#endif
}

SpringResidualKernel springResidualLanes() {
  static const SpringResidualKernel kernel = widestLaneKernel(springResidualLanesSse(), springResidualLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
