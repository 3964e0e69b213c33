#pragma once
// Which vector lanes the CPU backend's XPBD projections run (xpbd_spring_lanes.h,
// xpbd_tether_lanes.h): sixteen at a time where the processor has AVX-512 (F and DQ), eight where it
// has AVX2, chosen when the program runs so that the binary still runs on any x86-64; four with
// SSE2 (every x86-64); none elsewhere. Each
// width gives the scalar path's bits (IEEE arithmetic rounds the same in a lane as in a scalar
// register; no fused multiply-add), so the choice changes the speed and nothing else.
#include <cstddef>

#include "shaders/shared.h"

// Whether this build has the AVX2 kernels (x86-64, with GCC or Clang for their target switch).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WEFT_XPBD_AVX2_LANES 1
#else
#define WEFT_XPBD_AVX2_LANES 0
#endif
// And the AVX-512 kernels, where it has the AVX2 ones.
#define WEFT_XPBD_AVX512_LANES WEFT_XPBD_AVX2_LANES

namespace weft::integrators {

// The widest lanes the processor and the build run: 8, 4 or 1 (none). Asked once. The kernels
// other than xpbd's projections go no wider than eight.
int processorLaneWidth();

// Whether the processor and the build run the sixteen-wide kernels (AVX-512 F and DQ). Asked once.
bool processorHasAvx512();

// The widest lanes xpbd's projections run here: 16 where processorHasAvx512(), else
// processorLaneWidth().
int xpbdProcessorWidth();

// The width the CPU backend's xpbd uses: xpbdProcessorWidth(), unless the environment variable
// WEFT_XPBD_LANES is 1, 4 or 8, which narrows it (to measure one width against another in the same
// binary); it never widens it.
int xpbdLaneWidth();

// A kernel that projects the leading constraints of one kind in lanes, as projectSpringLanes and
// projectTetherLanes describe, and returns how many it projected.
using LanesKernel = size_t (*)(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x,
                               const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep);

// The kernels of each width a build has (null where it has none).
struct LanesKernels {
  LanesKernel sixteen, eight, four;
};

// What projectSpringLanes and projectTetherLanes share: `width` narrowed to the processor's, then
// the widest kernel's groups first (where width is 16 or 8 and the build has that kernel), then one
// group of each narrower width after them (eight, then four), or the four-wide kernel on all of
// them at width 4. A kernel stops short of a group that holds another kind, or of fewer left than
// its width, which the narrower ones then take.
size_t projectInLanes(const LanesKernels& kernels, const gpu::XpbdConstraint* constraints, size_t count,
                      glm::vec4* x, const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep,
                      int width);

#if WEFT_XPBD_AVX2_LANES
// The eight-wide kernels (xpbd_lanes_avx2.cpp), called only where the processor has AVX2; the
// arguments as projectSpringLanes' and projectTetherLanes' own, the groups eight wide, run two
// at a time (cpu/simd/twice_lanes.h).
size_t projectSpringLanesAvx2(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x, const glm::vec4* start,
                              float h, glm::vec4* lambdas, bool first, bool keep);
size_t projectTetherLanesAvx2(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x, const glm::vec4* start,
                              float h, glm::vec4* lambdas, bool first, bool keep);
#endif
#if WEFT_XPBD_AVX512_LANES
// The sixteen-wide kernels (xpbd_lanes_avx512.cpp), called only where processorHasAvx512(); the
// arguments as projectSpringLanes' and projectTetherLanes' own, one group of sixteen at a time.
size_t projectSpringLanesAvx512(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x,
                                const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep);
size_t projectTetherLanesAvx512(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x,
                                const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep);
#endif

}  // namespace weft::integrators
