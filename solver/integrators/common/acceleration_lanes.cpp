#include "solver/integrators/common/acceleration_lanes.h"

#include "solver/integrators/common/acceleration_lanes_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"

namespace weft::integrators {

AccelerationLanes accelerationLanesSse() { return WEFT_SSE_KERNEL(lanes::accelerationGroup<sse::Ops>); }

AccelerationKernel accelerationLanes() {
  static const AccelerationKernel kernel = widestLaneKernel(accelerationLanesSse(), accelerationLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
