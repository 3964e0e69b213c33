#pragma once
// Bridson, Marino & Fedkiw 2003 ("Simulation of clothing with folds and wrinkles", SCA 2003,
// section on time integration): elastic forces explicit, damping forces implicit. The elastic
// part is central differencing (leapfrog in position); each velocity half step is backward Euler
// in the velocity-dependent forces only:
//   v^(n+1/2) = v^n       + h/2 M^-1 f(x^n,     v^(n+1/2))
//   x^(n+1)   = x^n       + h v^(n+1/2)                      (then the colliders)
//   v^(n+1)   = v^(n+1/2) + h/2 M^-1 f(x^(n+1), v^(n+1))
// The damping forces (springs' axial damping, the elements' stiffness-proportional damping, air
// drag) are linear in v at fixed x, so each half step is exactly one linear system,
//   (M - h/2 df/dv) dv = h/2 f(x, v_start),   v_end = v_start + dv,
// with the damping Jacobian only: no stiffness term, whatever the springs' stiffness. That is
// implicit-cg's system with its position term dropped (stiffnessTime 0), so both half steps run
// implicit-cg's solve (solver/integrators/common/cg/cg_solve.h) with
// (forceTime, stiffnessTime, driftTime) = (h/2, 0, h), then (h/2, 0, 0).
//
// Why: stiff damping then costs no step limit (explicit damping diverges once h c/m > 2), while
// the elastic forces keep central differencing's accuracy and lack of artificial damping;
// the step limit left is the elastic one, omega h < 2. Pins and resting contacts are filtered
// out of each solve as in implicit-cg; the colliders run after the position update, so the
// second half step starts from a state outside them. (The paper runs its collision handling on
// v^(n+1/2) before the position update; weft's colliders project positions after it, as every
// other integrator here does.)
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

// Solves take SolverParams::tolerance and maxIterations, per half step; a step's SolveStats add
// the two solves' iterations and keep the larger residual.

}  // namespace weft::integrators
