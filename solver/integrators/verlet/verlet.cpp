#include "solver/integrators/verlet/verlet.h"

#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/cpu/cpu_elements.h"
#include "solver/integrators/common/verlet_predict_lanes.h"
#include "solver/integrators/verlet/verlet_relax_lanes.h"
#include "solver/cpu/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

namespace {

// verletRelaxParticle after its springs' loop, for a free particle i: `sum` and `count` are its
// springs' summed distance corrections and their number.
void verletRelaxFinish(uint32_t i, CpuState& s, std::vector<glm::vec4>& lastJacobi, const gpu::StepParams& p,
                       glm::vec3 sum, uint32_t count) {
  const glm::vec4 xi = s.positions[i];
  glm::vec3 x = xyz(xi);
  glm::vec3 direct(0.f);
  sum += elementProjections(i, s.positions, s.elements, p.dt, count, direct);
  if (count > 0) x += sum * (p.relaxation / float(count));
  x += direct;
  const bool nesterov = (p.mode & WEFT_MODE_RELAX_NESTEROV) != 0u;
  const glm::vec3 beforeLast = nesterov ? x : xyz(s.positionsOut[i]);
  const glm::vec3 last = nesterov ? xyz(lastJacobi[i]) : x;
  if (nesterov) lastJacobi[i] = glm::vec4(x, 0.f);
  x = gpu::accelerate(x, beforeLast, last, p.omega, nesterov);
  glm::vec3 v = gpu::carryCorrection(xyz(s.velocitiesOut[i]), x, xyz(xi), p.dt);
  // Collided here, not in stepThenCollideBlocks as the other explicit steps are: moved out,
  // GCC 12 built this function 25 % slower at 128², for a collision that costs under 1 % of
  // the step (docs/benchmarks.md, "Colliders ruled out a block at a time").
  if ((p.mode & WEFT_MODE_RELAX_FINAL) != 0u) integrators::collideAll(x, v, s.colliders, s.colliderGrid, p.dt);
  s.velocitiesOut[i] = glm::vec4(v, 0.f);
  s.positionsOut[i] = glm::vec4(x, xi.w);
}

}  // namespace

void verletRelaxParticle(uint32_t i, CpuState& s, std::vector<glm::vec4>& lastJacobi, const gpu::StepParams& p) {
  const glm::vec4 xi = s.positions[i];
  if (!(xi.w > 0.f)) {  // pinned: stays
    s.positionsOut[i] = xi;
    return;
  }
  const glm::vec3 x = xyz(xi);
  glm::vec3 sum(0.f);
  uint32_t count = 0;
  const GridSprings& grid = s.springs.grid;
  if (grid.stencil.width != 0) {  // the same springs in the same order, found from the index (GridStencil)
    grid.forEachSpring(i, [&](const gpu::SpringEntry& e) {
      glm::vec4 xj = s.positions[e.other];
      sum += gpu::distanceCorrection(x, xi.w, xyz(xj), xj.w, e.restLength, p.constraintStiffness);
      ++count;
    });
  } else {
    for (uint32_t k = s.springs.rows[i]; k < s.springs.rows[i + 1]; ++k) {
      const gpu::SpringLink& link = s.springs.links[k];
      glm::vec4 xj = s.positions[link.other];
      sum += gpu::distanceCorrection(x, xi.w, xyz(xj), xj.w, link.restLength, p.constraintStiffness);
      ++count;
    }
  }
  verletRelaxFinish(i, s, lastJacobi, p, sum, count);
}

void verletRelaxRange(size_t begin, size_t end, CpuState& s, std::vector<glm::vec4>& lastJacobi,
                      const gpu::StepParams& p) {
  size_t i = begin;
  const VerletRelaxKernel lanes = verletRelaxLanes();
  if (lanes.run) {
    const VerletRelaxInput in{s.springs.rows.data(),  s.springs.links.data(),  s.positions.data(),
                              s.positionsOut.data(),  s.velocitiesOut.data(),  p.constraintStiffness,
                              p.relaxation,           p.omega,                 p.dt};
    // The whole pass in the lanes, or their springs' sums and the rest particle by particle.
    const bool whole = s.elements.springsOnly() && (p.mode & WEFT_MODE_RELAX_NESTEROV) == 0u;
    const bool collide = (p.mode & WEFT_MODE_RELAX_FINAL) != 0u;
    const auto width = size_t(lanes.width);
    glm::vec4 sums[8];
    for (; i + width <= end; i += width) {
      lanes.run(in, static_cast<uint32_t>(i), whole ? nullptr : sums);
      for (size_t k = i; k < i + width; ++k) {
        const auto at = static_cast<uint32_t>(k);
        if (!whole) {
          if (s.positions[k].w > 0.f)
            verletRelaxFinish(at, s, lastJacobi, p, xyz(sums[k - i]), s.springs.rows[k + 1] - s.springs.rows[k]);
          else
            s.positionsOut[k] = s.positions[k];
        } else if (collide && s.positions[k].w > 0.f) {  // the scalar particle's last act, on what the lanes left
          glm::vec3 x = xyz(s.positionsOut[k]), v = xyz(s.velocitiesOut[k]);
          integrators::collideAll(x, v, s.colliders, s.colliderGrid, p.dt);
          s.positionsOut[k] = glm::vec4(x, s.positionsOut[k].w);
          s.velocitiesOut[k] = glm::vec4(v, 0.f);
        }
      }
    }
  }
  for (; i < end; ++i) verletRelaxParticle(static_cast<uint32_t>(i), s, lastJacobi, p);
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

// The pass's mode and acceleration weight. Nesterov's last pass answers with its Jacobi iterate
// (momentum 0): the extrapolated point is a look-ahead for the next pass, which a step's
// final positions would overshoot by.
static gpu::StepParams relaxParams(gpu::StepParams params, int pass, const SolverParams& solver) {
  const int iterations = solver.iterations;
  const bool last = pass + 1 == relaxPasses(iterations);
  params.mode = last ? WEFT_MODE_RELAX_FINAL : WEFT_MODE_RELAX;
  if (iterations == 0) params.constraintStiffness = 0.f;
  switch (solver.acceleration) {
    case Acceleration::Chebyshev:
      params.omega = chebyshevOmega(pass, solver.relaxationRho);
      break;
    case Acceleration::Nesterov:
      params.mode |= WEFT_MODE_RELAX_NESTEROV;
      params.omega = last ? 0.f : gpu::nesterovMomentum(static_cast<uint32_t>(pass), solver.momentum);
      break;
    case Acceleration::None:
      params.omega = 1.f;
      break;
  }
  return params;
}

// Nesterov's last Jacobi iterates live in the first scratch buffer; the other accelerators keep none.
static bool keepsLastJacobi(const SolverParams& solver) { return solver.acceleration == Acceleration::Nesterov; }

namespace {

void verletStepCpu(CpuState& state, const gpu::StepParams& params, const SolverParams& solver, ThreadPool& pool) {
  const size_t n = state.positions.size();
  if (state.scratch.empty()) state.scratch.resize(1);
  std::vector<glm::vec4>& lastJacobi = state.scratch[0];
  if (keepsLastJacobi(solver)) lastJacobi.resize(n);
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    verletPredictRange(begin, end, state, params);
  });
  state.swapPositions();
  for (int pass = 0; pass < relaxPasses(solver.iterations); ++pass) {
    gpu::StepParams p = relaxParams(params, pass, solver);
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      verletRelaxRange(begin, end, state, lastJacobi, p);
    });
    state.swapPositions();
  }
  state.swapVelocities();
}

struct VerletResources : UnitResources {
  explicit VerletResources(const GpuState& s)
      : predict(s.program(s.kernel("verlet_predict.comp"))),
        relax(s.lastPassCollides(s.springKernel("verlet_relax.comp"))) {}
  engine::ComputeProgram predict;
  LastPassCollides relax;  // only the last pass of a step collides (WEFT_MODE_RELAX_FINAL)
};

void recordVerletStep(GpuRecorder& r, const gpu::StepParams& params, const SolverParams& solver) {
  GpuState& s = r.state;
  const VerletResources& programs = s.unit<VerletResources>(Integrator::Verlet);
  // Without Nesterov the relaxation never touches WEFT_BIND_LAST_JACOBI (its mode says so): any
  // particle-sized buffer fills the binding.
  const engine::Buffer& lastJacobi = keepsLastJacobi(solver) ? s.scratch[0] : s.prevPositions;
  engine::timed(r.timer, r.cmd, "verlet_predict", [&] { recordVerletPredict(r, programs.predict, params); });
  s.swapPositions();
  for (int pass = 0; pass < relaxPasses(solver.iterations); ++pass) {
    gpu::StepParams p = relaxParams(params, pass, solver);
    engine::timed(r.timer, r.cmd, "verlet_relax", [&] {
      const engine::ComputeProgram& relax = programs.relax.pass((p.mode & WEFT_MODE_RELAX_FINAL) != 0u);
      relax.dispatch(r.cmd, s.particleCount,
                     s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                   {WEFT_BIND_PREV_POSITIONS, &s.prevPositions},
                                   {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                   {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()},
                                   {WEFT_BIND_LAST_JACOBI, &lastJacobi}}),
                     p);
    });
    engine::barrier::computeToCompute(r.vk(), r.cmd);
    s.swapPositions();
  }
  s.swapVelocities();
}

class VerletUnit final : public IntegratorUnit {
 public:
  Integrator id() const override { return Integrator::Verlet; }
  UnitMemory memory(const StateSize&) const override {
    UnitMemory m;
    m.nesterovVectors = 1;  // prepareGpu, verletStepCpu: Nesterov's last Jacobi iterates
    return m;
  }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams& params, const gpu::StepParams& step, float,
                                     int substeps, ThreadPool& pool) const override {
    for (int k = 0; k < substeps; ++k) verletStepCpu(state, step, params, pool);
    return {};
  }
  uint32_t timedPassesPerStep(const SolverParams& params) const override {
    return 1 + static_cast<uint32_t>(relaxPasses(params.iterations));
  }
  void prepareGpu(GpuState& state, const SolverParams& params, int) const override {
    state.unit<VerletResources>(Integrator::Verlet);
    if (keepsLastJacobi(params)) state.ensureScratch(1);
  }
  void recordStep(GpuRecorder& r, const SolverParams& params, const gpu::StepParams& step, uint32_t) const override {
    recordVerletStep(r, step, params);
  }
};

}  // namespace

template <>
const IntegratorUnit& integratorUnitFor<Integrator::Verlet>() {
  static const VerletUnit unit;
  return unit;
}

}  // namespace weft::integrators
