#include "solver/integrators/common/cg/cg_setup_lanes.h"

#include "solver/integrators/common/cg/cg_setup_lanes_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"

namespace weft::integrators {

CgSetupLanes cgSetupLanesSse() { return WEFT_SSE_KERNEL(lanes::cgSetupSums<sse::Ops>); }

CgSetupKernel cgSetupLanes() {
  static const CgSetupKernel kernel = widestLaneKernel(cgSetupLanesSse(), cgSetupLanesAvx2());
  return kernel;
}

}  // namespace weft::integrators
