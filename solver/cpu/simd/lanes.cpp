#include "solver/cpu/simd/lanes.h"

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

bool processorHasAvx512() {
  static const bool has = [] {
#if WEFT_XPBD_AVX512_LANES
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    return false;
#endif
  }();
  return has;
}

int xpbdProcessorWidth() { return processorHasAvx512() ? 16 : processorLaneWidth(); }

size_t projectInLanes(const LanesKernels& kernels, const gpu::XpbdConstraint* c, size_t count, glm::vec4* x,
                      const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep, int width) {
  width = std::min(width, xpbdProcessorWidth());
  size_t done = 0;
  // Each kernel from the widest the width allows: all the groups it can take where it is the
  // widest, else at most one group after the wider one stopped.
  const struct {
    LanesKernel kernel;
    int lanes;
  } steps[3] = {{kernels.sixteen, 16}, {kernels.eight, 8}, {kernels.four, 4}};
  bool widest = true;
  for (const auto& step : steps) {
    if (width < step.lanes || !step.kernel) continue;
    const size_t take = widest ? count - done : std::min<size_t>(count - done, size_t(step.lanes));
    done += step.kernel(c + done, take, x, start, h, lambdas + done, first, keep);
    widest = false;
  }
  return done;
}

int xpbdLaneWidth() {
  static const int width = [] {
    int w = xpbdProcessorWidth();
    if (const char* asked = std::getenv("WEFT_XPBD_LANES")) {
      if (std::strcmp(asked, "1") == 0) w = 1;
      else if (std::strcmp(asked, "4") == 0) w = std::min(w, 4);
      else if (std::strcmp(asked, "8") == 0) w = std::min(w, 8);
    }
    return w;
  }();
  return width;
}

}  // namespace weft::integrators
