// Explicit Euler exactly as seed 000 defines it (x' = x + v dt, v' = v + a dt), and symplectic
// Euler (v' = v + a dt, x' = x + v' dt). One gathered pass per step on both backends.
// Both are one unit, told apart by the step's mode (makeStepParams).
#include "solver/integrators/integrator_unit.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/integrators/common/acceleration_lanes.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/cpu/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

namespace {

// The CPU twin of euler_step.comp, line for line but for its collision, which eulerStepCpu runs
// after each block of particles (stepThenCollideBlocks).
void eulerStepParticle(uint32_t i, const CpuState& s, CpuState& out, const gpu::StepParams& p, AccelerationGroups& accelerations) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 x = xyz(xi);
  glm::vec3 v = xyz(s.velocities[i]);
  if (xi.w == 0.f) {  // pinned: never moves
    out.positionsOut[i] = xi;
    out.velocitiesOut[i] = glm::vec4(0.f);
    return;
  }
  glm::vec3 a = accelerations.at(i);
  float dt = p.dt;
  if (p.mode == WEFT_MODE_EXPLICIT_EULER) {  // seed 000: position advances with the old velocity
    x += v * dt;
    v += a * dt;
  } else {
    v += a * dt;
    x += v * dt;
  }
  out.positionsOut[i] = glm::vec4(x, xi.w);
  out.velocitiesOut[i] = glm::vec4(v, 0.f);
}

// One step of either variant (params.mode), all particles, then the state is swapped.
void eulerStepCpu(CpuState& state, const gpu::StepParams& params, ThreadPool& pool) {
  pool.parallelFor(state.positions.size(), [&](size_t begin, size_t end) {
    AccelerationGroups accelerations(state.positions, state.velocities, state.springs, state.elements, params, end);
    integrators::stepThenCollideBlocks(begin, end, state.positionsOut, state.velocitiesOut, state.colliders,
                                       state.colliderGrid, params.dt,
                                       [&](uint32_t i) { eulerStepParticle(i, state, state, params, accelerations); });
  });
  state.swapPositions();
  state.swapVelocities();
}

struct EulerResources : UnitResources {
  explicit EulerResources(const GpuState& s) : step(s.program(s.springKernel("euler_step.comp"))) {}
  engine::ComputeProgram step;
};

// The same step as one dispatch of euler_step.comp.
void recordEulerStep(GpuRecorder& r, const engine::ComputeProgram& program, const gpu::StepParams& params) {
  GpuState& s = r.state;
  engine::timed(r.timer, r.cmd, "euler_step", [&] {
    program.dispatch(r.cmd, s.particleCount,
                                  s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                   {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
                                   {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                   {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()}}),
                                  params);
  });
  engine::barrier::computeToCompute(r.vk(), r.cmd);
  s.swapPositions();
  s.swapVelocities();
}

class EulerUnit final : public IntegratorUnit {
 public:
  explicit EulerUnit(Integrator variant) : variant_(variant) {}
  Integrator id() const override { return variant_; }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams&, const gpu::StepParams& step, float,
                                     int substeps, ThreadPool& pool) const override {
    for (int k = 0; k < substeps; ++k) eulerStepCpu(state, step, pool);
    return {};
  }
  bool explicitForces() const override { return true; }
  double stableStep(const ModeBounds& b) const override {
    if (variant_ == Integrator::ExplicitEuler) {
      // z = h lambda within |1 + z| <= 1: h <= gamma / omega^2 for an oscillating mode (none
      // undamped), and h <= 2 / |lambda| <= 2 / max(omega, gamma) for an overdamped one.
      const double fastest = std::max(b.omega, b.gamma);
      return std::min(b.dampingPerStiffness, fastest > 0.0 ? 2.0 / fastest : std::numeric_limits<double>::infinity());
    }
    // Symplectic Euler on x'' = -omega^2 x - gamma x': v' = v + h a(x, v), x' = x + h v'. Its
    // amplification matrix has trace 2 - h gamma - h^2 omega^2 and determinant 1 - h gamma, and
    // both roots lie in the unit circle while h^2 omega^2 + 2 h gamma < 4 (Jury's test).
    if (b.omega > 0.0) return (std::sqrt(b.gamma * b.gamma + 4.0 * b.omega * b.omega) - b.gamma) / (b.omega * b.omega);
    return b.gamma > 0.0 ? 2.0 / b.gamma : std::numeric_limits<double>::infinity();
  }
  uint32_t timedPassesPerStep(const SolverParams&) const override { return 1; }
  void prepareGpu(GpuState& state, const SolverParams&, int) const override { state.unit<EulerResources>(variant_); }
  void recordStep(GpuRecorder& r, const SolverParams&, const gpu::StepParams& step, uint32_t) const override {
    recordEulerStep(r, r.state.unit<EulerResources>(variant_).step, step);
  }

 private:
  Integrator variant_;
};

}  // namespace

template <>
const IntegratorUnit& integratorUnitFor<Integrator::ExplicitEuler>() {
  static const EulerUnit unit(Integrator::ExplicitEuler);
  return unit;
}

template <>
const IntegratorUnit& integratorUnitFor<Integrator::SymplecticEuler>() {
  static const EulerUnit unit(Integrator::SymplecticEuler);
  return unit;
}

}  // namespace weft::integrators
