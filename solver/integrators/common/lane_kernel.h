#pragma once
// A CPU backend vector kernel chosen once per program from the two widths a build may hold: eight
// lanes with AVX2 where the processor has it, else four with SSE2, else none (the scalar rows).
#include "solver/integrators/xpbd/xpbd_lanes.h"

namespace weft::integrators {

template <class Fn>
struct LaneKernel {
  Fn run = nullptr;  // null where the build or the processor has no lanes
  int width = 1;
};

// sse and avx2: the kernel built for each, null where the build has none.
template <class Fn>
LaneKernel<Fn> widestLaneKernel(Fn sse, Fn avx2) {
  const int width = processorLaneWidth();
  if (width >= 8 && avx2) return {avx2, 8};
  if (width >= 4 && sse) return {sse, 4};
  return {};
}

}  // namespace weft::integrators
