#pragma once
// Strain limiting (Provot 1995) as a projection after every step of every integrator: K Jacobi
// iterations that bring each limited spring back inside [(1 - compression) L, (1 + stretch) L],
// with the velocities corrected by the same moves / dt. The physics is shaders/strain_limit.h; this
// is its CPU loop and its GPU pass sequence (strain_limit.comp), side by side. The solvers of both
// backends call it after each step they ask of an integrator unit (CpuSolver::advance,
// GpuSolver::advance and recordAdvance), so no integrator unit knows of it.
#include "solver/backend/backend_state.h"

namespace weft {

class ThreadPool;

// true when some spring of the cloth has a limit (the spring table then holds its strain limits).
inline bool hasStrainLimit(const CpuState& state) { return !state.springs.strainLimits.empty(); }
inline bool hasStrainLimit(const GpuState& state) { return static_cast<bool>(state.strainLimits); }

// `iterations` Jacobi iterations on state.positions and state.velocities; the last one collides.
void limitStrainCpu(CpuState& state, const gpu::StepParams& step, int iterations, ThreadPool& pool);

// The same as 2 * iterations dispatches, timed as one "strain_limit" region. Needs
// prepareStrainLimitGpu first (not while recording).
void prepareStrainLimitGpu(GpuState& state);
void recordStrainLimit(GpuRecorder& recorder, const gpu::StepParams& step, int iterations);

}  // namespace weft
