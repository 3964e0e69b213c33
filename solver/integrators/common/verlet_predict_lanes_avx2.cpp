// The eight-wide kernel of the shared predict pass (verlet_predict_lanes.h), compiled for AVX2
// (common/avx2_target_begin.h); called only where the processor has AVX2.
#include <cstdint>

#include "solver/integrators/common/verlet_predict_lanes.h"
#include "solver/cpu/simd/lanes.h"

#if WEFT_XPBD_AVX2_LANES
#include "solver/cpu/simd/avx2_target_begin.h"

#include "solver/integrators/common/verlet_predict_lanes_kernel.h"
#include "solver/cpu/simd/avx2_lanes.h"

namespace weft::integrators {
namespace {

void verletPredictAvx2(const VerletPredictInput& in, uint32_t first) { lanes::verletPredictGroup<avx2::Ops>(in, first); }

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx2_target_end.h"
#endif  // WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

VerletPredictLanes verletPredictLanesAvx2() { return WEFT_AVX2_KERNEL(verletPredictAvx2); }

}  // namespace weft::integrators
