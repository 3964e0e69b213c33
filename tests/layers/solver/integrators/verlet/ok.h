// Allowed: an integrator's own folder.
#include "solver/integrators/verlet/verlet_relax_lanes.h"
