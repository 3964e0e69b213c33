// The eight-wide kernel of Verlet's relaxation pass (verlet_relax_lanes.h), compiled for AVX2
// (common/avx2_target_begin.h); called only where the processor has AVX2.
#include <cstdint>

#include "solver/integrators/verlet/verlet_relax_lanes.h"
#include "solver/cpu/simd/lanes.h"

#if WEFT_XPBD_AVX2_LANES
#include "solver/cpu/simd/avx2_target_begin.h"

#include "solver/integrators/verlet/verlet_relax_lanes_kernel.h"
#include "solver/cpu/simd/avx2_lanes.h"

namespace weft::integrators {
namespace {

void verletRelaxAvx2(const VerletRelaxInput& in, uint32_t first, glm::vec4* sums) {
  lanes::verletRelaxGroup<avx2::Ops>(in, first, sums);
}

}  // namespace
}  // namespace weft::integrators

#include "solver/cpu/simd/avx2_target_end.h"
#endif  // WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

VerletRelaxLanes verletRelaxLanesAvx2() { return WEFT_AVX2_KERNEL(verletRelaxAvx2); }

}  // namespace weft::integrators
