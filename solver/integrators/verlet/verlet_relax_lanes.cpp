#include "solver/integrators/verlet/verlet_relax_lanes.h"

#include "solver/integrators/verlet/verlet_relax_lanes_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"

namespace weft::integrators {

VerletRelaxLanes verletRelaxLanesSse() { return WEFT_SSE_KERNEL(lanes::verletRelaxGroup<sse::Ops>); }

VerletRelaxKernel verletRelaxLanes() {
  static const VerletRelaxKernel kernel = widestLaneKernel(verletRelaxLanesSse(), verletRelaxLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
