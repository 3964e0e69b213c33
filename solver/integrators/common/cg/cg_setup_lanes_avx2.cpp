// The eight-wide kernel of implicit CG's setup over the springs (cg_setup_lanes.h), compiled for
// AVX2 (common/avx2_target_begin.h); called only where the processor has AVX2.
#include <cstdint>

#include "solver/integrators/common/cg/cg_setup_lanes.h"
#include "solver/cpu/simd/lanes.h"

#if WEFT_XPBD_AVX2_LANES
#include "solver/cpu/simd/avx2_target_begin.h"

#include "solver/integrators/common/cg/cg_setup_lanes_kernel.h"
#include "solver/cpu/simd/avx2_lanes.h"

namespace weft::integrators {
namespace {

void cgSetupSumsAvx2(const CgSetupInput& in, uint32_t first, CgSetupGroup& out) {
  lanes::cgSetupSums<avx2::Ops>(in, first, out);
}

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx2_target_end.h"
#endif  // WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

CgSetupLanes cgSetupLanesAvx2() { return WEFT_AVX2_KERNEL(cgSetupSumsAvx2); }

}  // namespace weft::integrators
