#include "solver/integrators/implicit_cg/implicit_cg.h"

#include <vector>

#include "solver/integrators/common/cg/cg_solve.h"

namespace weft::integrators {

namespace {

// One solve per step: the forces act over the whole step, the elastic ones at the end of it
// (linearised), and positions move with the new velocity.
CgSystem implicitEulerSystem(const gpu::StepParams& step) { return {step.dt, step.dt, step.dt}; }

class ImplicitCgUnit final : public IntegratorUnit {
 public:
  Integrator id() const override { return Integrator::ImplicitCg; }
  bool contactForces() const override { return true; }
  UnitMemory memory(const StateSize& size) const override { return cgMemory(size); }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams& params, const gpu::StepParams& step, float,
                                     int substeps, ThreadPool& pool) const override {
    std::vector<SolveStats> stats;
    for (int k = 0; k < substeps; ++k)
      stats.push_back(cgSolveCpu(state, step, implicitEulerSystem(step), cgSettings(params, true), pool));
    return stats;
  }
  void stateWritten(CpuState& state) const override { forgetCgGuessCpu(state); }
  void stateWritten(GpuState& state) const override { forgetCgGuessGpu(state); }
  bool submitsOwnFrames() const override { return true; }
  uint32_t timedPassesPerStep(const SolverParams&) const override { return 3; }  // setup, iterations, finish
  void prepareGpu(GpuState& state, const SolverParams&, int substeps) const override {
    prepareCgGpu(state, id(), static_cast<uint32_t>(substeps));
  }
  void recordStep(GpuRecorder& r, const SolverParams& params, const gpu::StepParams& step,
                  uint32_t substep) const override {
    recordCgSolve(r, id(), step, implicitEulerSystem(step), cgSettings(params, true), substep);
  }
  std::vector<SolveStats> advanceGpu(GpuFrame& frame, const SolverParams& params, const gpu::StepParams& step, float,
                                     int substeps) const override {
    const std::vector<CgSystem> solves(static_cast<size_t>(substeps), implicitEulerSystem(step));
    submitCgSolves(frame, id(), step, solves, cgSettings(params, true));
    return readFrameStats(frame.state, substeps);
  }
  std::vector<SolveStats> readFrameStats(GpuState& state, int substeps) const override {
    return readCgLog(state, id(), substeps);
  }
};

}  // namespace

template <>
const IntegratorUnit& integratorUnitFor<Integrator::ImplicitCg>() {
  static const ImplicitCgUnit unit;
  return unit;
}

}  // namespace weft::integrators
