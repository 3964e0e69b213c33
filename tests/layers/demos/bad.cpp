// Breaks one rule: the program includes an integrator's folder.
#include "solver/integrators/xpbd/xpbd.h"
// Allowed: the registry's interface.
#include "solver/integrators/integrator_unit.h"
