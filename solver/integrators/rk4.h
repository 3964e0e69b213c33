#pragma once
// Classical fourth-order Runge-Kutta (seed 004) on positions and velocities: four evaluations of
// a(x, v) per step, slopes weighted 1, 2, 2, 1. Four gathered passes per step on both backends.
#include "solver/backend_state.h"

namespace weft::integrators {

void rk4StepCpu(CpuState& state, const gpu::StepParams& params, ThreadPool& pool);
void recordRk4Step(GpuRecorder& recorder, const gpu::StepParams& params);

}  // namespace weft::integrators
