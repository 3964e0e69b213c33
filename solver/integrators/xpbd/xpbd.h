#pragma once
// XPBD (Macklin, Mueller & Chentanez 2016) in the small-steps form of Macklin et al. 2019:
//   predict:  x_start = x;  x* = x + dt (v + a_ext dt)         (Verlet's prediction pass, shared)
//   project:  `iterations` Gauss-Seidel sweeps over the cloth's constraints (every spring and every
//             elastic element, shaders/xpbd.h), a colour at a time (xpbd_colouring.h); each
//             constraint keeps its multipliers across the step's sweeps
//   finish:   v = v* + (x - x*) / dt, then the colliders.
// Compliance is 1 / stiffness in physical units, so a cloth is as stiff at 1 iteration as at 20
// and at 64^2 as at 256^2; the iterations and substeps buy accuracy (how far the constraints are
// from their compliant solution), not stiffness. Macklin et al. 2019 recommend many substeps of one
// iteration each: the error of a step falls as dt^2 and the multipliers need no warm start.
// Unlike Verlet's Jacobi averaging, a Gauss-Seidel sweep carries a correction across the cloth as
// it goes, one dispatch per colour (about 20 for a grid with bend springs and elements).
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

// Steps take SolverParams::iterations (0: no projection, the step is Verlet's prediction alone).

}  // namespace weft::integrators
