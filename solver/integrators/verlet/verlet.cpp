#include "solver/integrators/verlet/verlet.h"

#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/integrators/common/cpu_elements.h"
#include "solver/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

// CPU twin of verlet_predict.comp.
static void verletPredictParticle(uint32_t i, CpuState& s, const gpu::StepParams& p) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 v = xyz(s.velocities[i]);
  s.prevPositions[i] = xi;
  if (xi.w == 0.f) {
    s.positionsOut[i] = xi;
    s.velocitiesOut[i] = glm::vec4(0.f);
    return;
  }
  glm::vec3 a = xyz(p.gravity) + xi.w * (gpu::dragForce(v, p.wind) + elementForces(i, s.positions, s.velocities, s.elements, p.wind, false));
  float dt = p.dt;
  glm::vec3 vNext = v + a * dt;
  s.positionsOut[i] = glm::vec4(xyz(xi) + vNext * dt, xi.w);
  s.velocitiesOut[i] = glm::vec4(vNext, 0.f);
}

// CPU twin of verlet_relax.comp.
static void verletRelaxParticle(uint32_t i, CpuState& s, const gpu::StepParams& p) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 x = xyz(xi);
  if (xi.w > 0.f) {
    glm::vec3 sum(0.f);
    uint32_t count = 0;
    for (uint32_t k = s.springs.rows[i]; k < s.springs.rows[i + 1]; ++k) {
      const gpu::SpringLink& link = s.springs.links[k];
      glm::vec4 xj = s.positions[link.other];
      sum += gpu::distanceCorrection(x, xi.w, xyz(xj), xj.w, link.restLength, p.constraintStiffness);
      ++count;
    }
    glm::vec3 direct(0.f);
    sum += elementProjections(i, s.positions, s.elements, p.dt, count, direct);
    if (count > 0) x += sum * (p.relaxation / float(count));
    x += direct;
    if (p.omega != 1.f) x = gpu::chebyshevBlend(x, xyz(s.positionsOut[i]), p.omega);
    glm::vec3 v = gpu::carryCorrection(xyz(s.velocitiesOut[i]), x, xyz(xi), p.dt);
    if (p.mode == WEFT_MODE_RELAX_FINAL)
      for (const gpu::Collider& c : s.colliders) gpu::collideStep(x, v, c, p.dt);
    s.velocitiesOut[i] = glm::vec4(v, 0.f);
  }
  s.positionsOut[i] = glm::vec4(x, xi.w);
}

// Chebyshev weights (Wang 2015) for spectral radius estimate rho: omega_1 = 1,
// omega_2 = 2 / (2 - rho^2), omega_{k+1} = 4 / (4 - rho^2 omega_k). The first pass must be plain
// (there is no iterate before it); rho = 0 gives plain Jacobi throughout.
float chebyshevOmega(int pass, float rho) {
  if (pass == 0 || rho <= 0.f) return 1.f;
  float omega = 2.f / (2.f - rho * rho);
  for (int k = 2; k <= pass; ++k) omega = 4.f / (4.f - rho * rho * omega);
  return omega;
}

// Relaxation passes: `iterations` of them, the last one finalising; with zero iterations a single
// finalising pass with zero stiffness still derives the velocity and collides.
static int relaxPasses(int iterations) { return iterations > 0 ? iterations : 1; }

static gpu::StepParams relaxParams(gpu::StepParams params, int pass, int iterations, float rho) {
  params.mode = pass + 1 == relaxPasses(iterations) ? WEFT_MODE_RELAX_FINAL : WEFT_MODE_RELAX;
  if (iterations == 0) params.constraintStiffness = 0.f;
  params.omega = chebyshevOmega(pass, rho);
  return params;
}

namespace {

void verletStepCpu(CpuState& state, const gpu::StepParams& params, int iterations, float rho, ThreadPool& pool) {
  const size_t n = state.positions.size();
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) verletPredictParticle(static_cast<uint32_t>(i), state, params);
  });
  state.swapPositions();
  for (int pass = 0; pass < relaxPasses(iterations); ++pass) {
    gpu::StepParams p = relaxParams(params, pass, iterations, rho);
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) verletRelaxParticle(static_cast<uint32_t>(i), state, p);
    });
    state.swapPositions();
  }
  state.swapVelocities();
}

struct VerletResources : UnitResources {
  explicit VerletResources(const GpuState& s)
      : predict(*s.context, *s.shaders, s.kernel("verlet_predict.comp")), relax(*s.context, *s.shaders, s.kernel("verlet_relax.comp")) {}
  engine::ComputeProgram predict, relax;
};

void recordVerletStep(GpuRecorder& r, const gpu::StepParams& params, int iterations, float rho) {
  GpuState& s = r.state;
  const VerletResources& programs = s.unit<VerletResources>(Integrator::Verlet);
  engine::timed(r.timer, r.cmd, "verlet_predict", [&] {
    programs.predict.dispatch(r.cmd, s.particleCount,
                                      s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                       {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
                                       {WEFT_BIND_PREV_POSITIONS, &s.prevPositions},
                                       {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                       {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()}}),
                                      params);
  });
  engine::barrier::computeToCompute(r.cmd);
  s.swapPositions();
  for (int pass = 0; pass < relaxPasses(iterations); ++pass) {
    gpu::StepParams p = relaxParams(params, pass, iterations, rho);
    engine::timed(r.timer, r.cmd, "verlet_relax", [&] {
      programs.relax.dispatch(r.cmd, s.particleCount,
                                      s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                       {WEFT_BIND_PREV_POSITIONS, &s.prevPositions},
                                       {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                       {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()}}),
                                      p);
    });
    engine::barrier::computeToCompute(r.cmd);
    s.swapPositions();
  }
  s.swapVelocities();
}

class VerletUnit final : public IntegratorUnit {
 public:
  Integrator id() const override { return Integrator::Verlet; }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams& params, const gpu::StepParams& step, float,
                                     int substeps, ThreadPool& pool) const override {
    for (int k = 0; k < substeps; ++k) verletStepCpu(state, step, params.iterations, params.relaxationRho, pool);
    return {};
  }
  uint32_t timedPassesPerStep(const SolverParams& params) const override {
    return 1 + static_cast<uint32_t>(relaxPasses(params.iterations));
  }
  void prepareGpu(GpuState& state, const SolverParams&, int) const override {
    state.unit<VerletResources>(Integrator::Verlet);
  }
  void recordStep(GpuRecorder& r, const SolverParams& params, const gpu::StepParams& step, uint32_t) const override {
    recordVerletStep(r, step, params.iterations, params.relaxationRho);
  }
};

}  // namespace

const IntegratorUnit& verletUnit() {
  static const VerletUnit unit;
  return unit;
}

}  // namespace weft::integrators
