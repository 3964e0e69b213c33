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
