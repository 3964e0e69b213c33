#pragma once
// What an integrator step works on, both backends' (a unit has a CPU loop and a GPU pass sequence):
// the CPU backend's state (cpu/cpu_state.h), the GPU backend's (gpu/gpu_state.h), and the step's
// push constants from the solver's parameters.
#include <cstdint>

#include "shaders/shared.h"
#include "solver/backend/solver.h"
#include "solver/backend/unit_resources.h"
#include "solver/cpu/cpu_state.h"
#include "solver/gpu/gpu_state.h"

namespace weft {

class ThreadPool;

// elementRefs: the element table's incidence entries (0 lets every element gather skip its rows).
gpu::StepParams makeStepParams(const SolverParams& params, float dt, uint32_t particleCount, uint32_t colliderCount,
                               uint32_t elementRefs);

}  // namespace weft
