// Classical fourth-order Runge-Kutta (seed 004) on positions and velocities: four evaluations of
// a(x, v) per step, slopes weighted 1, 2, 2, 1. Four gathered passes per step on both backends.
#include "solver/integrators/integrator_unit.h"

#include <algorithm>
#include <limits>

#include "engine/commands.h"
#include "solver/integrators/common/acceleration_lanes.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/cpu/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

namespace {

// Where one stage reads its state and writes the next one (the CPU mirror of the GPU bindings).
struct Rk4Arrays {
  const std::vector<glm::vec4>& x0;
  const std::vector<glm::vec4>& v0;
  const std::vector<glm::vec4>& xs;
  const std::vector<glm::vec4>& vs;
  std::vector<glm::vec4>& xOut;
  std::vector<glm::vec4>& vOut;
  std::vector<glm::vec4>& sumX;
  std::vector<glm::vec4>& sumV;
};

// CPU twin of rk4_stage.comp; the last stage's collision is rk4StepCpu's (stepThenCollideBlocks).
void rk4StageParticle(uint32_t i, uint32_t stage, Rk4Arrays& a, const gpu::StepParams& p,
                      AccelerationGroups& accelerations) {
  glm::vec4 x0 = a.x0[i];
  glm::vec3 v0 = xyz(a.v0[i]);
  if (x0.w == 0.f) {
    a.xOut[i] = x0;
    a.vOut[i] = glm::vec4(0.f);
    return;
  }
  glm::vec3 vs = xyz(a.vs[i]);
  glm::vec3 kx = vs;
  glm::vec3 kv = accelerations.at(i);  // at the stage's position and velocity (a.xs, a.vs)
  float weight = (stage == 0u || stage == 3u) ? 1.f : 2.f;
  glm::vec3 sumX = weight * kx, sumV = weight * kv;
  if (stage > 0u) {
    sumX += xyz(a.sumX[i]);
    sumV += xyz(a.sumV[i]);
  }
  float h = p.dt;
  if (stage < 3u) {
    a.sumX[i] = glm::vec4(sumX, 0.f);
    a.sumV[i] = glm::vec4(sumV, 0.f);
    float c = stage == 2u ? 1.f : 0.5f;
    a.xOut[i] = glm::vec4(xyz(x0) + c * h * kx, x0.w);
    a.vOut[i] = glm::vec4(v0 + c * h * kv, 0.f);
  } else {
    glm::vec3 x = xyz(x0) + (h / 6.f) * sumX;
    glm::vec3 v = v0 + (h / 6.f) * sumV;
    a.xOut[i] = glm::vec4(x, x0.w);
    a.vOut[i] = glm::vec4(v, 0.f);
  }
}

void rk4StepCpu(CpuState& s, const gpu::StepParams& params, ThreadPool& pool) {
  const size_t n = s.positions.size();
  s.scratch.resize(6);
  for (auto& buffer : s.scratch) buffer.resize(n);
  auto &stageX0 = s.scratch[0], &stageV0 = s.scratch[1], &stageX1 = s.scratch[2], &stageV1 = s.scratch[3];
  auto &sumX = s.scratch[4], &sumV = s.scratch[5];
  // Stage state: (x, v) -> stage 0 buffers -> stage 1 buffers -> stage 0 buffers -> output.
  Rk4Arrays stages[4] = {
      {s.positions, s.velocities, s.positions, s.velocities, stageX0, stageV0, sumX, sumV},
      {s.positions, s.velocities, stageX0, stageV0, stageX1, stageV1, sumX, sumV},
      {s.positions, s.velocities, stageX1, stageV1, stageX0, stageV0, sumX, sumV},
      {s.positions, s.velocities, stageX0, stageV0, s.positionsOut, s.velocitiesOut, sumX, sumV},
  };
  for (uint32_t stage = 0; stage < 3; ++stage)
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      AccelerationGroups accelerations(stages[stage].xs, stages[stage].vs, s.springs, s.elements, params, end);
      for (size_t i = begin; i < end; ++i) rk4StageParticle(static_cast<uint32_t>(i), stage, stages[stage], params, accelerations);
    });
  // The last stage writes the step's result, which is collided.
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    AccelerationGroups accelerations(stages[3].xs, stages[3].vs, s.springs, s.elements, params, end);
    integrators::stepThenCollideBlocks(begin, end, s.positionsOut, s.velocitiesOut, s.colliders, s.colliderGrid, params.dt,
                                       [&](uint32_t i) { rk4StageParticle(i, 3u, stages[3], params, accelerations); });
  });
  s.swapPositions();
  s.swapVelocities();
}

struct Rk4Resources : UnitResources {
  explicit Rk4Resources(const GpuState& s)
      : stage(s.lastPassCollides(s.springKernel("rk4_stage.comp"))) {}
  LastPassCollides stage;  // only the fourth stage collides
};

void recordRk4Step(GpuRecorder& r, const gpu::StepParams& params) {
  GpuState& s = r.state;
  const Rk4Resources& programs = s.unit<Rk4Resources>(Integrator::Rk4);
  const engine::Buffer *stageX0 = &s.scratch[0], *stageV0 = &s.scratch[1], *stageX1 = &s.scratch[2],
                       *stageV1 = &s.scratch[3];
  struct Io {
    const engine::Buffer *xs, *vs, *xOut, *vOut;
  };
  const Io io[4] = {{&s.positionsIn(), &s.velocitiesIn(), stageX0, stageV0},
                    {stageX0, stageV0, stageX1, stageV1},
                    {stageX1, stageV1, stageX0, stageV0},
                    {stageX0, stageV0, &s.positionsOut(), &s.velocitiesOut()}};
  for (uint32_t stage = 0; stage < 4; ++stage) {
    gpu::StepParams p = params;
    p.mode = stage;
    engine::timed(r.timer, r.cmd, "rk4_stage", [&] {
      programs.stage.pass(stage == 3)
          .dispatch(r.cmd, s.particleCount,
                    s.withTables({{WEFT_BIND_PREV_POSITIONS, &s.positionsIn()},
                                  {WEFT_BIND_BASE_VELOCITIES, &s.velocitiesIn()},
                                  {WEFT_BIND_POSITIONS, io[stage].xs},
                                  {WEFT_BIND_VELOCITIES, io[stage].vs},
                                  {WEFT_BIND_POSITIONS_OUT, io[stage].xOut},
                                  {WEFT_BIND_VELOCITIES_OUT, io[stage].vOut},
                                  {WEFT_BIND_ACCUM_POSITIONS, &s.scratch[4]},
                                  {WEFT_BIND_ACCUM_VELOCITIES, &s.scratch[5]}}),
                    p);
    });
    engine::barrier::computeToCompute(r.vk(), r.cmd);
  }
  s.swapPositions();
  s.swapVelocities();
}

class Rk4Unit final : public IntegratorUnit {
 public:
  Integrator id() const override { return Integrator::Rk4; }
  UnitMemory memory(const StateSize& size) const override {
    UnitMemory m;
    m.gpuScratch = 6;  // prepareGpu
    for (int k = 0; k < 6; ++k) m.cpu.add(size.particles * sizeof(glm::vec4));  // rk4StepCpu
    return m;
  }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams&, const gpu::StepParams& step, float,
                                     int substeps, ThreadPool& pool) const override {
    for (int k = 0; k < substeps; ++k) rk4StepCpu(state, step, pool);
    return {};
  }
  bool explicitForces() const override { return true; }
  // RK4's stability region holds the half disc |z| <= 2.6156 of the left half plane (its boundary
  // comes nearest at arg z = 0.682 pi; 2.83 on the imaginary axis, 2.79 on the real one), and a
  // mode's h lambda has |lambda| = omega when it oscillates, at most gamma when overdamped.
  double stableStep(const ModeBounds& b) const override {
    const double fastest = std::max(b.omega, b.gamma);
    return fastest > 0.0 ? 2.6156 / fastest : std::numeric_limits<double>::infinity();
  }
  uint32_t timedPassesPerStep(const SolverParams&) const override { return 4; }
  void prepareGpu(GpuState& state, const SolverParams&, int) const override {
    state.unit<Rk4Resources>(Integrator::Rk4);
    state.ensureScratch(6);  // two stage states and the weighted sums
  }
  void recordStep(GpuRecorder& r, const SolverParams&, const gpu::StepParams& step, uint32_t) const override {
    recordRk4Step(r, step);
  }
};

}  // namespace

template <>
const IntegratorUnit& integratorUnitFor<Integrator::Rk4>() {
  static const Rk4Unit unit;
  return unit;
}

}  // namespace weft::integrators
