#pragma once
// XPBD's tethers several at a time on the CPU backend: gpu::xpbdTether (shaders/xpbd.h) and
// projectTether's writes (xpbd_tether.h), the same operations in the same order, in the lanes of a
// vector register, so each lane's result is bit for bit the scalar path's (XpbdTetherLanes checks;
// cpu/simd/lanes.h: sixteen with AVX-512, eight with AVX2, four with SSE2, none elsewhere). A colour lists its tethers
// together after its springs (buildXpbdConstraints), so they come in long runs; their square root
// and divisions were most of their cost, which the tethers to two pins made a quarter of a step.
#include <cstddef>

#include "shaders/shared.h"
#include "solver/cpu/simd/lanes.h"

namespace weft::integrators {

// Projects the leading tethers of constraints[0, count) `width` at a time (16, 8 or 4; 1 does
// nothing; a width wider than the processor's is narrowed to it), as projectTether does one at a
// time: positions x moved in place, `start` the step's start positions, h the step. Each tether's
// particle, pin, limit, stiffness and damping are read from its constraint (tetherConstraint), not
// from the element table. Multipliers are read from `lambdas` unless `first` (then 0), and written
// back if `keep`. Sixteen wide, they go in groups of sixteen, then one group of eight, then one
// of four; eight wide, sixteen at a time (two groups of eight side by side), then one group of
// eight, then one of four. Stops before the first group that holds anything but a tether
// carried in full (form WEFT_XPBD_TETHER) or a tether whose anchor is free (the scalar path moves
// such an anchor, and lanes sharing it would lose all but one move), or that runs past `count`;
// returns how many it projected (a multiple of four). The tethers must be of one colour: no two share their particle.
size_t projectTetherLanes(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x, const glm::vec4* start,
                          float h, glm::vec4* lambdas, bool first, bool keep, int width = xpbdLaneWidth());

}  // namespace weft::integrators
