#pragma once
// XPBD's springs four at a time on the CPU backend: the same operations as gpu::xpbdSpring
// (shaders/xpbd.h), in the same order, on four springs of one colour in the four lanes of an SSE
// register, so each lane's result is bit for bit the scalar function's (IEEE arithmetic rounds the
// same in a lane as in a scalar register; sqrt and division included). The spring's divisions and
// square root are most of its cost, and four lanes take them at once. Where the instruction set
// has no SSE, nothing is done here and every spring takes the scalar path.
#include <cstddef>

#include "shaders/shared.h"

namespace weft::integrators {

// Projects the leading springs of constraints[0, count) four at a time, as xpbd_project.comp does
// one at a time: positions x moved in place, `start` the step's start positions, h the step. The
// springs' multipliers are read from `lambdas` unless `first` (then 0), and written back to it if
// `keep`. Stops before the first group of four that holds an element or runs past `count`, and
// returns how many constraints it projected (a multiple of four); the caller projects the rest.
// The springs must be of one colour: no two of them share a particle.
size_t projectSpringLanes(const gpu::XpbdConstraint* constraints, size_t count, glm::vec4* x, const glm::vec4* start,
                          float h, glm::vec4* lambdas, bool first, bool keep);

}  // namespace weft::integrators
