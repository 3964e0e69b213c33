#pragma once
// Explicit Euler exactly as seed 000 defines it (x' = x + v dt, v' = v + a dt), and symplectic
// Euler (v' = v + a dt, x' = x + v' dt). One gathered pass per step on both backends.
// Both are one unit, told apart by the step's mode (makeStepParams).
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

// Integrator::ExplicitEuler or Integrator::SymplecticEuler.
const IntegratorUnit& eulerUnit(Integrator variant);

}  // namespace weft::integrators
