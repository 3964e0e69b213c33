#pragma once
// XPBD's springs several at a time on the CPU backend: the same operations as gpu::xpbdSpring
// (shaders/xpbd.h), in the same order, on springs of one colour in the lanes of a vector register,
// so each lane's result is bit for bit the scalar function's (cpu/simd/lanes.h: sixteen with AVX-512,
// eight with AVX2, four with SSE2, none elsewhere, where every spring takes the scalar path). The
// spring's divisions and square root are most of its arithmetic, and the lanes take them at once.
#include <cstddef>

#include "shaders/shared.h"
#include "solver/cpu/simd/lanes.h"

namespace weft::integrators {

// Projects the leading springs of constraints[0, count) `width` at a time (16, 8 or 4; 1 does
// nothing; a width wider than the processor's is narrowed to it), as xpbd_project.comp does one at
// a time: positions x moved in place, `start` the step's start positions, h the step. The springs'
// multipliers are read from `lambdas` unless `first` (then 0), and written back to it if `keep`.
// Sixteen wide, the springs go in groups of sixteen, then one group of eight, then one of four;
// eight wide, sixteen at a time (two groups of eight side by side, cpu/simd/twice_lanes.h), then one
// group of eight, then one of four. Stops before the first group
// that holds an element or runs past `count`, and returns how many constraints it projected (a
// multiple of four); the caller projects the rest. The springs must be of one colour: no two of
// them share a particle.
size_t projectSpringLanes(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x, const glm::vec4* start,
                          float h, glm::vec4* lambdas, bool first, bool keep, int width = xpbdLaneWidth());

}  // namespace weft::integrators
