#include "solver/integrators/xpbd/xpbd_spring_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/xpbd/xpbd_spring_lanes_kernel.h"
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

size_t projectSpringLanes(const gpu::XpbdConstraint* c, size_t count, glm::vec4* x, const glm::vec4* start, float h,
                          glm::vec4* lambdas, bool first, bool keep, int width) {
#if WEFT_XPBD_AVX2_LANES
  const LanesKernel eight = projectSpringLanesAvx2;
#else
  const LanesKernel eight = nullptr;
#endif
#if defined(__SSE2__)
  const LanesKernel four = lanes::projectSprings<sse::Ops>;
#else
  const LanesKernel four = nullptr;
#endif
  return projectInLanes(eight, four, c, count, x, start, h, lambdas, first, keep, width);
}

}  // namespace weft::integrators
