#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"

#include "solver/integrators/newton_chebyshev/newton_sweep_lanes_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"

namespace weft::integrators {

NewtonSweepLanes newtonSweepLanesSse() { return WEFT_SSE_KERNEL(lanes::newtonSweeps<sse::Ops>); }

NewtonSweepKernel newtonSweepLanes() {
  static const NewtonSweepKernel kernel = widestLaneKernel(newtonSweepLanesSse(), newtonSweepLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
