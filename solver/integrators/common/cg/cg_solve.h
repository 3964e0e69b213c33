#pragma once
// One linearised velocity update solved by Baraff & Witkin's modified preconditioned CG (seed 001),
// on both backends: the solve implicit-cg takes once per step and imex twice (one per half step).
// Which system it solves is chosen by three times (gpu::SolveParams, shaders/shared.h):
//   (M - a df/dv - a l df/dx) dv = a (f0 + l df/dx v0),   v' = v0 + dv,   x' = x0 + d v'
// Pins and resting contacts enter as Baraff & Witkin's filter, the preconditioner is the inverse
// of each particle's 3x3 diagonal block (block-Jacobi; on the CPU backend, where the parameters ask
// for it, plus the two-level coarse correction of cg_coarse.h), and the colliders run after the
// finish's position update.
// A warm start begins from the last solve's answer, filtered, where its residual is smaller than
// b's (cg_warm.comp); the stopping test stays relative to b's, so it asks for the same accuracy.
// The CPU loop and the GPU passes (cg_*.comp, decisions in cg.h) have the same shape, pass for pass.
#include <span>

#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

// The times that weight one solve (see gpu::SolveParams): a, l and d above, in seconds.
struct CgSystem {
  float forceTime;      // a
  float stiffnessTime;  // l (0: elastic forces explicit, only the damping Jacobian in A)
  float driftTime;      // d (0: positions stay)
};

struct CgSettings {
  float tolerance;         // relative preconditioned residual sqrt(r.s / r0.s0)
  int maxIterations;
  int iterationsPerCheck;  // submitCgSolves: iterations between the host's convergence checks
  bool warmStart;          // start from the last solve's answer where it is the better start
  bool twoLevel;           // the two-level preconditioner (cg_coarse.h); CPU backend only
};
// The solver's tolerance and cap, a convergence check every 8 iterations, and a warm start where
// the unit asks for one and SolverParams::cgWarmStart allows it.
CgSettings cgSettings(const SolverParams& params, bool warmStart);

// What one solve's buffers take (GPU and host), for a unit's memory().
UnitMemory cgMemory(const StateSize& size);

// ---- CPU ----
// Solves from state.positions/velocities, finishes into the Out buffers and swaps them in.
SolveStats cgSolveCpu(CpuState& state, const gpu::StepParams& step, const CgSystem& system, const CgSettings& settings,
                      ThreadPool& pool);

// The state was written: the last answer is no guess for the next solve (a solver given a state
// continues as one made from it).
void forgetCgGuessCpu(CpuState& state);

// ---- GPU ----
void forgetCgGuessGpu(GpuState& state);  // as forgetCgGuessCpu; waits for the device
// The solve's kernels and buffers live in GpuState::units under `owner` (the integrator using
// them); `logEntries` is how many solves a frame logs.
void prepareCgGpu(GpuState& state, Integrator owner, uint32_t logEntries);
// One solve with its iteration cap recorded (nothing may wait on the host); logs at `logIndex`.
void recordCgSolve(GpuRecorder& r, Integrator owner, const gpu::StepParams& step, const CgSystem& system,
                   const CgSettings& settings, uint32_t logIndex);
// Solves in order, the k-th logged at entry k, each submitted in chunks of iterations that stop at
// the first chunk after convergence: the host reads the 32-byte scalar state between chunks
// instead of paying for the cap's empty dispatches (~35 us each on lavapipe). A solve's finish
// rides in the next one's first submission, so a solve that converges within its first chunk
// costs one submission.
void submitCgSolves(GpuFrame& frame, Integrator owner, const gpu::StepParams& step, std::span<const CgSystem> systems,
                    const CgSettings& settings);
// The first `entries` entries of the log.
std::vector<SolveStats> readCgLog(GpuState& state, Integrator owner, int entries);

}  // namespace weft::integrators
