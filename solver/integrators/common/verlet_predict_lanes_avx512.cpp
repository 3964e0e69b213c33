// The sixteen-wide kernel of the shared predict pass (verlet_predict_lanes.h), compiled for AVX-512
// (common/avx512_target_begin.h, with -ffp-contract=off); called only where the processor has it.
#include <cstdint>

#include "solver/integrators/common/verlet_predict_lanes.h"
#include "solver/cpu/simd/lanes.h"

#if WEFT_XPBD_AVX512_LANES
#include "solver/cpu/simd/avx512_target_begin.h"

#include "solver/integrators/common/verlet_predict_lanes_kernel.h"
#include "solver/cpu/simd/avx512_lanes.h"

namespace weft::integrators {
namespace {

void verletPredictAvx512(const VerletPredictInput& in, uint32_t first) {
  lanes::verletPredictGroup<avx512::Ops>(in, first);
}

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx512_target_end.h"
#endif  // WEFT_XPBD_AVX512_LANES

namespace weft::integrators {

VerletPredictLanes verletPredictLanesAvx512() { return WEFT_AVX512_KERNEL(verletPredictAvx512); }

}  // namespace weft::integrators
