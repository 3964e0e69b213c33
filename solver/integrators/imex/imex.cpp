#include "solver/integrators/imex/imex.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "solver/integrators/common/cg/cg_solve.h"

namespace weft::integrators {

namespace {

// The first half step: damping implicit over h/2, elastic forces at x^n, then the drift by h.
CgSystem firstHalf(const gpu::StepParams& step) { return {0.5f * step.dt, 0.f, step.dt}; }
// The second: the same at x^(n+1); positions stay.
CgSystem secondHalf(const gpu::StepParams& step) { return {0.5f * step.dt, 0.f, 0.f}; }

// Convergence checks on the GPU every 2 iterations, not implicit-cg's 8: the damping-only matrix
// is close to the block diagonal its preconditioner inverts, so a solve typically stops after one or
// two iterations, and 8 would record mostly empty ones (5 dispatches of ~35 us each on lavapipe).
// Measured on the invariant suite's pinned cloth (64 steps a frame): 25.4 s at 8, 15.2 s at 2,
// 14.9 s at 1, where a check costs a submission and a wait.
constexpr int kIterationsPerCheck = 2;
// No warm start: the solve before each is the other half step's, of another system, and the
// damping-only solves stop within an iteration or two from zero anyway.
constexpr bool kWarmStart = false;

// A step's stats from its two half steps' solves.
SolveStats combine(const SolveStats& first, const SolveStats& second) {
  return {first.iterations + second.iterations, std::max(first.residual, second.residual),
          first.converged && second.converged, first.dt};
}

class ImexUnit final : public IntegratorUnit {
 public:
  Integrator id() const override { return Integrator::Imex; }
  // The elastic forces are explicit (central differencing): stable only while omega h < 2 without
  // damping, and somewhat past it with (stableStep).
  bool explicitForces() const override { return true; }
  // A mode x'' = -omega^2 x - gamma x' through the two half steps (damping implicit over each half,
  // the elastic force at its start and end, the drift between) is multiplied each step by a matrix
  // of determinant a^2 and trace 1 - a s + a^2 (1 - s), with a = 1 / (1 + h gamma / 2) and
  // s = h^2 omega^2 / 2. By Jury's test it stays bounded while s a (1 + a) < 2 (1 + a^2). More
  // damping only helps (a (1 + a) / (1 + a^2) grows with a) and the left side grows with omega, so
  // the limit is the fastest mode's at its least damping, gamma = dampingPerStiffness omega^2: found
  // by bisection on x = h omega, from 2 (which holds at any damping). Undamped it is 2 / omega; a
  // heavily damped cloth (omega c / k large) tends to h = 2 c / k.
  double stableStep(const ModeBounds& b) const override {
    const double q = b.dampingPerStiffness * b.omega;
    if (!(b.omega > 0.0) || !std::isfinite(q)) return std::numeric_limits<double>::infinity();
    auto holds = [q](double x) {
      const double a = 1.0 / (1.0 + 0.5 * q * x), s = 0.5 * x * x;
      return s * a * (1.0 + a) < 2.0 * (1.0 + a * a);
    };
    double low = 2.0, high = 4.0;
    while (holds(high)) high *= 2.0;  // s a (1 + a) grows past x / q: some x fails
    for (int k = 0; k < 100; ++k) {
      const double middle = 0.5 * (low + high);
      (holds(middle) ? low : high) = middle;
    }
    return low / b.omega;
  }
  UnitMemory memory(const StateSize& size) const override { return cgMemory(size); }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams& params, const gpu::StepParams& step, float,
                                     int substeps, ThreadPool& pool) const override {
    const CgSettings settings = cgSettings(params, kWarmStart);
    std::vector<SolveStats> stats;
    for (int k = 0; k < substeps; ++k) {
      const SolveStats first = cgSolveCpu(state, step, firstHalf(step), settings, pool);
      const SolveStats second = cgSolveCpu(state, step, secondHalf(step), settings, pool);
      stats.push_back(combine(first, second));
    }
    return stats;
  }
  bool submitsOwnFrames() const override { return true; }
  // Two solves, each a setup, its iterations and a finish.
  uint32_t timedPassesPerStep(const SolverParams&) const override { return 6; }
  void prepareGpu(GpuState& state, const SolverParams&, int substeps) const override {
    prepareCgGpu(state, id(), 2 * static_cast<uint32_t>(substeps));  // a log entry per half step
  }
  void recordStep(GpuRecorder& r, const SolverParams& params, const gpu::StepParams& step,
                  uint32_t substep) const override {
    const CgSettings settings = cgSettings(params, kWarmStart);
    recordCgSolve(r, id(), step, firstHalf(step), settings, 2 * substep);
    recordCgSolve(r, id(), step, secondHalf(step), settings, 2 * substep + 1);
  }
  std::vector<SolveStats> advanceGpu(GpuFrame& frame, const SolverParams& params, const gpu::StepParams& step, float,
                                     int substeps) const override {
    std::vector<CgSystem> solves;
    for (int s = 0; s < substeps; ++s) {
      solves.push_back(firstHalf(step));
      solves.push_back(secondHalf(step));
    }
    CgSettings settings = cgSettings(params, kWarmStart);
    settings.iterationsPerCheck = kIterationsPerCheck;
    submitCgSolves(frame, id(), step, solves, settings);
    return readFrameStats(frame.state, substeps);
  }
  std::vector<SolveStats> readFrameStats(GpuState& state, int substeps) const override {
    const std::vector<SolveStats> halves = readCgLog(state, id(), 2 * substeps);
    std::vector<SolveStats> stats;
    for (int k = 0; k < substeps; ++k) stats.push_back(combine(halves[2 * k], halves[2 * k + 1]));
    return stats;
  }
};

}  // namespace

template <>
const IntegratorUnit& integratorUnitFor<Integrator::Imex>() {
  static const ImexUnit unit;
  return unit;
}

}  // namespace weft::integrators
