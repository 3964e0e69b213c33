// The eight-wide kernel of the force gather (acceleration_lanes.h), compiled for AVX2
// (common/avx2_target_begin.h); called only where the processor has AVX2.
#include <cstdint>

#include "solver/integrators/common/acceleration_lanes.h"

#if WEFT_XPBD_AVX2_LANES
#include "solver/cpu/simd/avx2_target_begin.h"

#include "solver/integrators/common/acceleration_lanes_kernel.h"
#include "solver/cpu/simd/avx2_lanes.h"

namespace weft::integrators {
namespace {

void accelerationsAvx2(const AccelerationInput& in, uint32_t first, glm::vec4* out) {
  lanes::accelerationGroup<avx2::Ops>(in, first, out);
}

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx2_target_end.h"
#endif  // WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

AccelerationLanes accelerationLanesAvx2() { return WEFT_AVX2_KERNEL(accelerationsAvx2); }

}  // namespace weft::integrators
