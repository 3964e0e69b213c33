#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/newton_chebyshev/newton_sweep_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

NewtonSweepLanes newtonSweepLanesSse() {
#if defined(__SSE2__)
  return lanes::newtonSweeps<sse::Ops>;
#else
  return nullptr;
#endif
}

NewtonSweepKernel newtonSweepLanes() {
  static const NewtonSweepKernel kernel = widestLaneKernel(newtonSweepLanesSse(), newtonSweepLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
