#include "solver/integrators/nonlinear_cg/nonlinear_cg.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>

#include "engine/commands.h"
#include "engine/error.h"
#include "solver/integrators/common/solve_kit.h"
#include "shaders/nlcg.h"
#include "solver/integrators/common/acceleration_lanes.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/cpu/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

namespace {

struct NlcgSettings {
  float tolerance;      // m/s: converged when every |r_i| < k tolerance
  int maxIterations;    // line searches per attempt
  float velocityScale;  // k (s)
  float relative;       // 0 or SolverParams::relativeTolerance
};

NlcgSettings nlcgSettings(const SolverParams& params) {
  return {params.tolerance, params.maxIterations, params.velocityScale, params.relativeTolerance};
}

// Step-size control of seed 000.
constexpr float kShrinkOnDivergence = 0.5f;
constexpr float kGrowWhenEasy = 1.25f;     // fewer than a quarter of the cap
constexpr float kShrinkWhenHard = 0.8f;    // more than three quarters of the cap
constexpr double kMinStepFraction = 1e-6;  // of the requested step: below it a diverging step is an error
constexpr double kLandingSlack = 1e-5;     // a last step this much (relative) over the adaptive one lands on the frame

// Seed 000's precision: every |r_i|^2 below it. r_v = k dv, so this bounds every velocity error
// by the tolerance (m/s) and every position error by k times it (m).
float nlcgThreshold(const NlcgSettings& settings) {
  const float bound = settings.velocityScale * settings.tolerance;
  return bound * bound;
}

// The CPU state's iterate is (positionsOut, velocitiesOut); these are the solve's other vectors.
struct NlcgVectors {
  std::vector<glm::vec4>&rp, &rv, &dp, &dv;
};

NlcgVectors nlcgVectors(CpuState& s) {
  s.scratch.resize(std::max<size_t>(s.scratch.size(), 4));
  for (size_t k = 0; k < 4; ++k) s.scratch[k].resize(s.positions.size());
  return {s.scratch[0], s.scratch[1], s.scratch[2], s.scratch[3]};
}

// What a pass contributes to the scalar pass: sums in double (the CPU side of the GPU's float tree).
struct Partials {
  double rr = 0, rd = 0;
  float max = 0;
};

// Runs `fn(begin, end, partials)` over the pool's ranges of the particles and combines the chunks in
// index order: deterministic for a given thread count.
template <class Fn>
Partials reduceOverRanges(ThreadPool& pool, size_t n, Fn fn) {
  std::mutex mutex;
  std::vector<std::pair<size_t, Partials>> chunks;
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    Partials local;
    fn(begin, end, local);
    std::lock_guard<std::mutex> lock(mutex);
    chunks.emplace_back(begin, local);
  });
  std::sort(chunks.begin(), chunks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Partials total;
  for (const auto& [begin, c] : chunks) {
    total.rr += c.rr;
    total.rd += c.rd;
    total.max = std::max(total.max, c.max);
  }
  return total;
}

// reduceOverRanges with `fn(i, partials)` on each particle of a range in turn.
template <class Fn>
Partials reduceOver(ThreadPool& pool, size_t n, Fn fn) {
  return reduceOverRanges(pool, n, [&](size_t begin, size_t end, Partials& out) {
    for (size_t i = begin; i < end; ++i) fn(static_cast<uint32_t>(i), out);
  });
}

// The seed's add(d, f) for one particle.
void addDirection(uint32_t i, CpuState& s, NlcgVectors& w, float f, float k) {
  s.positionsOut[i] += glm::vec4(f * xyz(w.dp[i]), 0.f);
  s.velocitiesOut[i] += glm::vec4((f / k) * xyz(w.dv[i]), 0.f);
}

// CPU twin of nlcg_start.comp; returns max(|r0_p|^2, |r0_v|^2) of the particle.
float nlcgStartParticle(uint32_t i, CpuState& s, NlcgVectors& w, const gpu::StepParams& p, float k,
                        AccelerationGroups& accelerations) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 v = xyz(s.velocities[i]);
  glm::vec3 r0p(0.f), r0v(0.f);
  if (xi.w != 0.f) {
    glm::vec3 a = accelerations.at(i);
    r0p = gpu::nlcgPositionResidual(xyz(xi), xyz(xi), v, p.dt);
    r0v = gpu::nlcgVelocityResidual(v, a, v, p.dt, k);
  } else {
    v = glm::vec3(0.f);
  }
  s.positionsOut[i] = glm::vec4(xyz(xi) + r0p, xi.w);
  s.velocitiesOut[i] = glm::vec4(v + (1.f / k) * r0v, 0.f);
  w.dp[i] = glm::vec4(0.f);
  w.dv[i] = glm::vec4(0.f);
  return gpu::nlcgMaxEntry(r0p, r0v, xyz(xi));
}

// CPU twin of nlcg_residual.comp: forces gather from the iterate.
void nlcgResidualParticle(uint32_t i, CpuState& s, NlcgVectors& w, const gpu::StepParams& p, float k, Partials& out,
                          AccelerationGroups& accelerations) {
  glm::vec4 xi = s.positionsOut[i];
  glm::vec3 rp(0.f), rv(0.f);
  if (xi.w != 0.f) {
    glm::vec3 vi = xyz(s.velocitiesOut[i]);
    glm::vec3 a = accelerations.at(i);
    rp = gpu::nlcgPositionResidual(xyz(s.positions[i]), xyz(xi), vi, p.dt);
    rv = gpu::nlcgVelocityResidual(xyz(s.velocities[i]), a, vi, p.dt, k);
  }
  w.rp[i] = glm::vec4(rp, 0.f);
  w.rv[i] = glm::vec4(rv, 0.f);
  out.rr += glm::dot(rp, rp) + glm::dot(rv, rv);
  out.max = std::max(out.max, gpu::nlcgMaxEntry(rp, rv, xyz(xi)));
  out.rd += glm::dot(rp, xyz(w.dp[i])) + glm::dot(rv, xyz(w.dv[i]));
}

// CPU twin of nlcg_direction.comp: d = r + beta d, t0 = r.d, add(d, 1).
void nlcgDirectionParticle(uint32_t i, CpuState& s, NlcgVectors& w, float beta, float k, Partials& out) {
  glm::vec3 rp = xyz(w.rp[i]), rv = xyz(w.rv[i]);
  glm::vec3 dp = rp + beta * xyz(w.dp[i]);
  glm::vec3 dv = rv + beta * xyz(w.dv[i]);
  w.dp[i] = glm::vec4(dp, 0.f);
  w.dv[i] = glm::vec4(dv, 0.f);
  out.rd += glm::dot(rp, dp) + glm::dot(rv, dv);
  addDirection(i, s, w, 1.f, k);
}

// CPU twin of nlcg_finish.comp before its collision (stepThenCollideBlocks collides).
void nlcgFinishParticle(uint32_t i, CpuState& s) {
  if (s.positionsOut[i].w != 0.f) s.velocitiesOut[i].w = 0.f;
}

// One attempt at a step: the GPU's pass sequence, with the scalar pass's decisions taken by the
// same functions (shaders/nlcg.h). Leaves the state untouched and the iterate in the output vectors.
gpu::StepLog nonlinearCgTryStepCpu(CpuState& s, const gpu::StepParams& p, const NlcgSettings& settings,
                                   ThreadPool& pool) {
  const size_t n = s.positions.size();
  const float k = settings.velocityScale;
  const float threshold = nlcgThreshold(settings);
  const auto cap = static_cast<uint32_t>(settings.maxIterations);
  NlcgVectors w = nlcgVectors(s);
  auto residual = [&] {
    return reduceOverRanges(pool, n, [&](size_t begin, size_t end, Partials& out) {
      AccelerationGroups accelerations(s.positionsOut, s.velocitiesOut, s.springs, s.elements, p, end);
      for (size_t i = begin; i < end; ++i) nlcgResidualParticle(static_cast<uint32_t>(i), s, w, p, k, out, accelerations);
    });
  };
  gpu::NonlinearCgScalars scalars{};
  Partials start = reduceOverRanges(pool, n, [&](size_t begin, size_t end, Partials& out) {
    AccelerationGroups accelerations(s.positions, s.velocities, s.springs, s.elements, p, end);
    for (size_t i = begin; i < end; ++i)
      out.max = std::max(out.max, nlcgStartParticle(static_cast<uint32_t>(i), s, w, p, k, accelerations));
  });
  Partials first = residual();
  gpu::nlcgBegin(scalars, start.max, threshold, settings.relative);
  gpu::nlcgFresh(scalars, static_cast<float>(first.rr), first.max, threshold, cap);
  while (scalars.status == WEFT_NLCG_RUNNING) {
    const float beta = scalars.beta;
    Partials t0 = reduceOver(pool, n, [&](uint32_t i, Partials& out) { nlcgDirectionParticle(i, s, w, beta, k, out); });
    Partials trial = residual();
    gpu::nlcgSecant(scalars, static_cast<float>(t0.rd), static_cast<float>(trial.rd), static_cast<float>(trial.rr),
                    trial.max, threshold, cap);
    if (scalars.status != WEFT_NLCG_RUNNING) break;
    const float f = scalars.alpha - 1.f;
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) addDirection(static_cast<uint32_t>(i), s, w, f, k);
    });
    if (scalars.confirm) {  // the stale residual passed: test the iterate itself
      Partials fresh = residual();
      gpu::nlcgFresh(scalars, static_cast<float>(fresh.rr), fresh.max, threshold, cap);
    }
  }
  if (scalars.status == WEFT_NLCG_CONVERGED)
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      integrators::stepThenCollideBlocks(begin, end, s.positionsOut, s.velocitiesOut, s.colliders, s.colliderGrid,
                                         p.dt, [&](uint32_t i) { nlcgFinishParticle(i, s); });
    });
  return gpu::nlcgLog(scalars, p.dt);
}

// The kernels and buffers of the GPU solve: the solve kit (its scalars are
// gpu::NonlinearCgScalars, ending with the step's log; WEFT_NLCG_PARTIAL_SLOTS sums at once; the
// WEFT_NLCG_GROUPS_* entries), the host-visible copy of the log read after every step, and the
// adaptive step's state across frames.
struct NlcgResources : UnitResources {
  explicit NlcgResources(const GpuState& s)
      : start(s.program(s.springKernel("nlcg_start.comp"))),
        scalars(s.program(s.kernel("nlcg_scalars.comp"))),
        residual(s.program(s.springKernel("nlcg_residual.comp"))),
        direction(s.program(s.kernel("nlcg_direction.comp"))),
        add(s.program(s.kernel("nlcg_add.comp"))),
        finish(s.program(s.kernel("nlcg_finish.comp"))),
        kit(s, start, {sizeof(gpu::NonlinearCgScalars), WEFT_NLCG_PARTIAL_SLOTS, WEFT_NLCG_GROUPS_FULL / 3, false}),
        readback(*s.context, sizeof(gpu::StepLog), VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback,
                 "weft.nlcgReadback") {}
  engine::ComputeProgram start, scalars, residual, direction, add, finish;
  SolveKit kit;
  engine::Buffer readback;
  float adaptiveDt = 0.f;        // the next step to try, s (0: the requested one)
  uint32_t lastIterations = 0;   // of the last step: sizes the next step's recording
};

// Every pass of a step binds from these two sets (each shader uses its part; reflection drops the
// rest): the start reads the current state as positions/velocities; the others gather from the
// iterate through those names and update it in place through the nlcg ones.
struct NlcgPasses {
  GpuRecorder& r;
  const NlcgResources& nl;
  gpu::NonlinearCgParams push{};
  std::vector<engine::BufferBinding> start, iterate;

  NlcgPasses(GpuRecorder& recorder, const gpu::StepParams& params, const NlcgSettings& settings)
      : r(recorder), nl(recorder.state.unit<NlcgResources>(Integrator::NonlinearCg)) {
    GpuState& s = r.state;
    push.step = params;
    push.threshold = nlcgThreshold(settings);
    push.velocityScale = settings.velocityScale;
    push.relative = settings.relative;
    push.maxIterations = static_cast<uint32_t>(settings.maxIterations);
    push.partialCount = nl.kit.partialCount;
    start = s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
              {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
              {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
              {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()},
              {WEFT_BIND_NLCG_PARTIALS, &nl.kit.partials},
              {WEFT_BIND_NLCG_DIRECTION_P, &s.scratch[2]},
              {WEFT_BIND_NLCG_DIRECTION_V, &s.scratch[3]}});
    iterate = s.withTables({{WEFT_BIND_POSITIONS, &s.positionsOut()},
                {WEFT_BIND_VELOCITIES, &s.velocitiesOut()},
                {WEFT_BIND_PREV_POSITIONS, &s.positionsIn()},
                {WEFT_BIND_BASE_VELOCITIES, &s.velocitiesIn()},
                {WEFT_BIND_NLCG_SCALARS, &nl.kit.scalars},
                {WEFT_BIND_NLCG_PARTIALS, &nl.kit.partials},
                {WEFT_BIND_NLCG_INDIRECT, &nl.kit.indirect},
                {WEFT_BIND_NLCG_POSITIONS, &s.positionsOut()},
                {WEFT_BIND_NLCG_VELOCITIES, &s.velocitiesOut()},
                {WEFT_BIND_NLCG_RESIDUAL_P, &s.scratch[0]},
                {WEFT_BIND_NLCG_RESIDUAL_V, &s.scratch[1]},
                {WEFT_BIND_NLCG_DIRECTION_P, &s.scratch[2]},
                {WEFT_BIND_NLCG_DIRECTION_V, &s.scratch[3]}});
  }

  void scalars(uint32_t mode) {
    gpu::NonlinearCgParams p = push;
    p.step.mode = mode;
    nl.kit.scalarPass(r.cmd, nl.scalars, iterate, p);
  }
  // A per-particle pass whose group count the scalar pass chose.
  void indirect(const engine::ComputeProgram& program, uint32_t groupsOffset) {
    nl.kit.indirectPass(r.cmd, program, groupsOffset, iterate, push);
  }
  // The trial move and its line search, then the test at the iterate when the scalars ask for it.
  void iteration() {
    indirect(nl.direction, WEFT_NLCG_GROUPS_ITERATE);
    indirect(nl.residual, WEFT_NLCG_GROUPS_ITERATE);
    scalars(WEFT_NLCG_SECANT);
    indirect(nl.add, WEFT_NLCG_GROUPS_ITERATE);
    confirmation();
  }
  void confirmation() {
    indirect(nl.residual, WEFT_NLCG_GROUPS_CONFIRM);
    scalars(WEFT_NLCG_FRESH);
  }
  void iterationsThenFinish(uint32_t iterations) {
    engine::timed(r.timer, r.cmd, "nlcg_iterations", [&] {
      for (uint32_t k = 0; k < iterations; ++k) iteration();
    });
    engine::timed(r.timer, r.cmd, "nlcg_finish", [&] { indirect(nl.finish, WEFT_NLCG_GROUPS_FINISH); });
    engine::recordReadback(r.vk(), r.cmd, nl.kit.scalars, nl.readback, sizeof(gpu::StepLog),
                           offsetof(gpu::NonlinearCgScalars, log));
  }
};

// Submits one recording and returns the log it read back.
template <class Record>
gpu::StepLog submitStep(GpuFrame& frame, const NlcgResources& nl, Record&& record) {
  frame.submitTimed([&](VkCommandBuffer cmd) { record(cmd); });
  gpu::StepLog log;
  std::memcpy(&log, nl.readback.mapped(), sizeof log);
  return log;
}

// The sentence for a step that keeps diverging: the step in significant digits (it is a millionth
// of the requested one, far below what fixed-point printing shows).
std::string stepDiverged(float h, float requested, float residual) {
  char text[256];
  std::snprintf(text, sizeof text,
                "nonlinear-cg: the step still diverges at dt = %.3g s (%.2g of the requested %.3g s; residual %.3g "
                "m/s): the state is not finite, or the scene is stiffer than the tolerance lets the step resolve",
                double(h), double(h / requested), double(requested), double(residual));
  return text;
}

// The frame loop of both backends: tries steps of the adaptive size, retries diverged ones at half
// the size, lands exactly on frameDt. `tryStep(h)` attempts a step of h and accepts it (swaps the
// state) when its log says converged.
template <class TryStep>
std::vector<SolveStats> advanceAdaptive(float& adaptiveDt, float frameDt, int substeps, int maxIterations,
                                        float velocityScale, TryStep&& tryStep) {
  const float requested = frameDt / static_cast<float>(substeps);
  if (!(adaptiveDt > 0.f) || adaptiveDt > requested) adaptiveDt = requested;
  std::vector<SolveStats> stats;
  double elapsed = 0.0;
  while (frameDt - elapsed > kLandingSlack * requested) {
    const double remaining = frameDt - elapsed;
    const float h = remaining <= adaptiveDt * (1.0 + kLandingSlack) ? static_cast<float>(remaining) : adaptiveDt;
    const gpu::StepLog log = tryStep(h);
    const float residual = log.residual / velocityScale;  // in velocity units, like the tolerance
    if (log.converged != WEFT_NLCG_CONVERGED) {
      adaptiveDt = h * kShrinkOnDivergence;
      if (adaptiveDt < kMinStepFraction * requested)
        throw SolveError(stepDiverged(h, requested, residual));
      continue;
    }
    stats.push_back({static_cast<int>(log.iterations), residual, true, h});
    elapsed += h;
    if (4.0 * log.iterations < maxIterations)
      adaptiveDt = std::min(adaptiveDt * kGrowWhenEasy, requested);
    else if (4.0 * log.iterations > 3.0 * maxIterations)
      adaptiveDt *= kShrinkWhenHard;
  }
  return stats;
}

std::vector<SolveStats> nonlinearCgAdvanceCpu(CpuState& s, const gpu::StepParams& params, const NlcgSettings& settings,
                                              float frameDt, int substeps, ThreadPool& pool) {
  return advanceAdaptive(s.adaptiveDt, frameDt, substeps, settings.maxIterations, settings.velocityScale, [&](float h) {
    gpu::StepParams p = params;
    p.dt = h;
    gpu::StepLog log = nonlinearCgTryStepCpu(s, p, settings, pool);
    if (log.converged == WEFT_NLCG_CONVERGED) {
      s.swapPositions();
      s.swapVelocities();
    }
    return log;
  });
}


void recordNonlinearCgStep(GpuRecorder& r, const gpu::StepParams& params, const NlcgSettings& settings,
                           uint32_t iterations) {
  NlcgPasses passes(r, params, settings);
  engine::timed(r.timer, r.cmd, "nlcg_start", [&] {
    passes.nl.start.dispatch(r.cmd, r.state.particleCount, passes.start, passes.push);
    engine::barrier::computeToCompute(r.vk(), r.cmd);
    passes.nl.residual.dispatch(r.cmd, r.state.particleCount, passes.iterate, passes.push);
    engine::barrier::computeToCompute(r.vk(), r.cmd);
    passes.scalars(WEFT_NLCG_BEGIN);
  });
  passes.iterationsThenFinish(iterations);
}

void recordNonlinearCgContinuation(GpuRecorder& r, const gpu::StepParams& params, const NlcgSettings& settings,
                                   uint32_t iterations) {
  NlcgPasses(r, params, settings).iterationsThenFinish(iterations);
}

std::vector<SolveStats> nonlinearCgAdvanceGpu(GpuFrame& frame, const gpu::StepParams& params,
                                              const NlcgSettings& settings, float frameDt, int substeps) {
  GpuState& s = frame.state;
  NlcgResources& nl = s.unit<NlcgResources>(Integrator::NonlinearCg);
  const auto cap = static_cast<uint32_t>(settings.maxIterations);
  return advanceAdaptive(nl.adaptiveDt, frameDt, substeps, settings.maxIterations, settings.velocityScale, [&](float h) {
    gpu::StepParams p = params;
    p.dt = h;
    // Recording the whole cap would cost an empty dispatch per pass per unneeded iteration
    // (~17 us each on lavapipe, a submission ~20 us); the last step's count is a good guess.
    uint32_t recorded = std::min(cap, nl.lastIterations);
    gpu::StepLog log = submitStep(frame, nl, [&](VkCommandBuffer cmd) {
      GpuRecorder recorder{cmd, s, frame.timer};
      recordNonlinearCgStep(recorder, p, settings, recorded);
    });
    while (log.converged == WEFT_NLCG_RUNNING) {  // ran out of recorded iterations: more, doubling
      const uint32_t more = std::min(cap - recorded, std::max(recorded, 1u));
      if (more == 0) throw std::logic_error("nonlinear-cg: still running after the iteration cap");
      log = submitStep(frame, nl, [&](VkCommandBuffer cmd) {
        GpuRecorder recorder{cmd, s, frame.timer};
        recordNonlinearCgContinuation(recorder, p, settings, more);
      });
      recorded += more;
    }
    nl.lastIterations = log.iterations;
    if (log.converged == WEFT_NLCG_CONVERGED) {
      s.swapPositions();
      s.swapVelocities();
    }
    return log;
  });
}

class NonlinearCgUnit final : public IntegratorUnit {
 public:
  Integrator id() const override { return Integrator::NonlinearCg; }
  bool contactForces() const override { return true; }
  UnitMemory memory(const StateSize& size) const override {
    UnitMemory m;
    m.gpuScratch = 4;                                                               // prepareGpu
    m.gpuOwn.add(SolveKit::partialBytes(size.particles, WEFT_NLCG_PARTIAL_SLOTS));  // NlcgResources::kit
    for (int k = 0; k < 4; ++k) m.cpu.add(size.particles * sizeof(glm::vec4));     // nlcgVectors
    return m;
  }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams& params, const gpu::StepParams& step,
                                     float frameDt, int substeps, ThreadPool& pool) const override {
    return nonlinearCgAdvanceCpu(state, step, nlcgSettings(params), frameDt, substeps, pool);
  }
  bool recordsFrames() const override { return false; }
  // A submission per attempt: start, iterations, finish.
  uint32_t timedPassesPerStep(const SolverParams&) const override { return 3; }
  void prepareGpu(GpuState& state, const SolverParams&, int) const override {
    state.ensureScratch(4);  // the residual and the direction, position and velocity halves
    state.unit<NlcgResources>(Integrator::NonlinearCg);
  }
  void recordStep(GpuRecorder&, const SolverParams&, const gpu::StepParams&, uint32_t) const override {
    throw std::logic_error("nonlinear-cg decides on the host after every step whether to retry it, so it cannot "
                           "record a frame into one command buffer: use advance()");
  }
  std::vector<SolveStats> advanceGpu(GpuFrame& frame, const SolverParams& params, const gpu::StepParams& step,
                                     float frameDt, int substeps) const override {
    return nonlinearCgAdvanceGpu(frame, step, nlcgSettings(params), frameDt, substeps);
  }
};

}  // namespace

template <>
const IntegratorUnit& integratorUnitFor<Integrator::NonlinearCg>() {
  static const NonlinearCgUnit unit;
  return unit;
}

}  // namespace weft::integrators
