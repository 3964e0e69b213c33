#include "solver/integrators/xpbd/xpbd_lanes.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace weft::integrators {

int processorLaneWidth() {
  static const int width = [] {
#if WEFT_XPBD_AVX2_LANES
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return 8;
#endif
#if defined(__SSE2__)
    return 4;
#else
    return 1;
#endif
  }();
  return width;
}

size_t projectInLanes(LanesKernel eight, LanesKernel four, const gpu::XpbdConstraint* c, size_t count, glm::vec4* x,
                      const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep, int width) {
  width = std::min(width, processorLaneWidth());
  size_t done = 0;
  if (width >= 8 && eight) done = eight(c, count, x, start, h, lambdas, first, keep);
  // Four wide, or one group of four after the eights (which stop short of a group of eight that
  // holds another kind, or of fewer than eight left).
  if (width >= 4 && four)
    done += four(c + done, std::min<size_t>(count - done, width >= 8 ? 4 : count - done), x, start, h, lambdas + done,
                 first, keep);
  return done;
}

int xpbdLaneWidth() {
  static const int width = [] {
    int w = processorLaneWidth();
    if (const char* asked = std::getenv("WEFT_XPBD_LANES")) {
      if (std::strcmp(asked, "1") == 0) w = 1;
      else if (std::strcmp(asked, "4") == 0) w = std::min(w, 4);
    }
    return w;
  }();
  return width;
}

}  // namespace weft::integrators
