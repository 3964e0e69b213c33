#include "solver/integrators/xpbd/xpbd_tether_lanes.h"

#include <algorithm>

#if defined(__SSE2__)
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#include "solver/integrators/xpbd/xpbd_tether_lanes_kernel.h"
#endif

namespace weft::integrators {

size_t projectTetherLanes(const gpu::XpbdConstraint* c, size_t count, const gpu::Element* elements, glm::vec4* x,
                          const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep, int width) {
  width = std::min(width, processorLaneWidth());
  size_t done = 0;
#if WEFT_XPBD_AVX2_LANES
  if (width >= 8) done = projectTetherLanesAvx2(c, count, elements, x, start, h, lambdas, first, keep);
#endif
#if defined(__SSE2__)
  // Four wide, or one group of four after the eights.
  if (width >= 4)
    done += lanes::projectTethers<sse::Ops>(c + done, std::min<size_t>(count - done, width >= 8 ? 4 : count - done),
                                            elements, x, start, h, lambdas + done, first, keep);
#endif
  return done;
}

}  // namespace weft::integrators
