#pragma once
// Classical fourth-order Runge-Kutta (seed 004) on positions and velocities: four evaluations of
// a(x, v) per step, slopes weighted 1, 2, 2, 1. Four gathered passes per step on both backends.
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

const IntegratorUnit& rk4Unit();

}  // namespace weft::integrators
