#include "solver/integrators/xpbd/xpbd_tether_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#include "solver/integrators/xpbd/xpbd_tether_lanes_kernel.h"
#endif

namespace weft::integrators {

size_t projectTetherLanes(const gpu::XpbdConstraint* c, size_t count, glm::vec4* x, const glm::vec4* start, float h,
                          glm::vec4* lambdas, bool first, bool keep, int width) {
#if WEFT_XPBD_AVX2_LANES
  const LanesKernel eight = projectTetherLanesAvx2;
#else
  const LanesKernel eight = nullptr;
#endif
#if defined(__SSE2__)
  const LanesKernel four = lanes::projectTethers<sse::Ops>;
#else
  const LanesKernel four = nullptr;
#endif
  return projectInLanes(eight, four, c, count, x, start, h, lambdas, first, keep, width);
}

}  // namespace weft::integrators
