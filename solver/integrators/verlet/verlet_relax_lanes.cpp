#include "solver/integrators/verlet/verlet_relax_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/verlet/verlet_relax_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

VerletRelaxLanes verletRelaxLanesSse() {
#if defined(__SSE2__)
  return lanes::verletRelaxGroup<sse::Ops>;
#else
  return nullptr;
#endif
}

VerletRelaxKernel verletRelaxLanes() {
  static const VerletRelaxKernel kernel = widestLaneKernel(verletRelaxLanesSse(), verletRelaxLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
