#include "solver/integrators/xpbd/xpbd_tether_lanes.h"

#include "solver/cpu/simd/lane_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"
#include "solver/integrators/xpbd/xpbd_tether_lanes_kernel.h"

namespace weft::integrators {

size_t projectTetherLanes(const gpu::XpbdConstraint* c, size_t count, glm::vec4* x, const glm::vec4* start, float h,
                          glm::vec4* lambdas, bool first, bool keep, int width) {
  const LanesKernels kernels{WEFT_AVX512_KERNEL(projectTetherLanesAvx512), WEFT_AVX2_KERNEL(projectTetherLanesAvx2),
                             WEFT_SSE_KERNEL(lanes::projectTethers<sse::Ops>)};
  return projectInLanes(kernels, c, count, x, start, h, lambdas, first, keep, width);
}

}  // namespace weft::integrators
