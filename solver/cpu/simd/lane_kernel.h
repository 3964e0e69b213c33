#pragma once
// A CPU backend vector kernel chosen once per program from the widths a build may hold: sixteen
// lanes with AVX-512 where the processor has it and the kernel has such a width, else eight with
// AVX2, else four with SSE2, else none (the scalar rows).
#include "solver/cpu/simd/lanes.h"

// A unit's kernel for each width where the build has it, else null: `kernel` is dropped unread
// where the build has none (its lane type is then not even declared). Each width's kernel lives in a
// unit of its own: the SSE2 one in a unit built for the baseline instruction set (with
// cpu/simd/sse_lanes.h), the AVX2 one in a unit switched to AVX2 (common/avx2_target_begin.h), the
// AVX-512 one in a unit switched to AVX-512 (common/avx512_target_begin.h).
#if defined(__SSE2__)
#define WEFT_SSE_KERNEL(kernel) (kernel)
#else
#define WEFT_SSE_KERNEL(kernel) nullptr
#endif
#if WEFT_XPBD_AVX2_LANES
#define WEFT_AVX2_KERNEL(kernel) (kernel)
#else
#define WEFT_AVX2_KERNEL(kernel) nullptr
#endif
#if WEFT_XPBD_AVX512_LANES
#define WEFT_AVX512_KERNEL(kernel) (kernel)
#else
#define WEFT_AVX512_KERNEL(kernel) nullptr
#endif

namespace weft::integrators {

template <class Fn>
struct LaneKernel {
  Fn run = nullptr;  // null where the build or the processor has no lanes
  int width = 1;
};

// sse, avx2 and avx512: the kernel built for each, null where the build has none (most kernels go
// no wider than eight: avx512 left out).
template <class Fn>
LaneKernel<Fn> widestLaneKernel(Fn sse, Fn avx2, Fn avx512 = nullptr) {
  const int width = processorLaneWidth();
  if (avx512 && processorHasAvx512()) return {avx512, 16};
  if (width >= 8 && avx2) return {avx2, 8};
  if (width >= 4 && sse) return {sse, 4};
  return {};
}

}  // namespace weft::integrators
