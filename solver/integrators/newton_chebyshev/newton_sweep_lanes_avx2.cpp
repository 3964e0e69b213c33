// The eight-wide kernel of Newton-Chebyshev's sweep (newton_sweep_lanes.h), compiled for
// AVX2 (common/avx2_target_begin.h) as implicit CG's product is (cg_product_lanes_avx2.cpp);
// called only where the processor has AVX2.
#include <cstdint>

#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"
#include "solver/cpu/simd/lanes.h"

#if WEFT_XPBD_AVX2_LANES
#include "solver/cpu/simd/avx2_target_begin.h"

#include "solver/integrators/newton_chebyshev/newton_sweep_lanes_kernel.h"
#include "solver/cpu/simd/avx2_lanes.h"

namespace weft::integrators {
namespace {

void newtonSweepsAvx2(const NewtonSweepInput& in, uint32_t first, const glm::vec4* taken, float* norms) {
  lanes::newtonSweeps<avx2::Ops>(in, first, taken, norms);
}

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx2_target_end.h"
#endif  // WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

NewtonSweepLanes newtonSweepLanesAvx2() { return WEFT_AVX2_KERNEL(newtonSweepsAvx2); }

}  // namespace weft::integrators
