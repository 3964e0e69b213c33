#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"

#include "solver/integrators/xpbd/xpbd_lanes.h"

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
  static const SpringResidualKernel kernel = [] {
    const int width = processorLaneWidth();
    if (width >= 8 && springResidualLanesAvx2()) return SpringResidualKernel{springResidualLanesAvx2(), 8};
    if (width >= 4 && springResidualLanesSse()) return SpringResidualKernel{springResidualLanesSse(), 4};
    return SpringResidualKernel{};
  }();
  return kernel;
}

}  // namespace weft::integrators
