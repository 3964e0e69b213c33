#pragma once
// Explicit Euler exactly as seed 000 defines it (x' = x + v dt, v' = v + a dt), and symplectic
// Euler (v' = v + a dt, x' = x + v' dt). One gathered pass per step on both backends.
#include "solver/backend_state.h"

namespace weft::integrators {

// CPU: one step of either variant (params.mode), all particles, then the state is swapped.
void eulerStepCpu(CpuState& state, const gpu::StepParams& params, ThreadPool& pool);
// GPU: the same step as one dispatch of euler_step.comp, recorded into recorder.cmd.
void recordEulerStep(GpuRecorder& recorder, const gpu::StepParams& params);

}  // namespace weft::integrators
