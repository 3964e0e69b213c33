#include "solver/integrators/newton_chebyshev/newton_chebyshev.h"

#include <array>

#include "engine/commands.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/integrators/common/solve_kit.h"
#include "shaders/newton.h"
#include "solver/cpu/cpu_elements.h"
#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"
#include "solver/cpu/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

namespace {

// The GPU's buffers, in the same layout.
struct NewtonVectors {
  std::vector<glm::vec4>&rhs, &y0, &y1;  // y0: even Jacobi iterates, y1: odd ones
  std::vector<glm::vec4>&diagonal;       // 2 per particle
  std::vector<glm::vec4>&couplings;      // 1 per spring entry
  std::vector<glm::vec4>&lastJacobi;     // Nesterov's x_j (WEFT_BIND_LAST_JACOBI); empty otherwise
};

NewtonVectors newtonVectors(CpuState& s, bool nesterov) {
  s.scratch.resize(std::max<size_t>(s.scratch.size(), 6));
  for (size_t k = 0; k < 3; ++k) s.scratch[k].resize(s.positions.size());
  s.scratch[3].resize(2 * s.positions.size());
  s.scratch[4].resize(s.springs.entries.size());
  if (nesterov) s.scratch[5].resize(s.positions.size());
  return {s.scratch[0], s.scratch[1], s.scratch[2], s.scratch[3], s.scratch[4], s.scratch[5]};
}

// The Newton iterate lives where the step's positions will: positionsOut.
// CPU twin of newton_predict.comp.
void newtonPredictParticle(uint32_t i, CpuState& s, const gpu::StepParams& p) {
  glm::vec4 x0 = s.positions[i];
  float h = p.dt;
  if (x0.w == 0.f) {
    s.positionsOut[i] = x0;
    s.velocitiesOut[i] = glm::vec4(0.f);
    return;
  }
  glm::vec3 v = xyz(s.velocities[i]) + h * xyz(p.gravity);
  s.positionsOut[i] = glm::vec4(xyz(x0) + h * v, x0.w);
  s.velocitiesOut[i] = glm::vec4(v, 0.f);
}

// CPU twin of newton_gradient.comp; returns |b_i|^2.
float newtonGradientParticle(uint32_t i, CpuState& s, NewtonVectors& w, const gpu::StepParams& p) {
  const std::vector<glm::vec4>& iterate = s.positionsOut;
  glm::vec4 xi = iterate[i];
  glm::vec3 b(0.f);
  glm::mat3 inverseBlock(0.f);
  float massTerm = 0.f;  // marks a pinned row
  if (xi.w > 0.f) {
    float h = p.dt;
    float mass = 1.f / xi.w;
    massTerm = mass / (h * h) + p.wind.w / h;
    glm::vec3 vi = xyz(s.velocitiesOut[i]);
    glm::vec3 force = mass * xyz(p.gravity) + gpu::dragForce(vi, p.wind);
    glm::mat3 block = massTerm * glm::mat3(1.f);
    for (uint32_t k = s.springs.rows[i]; k < s.springs.rows[i + 1]; ++k) {
      const gpu::SpringEntry& e = s.springs.entries[k];
      glm::vec3 xj = xyz(iterate[e.other]);
      glm::vec3 vj = xyz(s.velocitiesOut[e.other]);
      const gpu::StrainLimit bound = springBound(s.springs, k);
      force += gpu::springForce(xyz(xi), vi, xj, vj, e, bound);
      glm::vec4 coupling = gpu::newtonCoupling(xyz(xi), xj, e, bound, h);
      w.couplings[k] = coupling;
      block += gpu::systemBlockMatrix(coupling);
    }
    force += elementForces(i, iterate, s.velocitiesOut, s.elements, p.wind, true);
    block += elementDiagonal(i, iterate, s.elements, 1.f, 1.f / h, 0.5f);
    b = force - (mass / h) * (vi - xyz(s.velocities[i]));
    inverseBlock = glm::inverse(block);
  }
  w.rhs[i] = glm::vec4(b, 0.f);
  w.diagonal[2 * i] = gpu::symmetricDiagonal(inverseBlock);
  w.diagonal[2 * i + 1] = gpu::symmetricRest(inverseBlock, massTerm);
  w.y0[i] = glm::vec4(0.f);
  w.y1[i] = glm::vec4(0.f);
  return glm::dot(b, b);
}

NewtonSweepInput newtonSweepInput(const CpuState& s, NewtonVectors& w, const std::vector<glm::vec4>& dx,
                                  std::vector<glm::vec4>& dxPrev, const gpu::NewtonParams& p) {
  return {s.springs.rows.data(), s.springs.entries.data(), w.couplings.data(), w.rhs.data(), w.diagonal.data(),
          dx.data(), dxPrev.data(), w.lastJacobi.data(), p.omega, p.nesterov != 0u};
}

// The elements' part of row i's sweep residual (the sum over its element rows and contact pairs).
glm::vec3 elementPart(uint32_t i, const CpuState& s, const std::vector<glm::vec4>& dx, const gpu::NewtonParams& p) {
  return elementProduct(i, s.positionsOut, dx, s.elements, 1.f, 1.f / p.step.dt);
}

// A sweep over particles [begin, end) (the CPU twin of newton_sweep.comp): groups of the lane
// kernel's width at a time, the elements' part computed row by row first where the cloth has any,
// and the range's last rows that fill no group row by row; the sum of |r_j|^2 over the range,
// added in particle order as sumOver adds.
double newtonSweepRange(size_t begin, size_t end, const CpuState& s, NewtonVectors& w,
                        const std::vector<glm::vec4>& dx, std::vector<glm::vec4>& dxPrev, const gpu::NewtonParams& p) {
  const NewtonSweepInput in = newtonSweepInput(s, w, dx, dxPrev, p);
  const NewtonSweepKernel lanes = newtonSweepLanes();
  const auto width = size_t(lanes.width);
  // Without element rows or contact pairs their part is +0, and r - (+0) is r to the bit: skip the walk.
  const bool springsOnly = s.elements.springsOnly();
  glm::vec4 taken[8];
  float norms[8];
  double sum = 0;
  for (size_t i = begin; i < end;) {
    if (lanes.run && i + width <= end) {
      if (!springsOnly)
        for (size_t l = 0; l < width; ++l) taken[l] = glm::vec4(elementPart(static_cast<uint32_t>(i + l), s, dx, p), 0.f);
      lanes.run(in, static_cast<uint32_t>(i), springsOnly ? nullptr : taken, norms);
      for (size_t l = 0; l < width; ++l, ++i) sum += norms[l];
    } else {
      const auto at = static_cast<uint32_t>(i++);
      glm::vec3 r(0.f);
      if (sweepMassTerm(in, at) > 0.f) r = springsOnly ? springResidual(in, at) : springResidual(in, at) - elementPart(at, s, dx, p);
      sum += newtonSweepRow(in, at, r);
    }
  }
  return sum;
}

// CPU twin of newton_update.comp.
void newtonUpdateParticle(uint32_t i, CpuState& s, const std::vector<glm::vec4>& answer, float h) {
  s.positionsOut[i] += glm::vec4(xyz(answer[i]), 0.f);
  s.velocitiesOut[i] += glm::vec4(xyz(answer[i]) / h, 0.f);
}

// CPU twin of newton_finish.comp before its collision (stepThenCollideBlocks collides).
void newtonFinishParticle(uint32_t i, CpuState& s) {
  const glm::vec4 vi = s.velocitiesOut[i];
  s.velocitiesOut[i] = s.positionsOut[i].w == 0.f ? glm::vec4(0.f) : glm::vec4(xyz(vi), 0.f);
}


template <class Fn>
void forEach(ThreadPool& pool, size_t n, Fn fn) {
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) fn(static_cast<uint32_t>(i));
  });
}

// Whether sweep j of a solve is followed by a check (the last of each interval).
bool measures(size_t j) { return j % WEFT_NEWTON_CHECK_INTERVAL == WEFT_NEWTON_CHECK_INTERVAL - 1; }

// Sweeps recorded per Newton iteration: the cap, rounded up to whole check intervals (the cap can
// only stop a solve at a check). A solve stops within them.
int recordedSweeps(const NewtonSettings& settings) {
  const int k = WEFT_NEWTON_CHECK_INTERVAL;
  return (settings.maxIterations + k - 1) / k * k;
}

gpu::NewtonParams newtonParams(const gpu::StepParams& step, const NewtonSettings& settings, uint32_t partialCount,
                               uint32_t substep) {
  gpu::NewtonParams p{};
  p.step = step;
  p.tolerance = settings.tolerance;
  p.maxIterations = static_cast<uint32_t>(settings.maxIterations);
  p.partialCount = partialCount;
  p.substep = substep;
  p.omega = 1.f;
  p.nesterov = settings.acceleration == Acceleration::Nesterov ? 1u : 0u;
  return p;
}

}  // namespace

NewtonSettings newtonSettings(const SolverParams& params) {
  return {params.tolerance, params.maxIterations, params.newtonIterations, params.chebyshevRho, params.acceleration,
          params.momentum};
}

std::vector<float> sweepWeights(const NewtonSettings& settings, int count) {
  switch (settings.acceleration) {
    case Acceleration::Chebyshev:
      return chebyshevWeights(settings.chebyshevRho, count);
    case Acceleration::Nesterov: {
      std::vector<float> momenta(static_cast<size_t>(std::max(count, 0)));
      for (size_t j = 0; j < momenta.size(); ++j)
        momenta[j] = gpu::nesterovMomentum(static_cast<uint32_t>(j), settings.momentum);
      return momenta;
    }
    case Acceleration::None:
      break;
  }
  return chebyshevWeights(0.f, count);
}

std::vector<float> chebyshevWeights(float rho, int count) {
  std::vector<float> weights(static_cast<size_t>(std::max(count, 0)), 1.f);
  const double rho2 = double(rho) * rho;
  double omega = 1.0;
  for (size_t j = 1; j < weights.size(); ++j) {
    omega = j == 1 ? 2.0 / (2.0 - rho2) : 4.0 / (4.0 - rho2 * omega);
    weights[j] = static_cast<float>(omega);
  }
  return weights;
}

namespace {

SolveStats newtonChebyshevStepCpu(CpuState& s, const gpu::StepParams& step, const NewtonSettings& settings,
                                  ThreadPool& pool) {
  const size_t n = s.positions.size();
  NewtonVectors w = newtonVectors(s, settings.acceleration == Acceleration::Nesterov);
  const std::vector<float> weights = sweepWeights(settings, recordedSweeps(settings));
  gpu::NewtonParams p = newtonParams(step, settings, 0, 0);
  gpu::NewtonScalars scalars{};
  forEach(pool, n, [&](uint32_t i) { newtonPredictParticle(i, s, step); });
  for (int k = 0; k < settings.newtonIterations; ++k) {
    p.newtonIteration = static_cast<uint32_t>(k);
    double rhsNorm2 = sumOver(pool, n, [&](uint32_t i) { return newtonGradientParticle(i, s, w, step); });
    gpu::newtonScalarStep(scalars, WEFT_NEWTON_BEGIN, static_cast<float>(rhsNorm2), p.tolerance, p.maxIterations,
                          p.newtonIteration);
    // The cap stops every solve within recordedSweeps(): the GPU records that many.
    for (size_t j = 0; !scalars.stopped; ++j) {
      p.omega = weights[j];
      std::vector<glm::vec4>& dx = j % 2 == 0 ? w.y0 : w.y1;
      std::vector<glm::vec4>& dxPrev = j % 2 == 0 ? w.y1 : w.y0;
      double residualNorm2 = pool.parallelSum(
          n, [&](size_t begin, size_t end) { return newtonSweepRange(begin, end, s, w, dx, dxPrev, p); });
      if (measures(j))
        gpu::newtonScalarStep(scalars, WEFT_NEWTON_CHECK, static_cast<float>(residualNorm2), p.tolerance,
                              p.maxIterations, p.newtonIteration);
    }
    const std::vector<glm::vec4>& answer = gpu::newtonAnswer(scalars) % 2 == 0 ? w.y0 : w.y1;
    forEach(pool, n, [&](uint32_t i) { newtonUpdateParticle(i, s, answer, step.dt); });
  }
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    integrators::stepThenCollideBlocks(begin, end, s.positionsOut, s.velocitiesOut, s.colliders, s.colliderGrid,
                                       step.dt, [&](uint32_t i) { newtonFinishParticle(i, s); });
  });
  s.swapPositions();
  s.swapVelocities();
  return {static_cast<int>(scalars.stepIterations), scalars.worstResidual, scalars.stepConverged != 0, step.dt};
}

// The kernels and buffers of the GPU solve: the solve kit (its scalars are gpu::NewtonScalars),
// each particle's inverse diagonal block (2 vec4) and each spring entry's coupling (a vec4).
struct NewtonResources : UnitResources {
  explicit NewtonResources(const GpuState& s)
      : predict(s.program(s.kernel("newton_predict.comp"))),
        gradient(s.program(s.kernel("newton_gradient.comp"))),
        scalars(s.program(s.kernel("newton_scalars.comp"))),
        sweep(s.program(s.kernel("newton_sweep.comp"))),
        update(s.program(s.kernel("newton_update.comp"))),
        finish(s.program(s.kernel("newton_finish.comp"))),
        kit(s, gradient, {sizeof(gpu::NewtonScalars), 1, 1, false}),
        diagonal(*s.context, 2ull * s.particleCount * sizeof(glm::vec4), engine::kStorageUsage,
                 engine::MemoryUsage::DeviceLocal, "weft.newtonDiagonal"),
        couplings(*s.context, s.springs.size() / sizeof(gpu::SpringEntry) * sizeof(glm::vec4), engine::kStorageUsage,
                  engine::MemoryUsage::DeviceLocal, "weft.newtonCouplings") {}
  engine::ComputeProgram predict, gradient, scalars, sweep, update, finish;
  SolveKit kit;
  engine::Buffer diagonal, couplings;
};

void recordNewtonChebyshevStep(GpuRecorder& r, const gpu::StepParams& step, const NewtonSettings& settings,
                               uint32_t substep) {
  GpuState& s = r.state;
  const NewtonResources& prog = s.unit<NewtonResources>(Integrator::NewtonChebyshev);
  const engine::Buffer &rhs = s.scratch[0], &y0 = s.scratch[1], &y1 = s.scratch[2];
  // Without Nesterov the sweeps never touch WEFT_BIND_LAST_JACOBI (p.nesterov says so): any
  // particle-sized buffer fills the binding.
  const engine::Buffer& lastJacobi = settings.acceleration == Acceleration::Nesterov ? s.scratch[3] : rhs;
  VkCommandBuffer cmd = r.cmd;
  gpu::NewtonParams p = newtonParams(step, settings, prog.kit.partialCount, substep);
  const std::vector<float> weights = sweepWeights(settings, recordedSweeps(settings));
  // Every pass binds the same set; each shader uses its part (reflection drops the rest). `dx`
  // and `dxPrev` swap from sweep to sweep; the other passes see y0 as dx.
  auto bindings = [&](const engine::Buffer& dx, const engine::Buffer& dxPrev) {
    return s.withTables({
        {WEFT_BIND_POSITIONS, &s.positionsIn()},
        {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
        {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()},
        {WEFT_BIND_PARTIALS, &prog.kit.partials},
        {WEFT_BIND_INDIRECT, &prog.kit.indirect},
        {WEFT_BIND_STEP_LOG, &prog.kit.stepLog},
        {WEFT_BIND_NEWTON_SCALARS, &prog.kit.scalars},
        {WEFT_BIND_NEWTON_ITERATE, &s.positionsOut()},
        {WEFT_BIND_NEWTON_RHS, &rhs},
        {WEFT_BIND_NEWTON_DX, &dx},
        {WEFT_BIND_NEWTON_DX_PREV, &dxPrev},
        {WEFT_BIND_NEWTON_DIAGONAL, &prog.diagonal},
        {WEFT_BIND_NEWTON_COUPLINGS, &prog.couplings},
        {WEFT_BIND_LAST_JACOBI, &lastJacobi},
    });
  };
  const auto even = bindings(y0, y1), odd = bindings(y1, y0);
  auto scalarPass = [&](uint32_t mode) {
    gpu::NewtonParams q = p;
    q.step.mode = mode;
    prog.kit.scalarPass(cmd, prog.scalars, even, q);
  };
  engine::timed(r.timer, cmd, "newton_predict", [&] { prog.predict.dispatch(cmd, s.particleCount, even, p); });
  engine::barrier::computeToCompute(r.vk(), cmd);
  for (int k = 0; k < settings.newtonIterations; ++k) {
    p.newtonIteration = static_cast<uint32_t>(k);
    engine::timed(r.timer, cmd, "newton_gradient", [&] { prog.gradient.dispatch(cmd, s.particleCount, even, p); });
    engine::barrier::computeToCompute(r.vk(), cmd);
    scalarPass(WEFT_NEWTON_BEGIN);
    engine::timed(r.timer, cmd, "newton_sweeps", [&] {
      for (size_t j = 0; j < weights.size(); ++j) {
        p.omega = weights[j];
        p.measure = measures(j) ? 1u : 0u;
        prog.kit.indirectPass(cmd, prog.sweep, 0, j % 2 == 0 ? even : odd, p);
        if (measures(j)) scalarPass(WEFT_NEWTON_CHECK);
      }
      p.measure = 0;
    });
    p.omega = 1.f;
    engine::timed(r.timer, cmd, "newton_update", [&] { prog.update.dispatch(cmd, s.particleCount, even, p); });
    engine::barrier::computeToCompute(r.vk(), cmd);
  }
  engine::timed(r.timer, cmd, "newton_finish", [&] { prog.finish.dispatch(cmd, s.particleCount, even, p); });
  engine::barrier::computeToCompute(r.vk(), cmd);
  s.swapPositions();
  s.swapVelocities();
}

class NewtonChebyshevUnit final : public IntegratorUnit {
 public:
  Integrator id() const override { return Integrator::NewtonChebyshev; }
  UnitMemory memory(const StateSize& size) const override {
    UnitMemory m;
    m.gpuScratch = 3;                                            // prepareGpu
    m.nesterovVectors = 1;  // prepareGpu's fourth scratch buffer, newtonVectors' sixth vector
    m.gpuOwn.add(2 * size.particles * sizeof(glm::vec4));         // NewtonResources::diagonal
    m.gpuOwn.add(size.springEntries * sizeof(glm::vec4));         // NewtonResources::couplings
    m.gpuOwn.add(SolveKit::partialBytes(size.particles, 1));      // NewtonResources::kit
    for (int k = 0; k < 3; ++k) m.cpu.add(size.particles * sizeof(glm::vec4));  // newtonVectors
    m.cpu.add(2 * size.particles * sizeof(glm::vec4));
    m.cpu.add(size.springEntries * sizeof(glm::vec4));
    return m;
  }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams& params, const gpu::StepParams& step, float,
                                     int substeps, ThreadPool& pool) const override {
    std::vector<SolveStats> stats;
    for (int k = 0; k < substeps; ++k)
      stats.push_back(newtonChebyshevStepCpu(state, step, newtonSettings(params), pool));
    return stats;
  }
  // Predict and finish around a gradient, the sweeps and an update per Newton iteration.
  uint32_t timedPassesPerStep(const SolverParams& params) const override {
    return 2 + 3 * static_cast<uint32_t>(std::max(params.newtonIterations, 0));
  }
  void prepareGpu(GpuState& state, const SolverParams& params, int substeps) const override {
    // The right-hand side, the two accelerated iterates and Nesterov's last Jacobi iterates.
    state.ensureScratch(params.acceleration == Acceleration::Nesterov ? 4 : 3);
    state.unit<NewtonResources>(Integrator::NewtonChebyshev).kit.ensureLog(static_cast<uint32_t>(substeps));
  }
  void recordStep(GpuRecorder& r, const SolverParams& params, const gpu::StepParams& step,
                  uint32_t substep) const override {
    recordNewtonChebyshevStep(r, step, newtonSettings(params), substep);
  }
  std::vector<SolveStats> readFrameStats(GpuState& state, int substeps) const override {
    return state.unit<NewtonResources>(Integrator::NewtonChebyshev).kit.readLog(substeps);
  }
};

}  // namespace

template <>
const IntegratorUnit& integratorUnitFor<Integrator::NewtonChebyshev>() {
  static const NewtonChebyshevUnit unit;
  return unit;
}

}  // namespace weft::integrators
