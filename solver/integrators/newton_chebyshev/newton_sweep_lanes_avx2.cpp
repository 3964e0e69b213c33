// The eight-wide kernel of Newton-Chebyshev's sweep residual (newton_sweep_lanes.h), compiled for
// AVX2 (common/avx2_target_begin.h) as implicit CG's product is (cg_product_lanes_avx2.cpp);
// called only where the processor has AVX2.
#include <cstdint>

#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"
#include "solver/integrators/xpbd/xpbd_lanes.h"

#if WEFT_XPBD_AVX2_LANES
#include "solver/integrators/common/avx2_target_begin.h"

#include "solver/integrators/newton_chebyshev/newton_sweep_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_avx2_lanes.h"

namespace weft::integrators {
namespace {

void springResidualsAvx2(const SpringResidualInput& in, uint32_t first, glm::vec4* out) {
  lanes::springResiduals<avx2::Ops>(in, first, out);
}

}  // namespace
}  // namespace weft::integrators

#include "solver/integrators/common/avx2_target_end.h"
#endif  // WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

SpringResidualLanes springResidualLanesAvx2() {
#if WEFT_XPBD_AVX2_LANES
  return springResidualsAvx2;
#else
  return nullptr;
#endif
}

}  // namespace weft::integrators
