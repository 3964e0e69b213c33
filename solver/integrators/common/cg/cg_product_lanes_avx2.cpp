// The eight-wide kernel of implicit CG's system product (cg_product_lanes.h), compiled for AVX2
// (common/avx2_target_begin.h) as xpbd's are (xpbd_lanes_avx2.cpp); called only where the
// processor has AVX2.
#include <cstdint>

#include "solver/integrators/common/cg/cg_product_lanes.h"
#include "solver/cpu/simd/lanes.h"

#if WEFT_XPBD_AVX2_LANES
#include "solver/cpu/simd/avx2_target_begin.h"

#include "solver/integrators/common/cg/cg_product_lanes_kernel.h"
#include "solver/cpu/simd/avx2_lanes.h"

namespace weft::integrators {
namespace {

void springProductsAvx2(const SpringProductInput& in, uint32_t first, glm::vec4* out, float* cq) {
  lanes::springProducts<avx2::Ops>(in, first, out, cq);
}

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx2_target_end.h"
#endif  // WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

SpringProductLanes springProductLanesAvx2() { return WEFT_AVX2_KERNEL(springProductsAvx2); }

}  // namespace weft::integrators
