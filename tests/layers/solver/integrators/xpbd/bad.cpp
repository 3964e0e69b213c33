// Breaks three rules: an integrator includes contact, a pass and another integrator.
#include "solver/contact/contact.h"
#include "solver/passes/handles.h"
#include "solver/integrators/verlet/verlet.h"
// Allowed: its own folder, what integrators share, the backends and the lanes.
#include "solver/integrators/xpbd/xpbd.h"
#include "solver/integrators/common/solve_kit.h"
#include "solver/backend/backend_state.h"
#include "solver/cpu/simd/lanes.h"
