#include "solver/integrators/common/cg/cg_solve.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

#include "engine/commands.h"
#include "shaders/cg.h"
#include "shaders/physics.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/cpu/cpu_elements.h"
#include "solver/integrators/common/solve_kit.h"
#include "solver/integrators/common/cg/cg_coarse.h"
#include "solver/integrators/common/cg/cg_product_lanes.h"
#include "solver/integrators/common/cg/cg_setup_lanes.h"
#include "solver/cpu/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

namespace {

struct CgVectors {
  std::vector<glm::vec4>&dv, &r, &c, &q, &constraint, &rhs;
};

CgVectors cgVectors(CpuState& s) {
  s.scratch.resize(std::max<size_t>(s.scratch.size(), 6));
  for (size_t k = 0; k < 6; ++k) s.scratch[k].resize(s.positions.size());
  s.blocks.resize(s.positions.size());
  s.springBlocks.resize(s.springs.entries.size());
  return {s.scratch[0], s.scratch[1], s.scratch[2], s.scratch[3], s.scratch[4], s.scratch[5]};
}

CgSetupInput cgSetupInput(CpuState& s, const gpu::StepParams& p, const CgSystem& system) {
  return {s.springs.rows.data(),
          s.springs.entries.data(),
          s.springs.forceBounds.empty() ? nullptr : s.springs.forceBounds.data(),
          s.positions.data(),
          s.velocities.data(),
          s.springBlocks.data(),
          p.gravity,
          p.wind,
          system.forceTime,
          system.stiffnessTime};
}

// CPU twin of cg_setup.comp given a free particle's sums over its springs (cgSpringSums; unread
// for a pinned one); returns r.c of the particle.
float cgSetupParticle(uint32_t i, CpuState& s, CgVectors& w, const gpu::StepParams& p, const CgSystem& system,
                      bool warmStart, const CgSpringSums& springs) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 vi = xyz(s.velocities[i]);
  const float a = system.forceTime, l = system.stiffnessTime;
  glm::vec4 flt(0.f, 0.f, 0.f, WEFT_FILTER_FREE);
  glm::mat3 block(1.f);
  glm::vec3 b(0.f);
  if (xi.w == 0.f) {
    flt.w = WEFT_FILTER_PINNED;
  } else {
    glm::vec3 force = springs.force + elementForces(i, s.positions, s.velocities, s.elements, p.wind, true);
    block = springs.block + elementDiagonal(i, s.positions, s.elements, a * l, a, 0.f);
    glm::vec3 sv = springs.stiffness;
    if (l != 0.f) sv += elementProduct(i, s.positions, s.velocities, s.elements, 1.f, 0.f);
    b = a * (force - l * sv);
    flt = integrators::firstRestingFilter(xyz(xi), vi, b, s.colliders, s.colliderGrid);
  }
  glm::mat3 inverseBlock = glm::inverse(block);
  glm::vec3 ri = gpu::applyFilter(flt, b);
  glm::vec3 ci = gpu::applyFilter(flt, inverseBlock * ri);
  w.constraint[i] = flt;
  w.rhs[i] = glm::vec4(b, 0.f);
  s.blocks[i] = inverseBlock;
  // The warm start's guess: the last solve's answer within this one's constraints.
  w.dv[i] = warmStart ? glm::vec4(gpu::applyFilter(flt, xyz(w.dv[i])), 0.f) : glm::vec4(0.f);
  w.r[i] = glm::vec4(ri, 0.f);
  w.c[i] = glm::vec4(ci, 0.f);
  return glm::dot(ri, ci);
}

// cg_setup.comp over particles [begin, end): the springs' sums in lanes, a group of the kernel's
// width at a time where no spring bounds its force, the rest row by row; the sum of r.c over the
// range, added in particle order as sumOver adds.
double cgSetupRange(size_t begin, size_t end, CpuState& s, CgVectors& w, const gpu::StepParams& p,
                    const CgSystem& system, bool warmStart) {
  const CgSetupInput in = cgSetupInput(s, p, system);
  const CgSetupKernel lanes = in.bounds ? CgSetupKernel{} : cgSetupLanes();
  const auto width = size_t(lanes.width);
  CgSetupGroup group;
  double sum = 0;
  for (size_t i = begin; i < end;) {
    if (lanes.run && i + width <= end) {
      lanes.run(in, static_cast<uint32_t>(i), group);
      for (size_t l = 0; l < width; ++l, ++i)
        sum += cgSetupParticle(static_cast<uint32_t>(i), s, w, p, system, warmStart, group.sums(int(l)));
    } else {
      const auto at = static_cast<uint32_t>(i++);
      const CgSpringSums springs = s.positions[at].w == 0.f ? CgSpringSums{} : cgSpringSums(in, at);
      sum += cgSetupParticle(at, s, w, p, system, warmStart, springs);
    }
  }
  return sum;
}

SpringProductInput springProductInput(const CpuState& s, const std::vector<glm::vec4>& u, const gpu::StepParams& p,
                                      const CgSystem& system) {
  return {s.springs.rows.data(), s.springs.entries.data(), s.springBlocks.data(), s.positions.data(), u.data(),
          system.forceTime * p.wind.w};
}

// Row i of A u given the springs' part of it (springSystemProduct): the elements' rows added.
glm::vec3 addElementProduct(uint32_t i, glm::vec3 springs, const CpuState& s, const std::vector<glm::vec4>& u,
                            const CgSystem& system) {
  if (!(s.positions[i].w > 0.f)) return springs;
  const float a = system.forceTime;
  return springs + elementProduct(i, s.positions, u, s.elements, a * system.stiffnessTime, a);
}

// CPU twin of cg_system_product.glsl: row i of A u, unfiltered.
glm::vec3 systemProduct(uint32_t i, const CpuState& s, const std::vector<glm::vec4>& u, const gpu::StepParams& p,
                        const CgSystem& system) {
  return addElementProduct(i, springSystemProduct(springProductInput(s, u, p, system), i), s, u, system);
}

// CPU twin of cg_product.comp's end, given row i of A c: q = filter(A c); returns c.q of the particle.
float cgProductParticle(uint32_t i, glm::vec3 product, CgVectors& w) {
  glm::vec3 qi = gpu::applyFilter(w.constraint[i], product);
  w.q[i] = glm::vec4(qi, 0.f);
  return glm::dot(xyz(w.c[i]), qi);
}

// cg_product.comp over particles [begin, end): the springs' rows in lanes, a group of the kernel's
// width at a time, and the range's last rows that fill no group row by row; the sum of c.q over the
// range, added in particle order as sumOver adds. A system of springs alone (no element rows, no
// contact pairs) has the lanes finish its rows too (cgFilteredRow).
double cgProductRange(size_t begin, size_t end, CpuState& s, CgVectors& w, const gpu::StepParams& p,
                      const CgSystem& system) {
  SpringProductInput in = springProductInput(s, w.c, p, system);
  if (s.elements.springsOnly()) in.constraint = w.constraint.data();
  const SpringProductKernel lanes = springProductLanes();
  const auto width = size_t(lanes.width);
  glm::vec4 rows[8];
  float cq[8];
  double sum = 0;
  auto take = [&](uint32_t at, glm::vec3 springs, float c) {
    if (in.constraint) {
      w.q[at] = glm::vec4(springs, 0.f);
      sum += c;
    } else {
      sum += cgProductParticle(at, addElementProduct(at, springs, s, w.c, system), w);
    }
  };
  for (size_t i = begin; i < end;) {
    if (lanes.run && i + width <= end) {
      lanes.run(in, static_cast<uint32_t>(i), rows, cq);
      for (size_t l = 0; l < width; ++l, ++i) take(static_cast<uint32_t>(i), xyz(rows[l]), cq[l]);
    } else {
      const auto at = static_cast<uint32_t>(i++);
      float c = 0.f;
      glm::vec3 row = springSystemProduct(in, at);
      if (in.constraint) row = cgFilteredRow(in, at, row, c);  // before take reads c
      take(at, row, c);
    }
  }
  return sum;
}

// CPU twin of cg_warm.comp, WEFT_CG_WARM_RESIDUAL; returns r.s of the residual the guess leaves.
float cgWarmResidualParticle(uint32_t i, CpuState& s, CgVectors& w, const gpu::StepParams& p, const CgSystem& system) {
  glm::vec3 ri = xyz(w.r[i]) - gpu::applyFilter(w.constraint[i], systemProduct(i, s, w.dv, p, system));
  w.q[i] = glm::vec4(ri, 0.f);
  return glm::dot(ri, s.blocks[i] * ri);
}

// CPU twin of cg_warm.comp, WEFT_CG_WARM_CHOOSE.
void cgWarmChooseParticle(uint32_t i, CpuState& s, CgVectors& w, bool kept) {
  if (kept) {
    glm::vec3 ri = xyz(w.q[i]);
    w.r[i] = glm::vec4(ri, 0.f);
    w.c[i] = glm::vec4(gpu::applyFilter(w.constraint[i], s.blocks[i] * ri), 0.f);
  } else {
    w.dv[i] = glm::vec4(0.f);
  }
}

// CPU twin of cg_update.comp; returns r.s of the particle.
float cgUpdateParticle(uint32_t i, CpuState& s, CgVectors& w, float alpha) {
  w.dv[i] += alpha * w.c[i];
  glm::vec3 ri = gpu::applyFilter(w.constraint[i], xyz(w.r[i]) - alpha * xyz(w.q[i]));
  glm::vec3 si = s.blocks[i] * ri;
  w.r[i] = glm::vec4(ri, 0.f);
  w.q[i] = glm::vec4(si, 0.f);
  return glm::dot(ri, si);
}

// CPU twin of cg_finish.comp before its collision (stepThenCollideBlocks collides).
void cgFinishParticle(uint32_t i, CpuState& s, CgVectors& w, const gpu::StepParams& p, const CgSystem& system) {
  glm::vec4 xi = s.positions[i];
  if (xi.w == 0.f) {
    s.positionsOut[i] = xi;
    s.velocitiesOut[i] = glm::vec4(0.f);
    return;
  }
  glm::vec3 v = xyz(s.velocities[i]) + xyz(w.dv[i]);
  const glm::vec4 flt = w.constraint[i];
  if (flt.w == WEFT_FILTER_CONTACT) {  // friction on the press the solve's constraint gave it
    const glm::vec3 b = xyz(w.rhs[i]);
    const uint32_t k = integrators::firstRestingCollider(xyz(xi), xyz(s.velocities[i]), b, s.colliders, s.colliderGrid);
    const float press = glm::dot(systemProduct(i, s, w.dv, p, system) - b, xyz(flt)) * xi.w;
    if (k != WEFT_NO_COLLIDER) v = gpu::restingFriction(xyz(xi), v, xyz(flt), press, s.colliders[k]);
  }
  s.positionsOut[i] = glm::vec4(xyz(xi) + system.driftTime * v, xi.w);
  s.velocitiesOut[i] = glm::vec4(v, 0.f);
}


// The kernels and buffers of the GPU solve: the solve kit (scalars host-visible: submitCgSolve
// reads the converged flag between chunks), the inverse diagonal blocks and each spring end's block.
struct CgResources : UnitResources {
  explicit CgResources(const GpuState& s)
      : setup(s.program(s.kernel("cg_setup.comp"))),
        scalars(s.program(s.kernel("cg_scalars.comp"))),
        product(s.program(s.kernel("cg_product.comp"))),
        update(s.program(s.kernel("cg_update.comp"))),
        direction(s.program(s.kernel("cg_direction.comp"))),
        finish(s.program(s.kernel("cg_finish.comp"))),
        warm(s.program(s.kernel("cg_warm.comp"))),
        kit(s, setup, {sizeof(gpu::SolveScalars), 1, 1, true}),
        preconditioner(*s.context, 3ull * s.particleCount * sizeof(glm::vec4), engine::kStorageUsage,
                       engine::MemoryUsage::DeviceLocal, "weft.preconditioner"),
        springBlocks(*s.context, s.springs.size(), engine::kStorageUsage, engine::MemoryUsage::DeviceLocal,
                     "weft.springBlocks") {}  // one vec4 per SpringEntry
  engine::ComputeProgram setup, scalars, product, update, direction, finish, warm;
  SolveKit kit;
  engine::Buffer preconditioner, springBlocks;
};

// Everything one CG pass needs to record itself.
struct CgPasses {
  GpuRecorder& r;
  const CgResources& cg;
  gpu::SolveParams solve;
  std::vector<engine::BufferBinding> bindings;

  CgPasses(GpuRecorder& recorder, Integrator owner, const gpu::StepParams& params, const CgSystem& system,
           const CgSettings& settings, uint32_t logIndex)
      : r(recorder), cg(recorder.state.unit<CgResources>(owner)) {
    GpuState& s = r.state;
    solve = {};
    solve.step = params;
    solve.tolerance = settings.tolerance;
    solve.maxIterations = static_cast<uint32_t>(settings.maxIterations);
    solve.partialCount = cg.kit.partialCount;
    solve.substep = logIndex;
    solve.forceTime = system.forceTime;
    solve.stiffnessTime = system.stiffnessTime;
    solve.driftTime = system.driftTime;
    solve.warmStart = settings.warmStart ? 1u : 0u;
    // Every CG pass binds the same set; each shader uses its part of it (reflection drops the rest).
    bindings = s.withTables({
        {WEFT_BIND_POSITIONS, &s.positionsIn()},
        {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
        {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
        {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()},
        {WEFT_BIND_SOLVE_SCALARS, &cg.kit.scalars},
        {WEFT_BIND_PARTIALS, &cg.kit.partials},
        {WEFT_BIND_INDIRECT, &cg.kit.indirect},
        {WEFT_BIND_STEP_LOG, &cg.kit.stepLog},
        {WEFT_BIND_CG_DV, &s.scratch[0]},
        {WEFT_BIND_CG_R, &s.scratch[1]},
        {WEFT_BIND_CG_C, &s.scratch[2]},
        {WEFT_BIND_CG_Q, &s.scratch[3]},
        {WEFT_BIND_CG_PRECONDITIONER, &cg.preconditioner},
        {WEFT_BIND_CG_FILTER, &s.scratch[4]},
        {WEFT_BIND_CG_BLOCKS, &cg.springBlocks},
        {WEFT_BIND_CG_RHS, &s.scratch[5]},
    });
  }

  void scalars(uint32_t mode) {
    gpu::SolveParams p = solve;
    p.step.mode = mode;
    cg.kit.scalarPass(r.cmd, cg.scalars, bindings, p);
  }
  void perParticle(const engine::ComputeProgram& program) { cg.kit.indirectPass(r.cmd, program, 0, bindings, solve); }
  void warm(uint32_t mode) {
    gpu::SolveParams p = solve;
    p.step.mode = mode;
    cg.warm.dispatch(r.cmd, r.state.particleCount, bindings, p);
    engine::barrier::computeToCompute(r.vk(), r.cmd);
  }

  // The setup, and with a warm start the guess's residual, its comparison and the choice.
  void begin() {
    engine::timed(r.timer, r.cmd, "cg_setup", [&] {
      cg.setup.dispatch(r.cmd, r.state.particleCount, bindings, solve);
      engine::barrier::computeToCompute(r.vk(), r.cmd);
      scalars(WEFT_SOLVE_BEGIN);
      if (solve.warmStart == 0u) return;
      warm(WEFT_CG_WARM_RESIDUAL);
      scalars(WEFT_SOLVE_WARM);
      warm(WEFT_CG_WARM_CHOOSE);
    });
  }
  void iterations(int count) {
    engine::timed(r.timer, r.cmd, "cg_iterations", [&] {
      for (int k = 0; k < count; ++k) {
        perParticle(cg.product);
        scalars(WEFT_SOLVE_ALPHA);
        perParticle(cg.update);
        scalars(WEFT_SOLVE_BETA);
        perParticle(cg.direction);
      }
    });
  }
  void finish() {
    engine::timed(r.timer, r.cmd, "cg_finish", [&] { cg.finish.dispatch(r.cmd, r.state.particleCount, bindings, solve); });
    engine::barrier::computeToCompute(r.vk(), r.cmd);
    r.state.swapPositions();
    r.state.swapVelocities();
  }
};

}  // namespace

CgSettings cgSettings(const SolverParams& params, bool warmStart) {
  return {params.tolerance, params.maxIterations, 8, warmStart && params.cgWarmStart, params.preconditioner == Preconditioner::TwoLevel};
}

UnitMemory cgMemory(const StateSize& size) {
  UnitMemory m;
  m.gpuScratch = 6;                                           // prepareCgGpu
  m.gpuOwn.add(3 * size.particles * sizeof(glm::vec4));        // CgResources::preconditioner
  m.gpuOwn.add(size.springEntries * sizeof(glm::vec4));        // CgResources::springBlocks
  m.gpuOwn.add(SolveKit::partialBytes(size.particles, 1));     // CgResources::kit
  for (int k = 0; k < 6; ++k) m.cpu.add(size.particles * sizeof(glm::vec4));  // cgVectors
  m.cpu.add(size.particles * sizeof(glm::mat3));
  m.cpu.add(size.springEntries * sizeof(glm::vec4));
  m.cpuTwoLevel = cgCoarseMemory(size);
  return m;
}

SolveStats cgSolveCpu(CpuState& s, const gpu::StepParams& p, const CgSystem& system, const CgSettings& settings,
                      ThreadPool& pool) {
  const size_t n = s.positions.size();
  CgVectors w = cgVectors(s);
  const auto cap = static_cast<uint32_t>(settings.maxIterations);
  // The passes of cg_*.comp with the scalar decisions of cg.h between them, as the GPU runs them.
  gpu::SolveScalars scalars{};
  auto decide = [&](uint32_t mode, double total) {
    return gpu::cgScalarStep(scalars, mode, static_cast<float>(total), settings.tolerance, cap);
  };
  double setupSum = pool.parallelSum(n, [&](size_t begin, size_t end) {
    return cgSetupRange(begin, end, s, w, p, system, settings.warmStart);
  });
  // The two-level preconditioner's coarse correction (cg_coarse.h): added to each preconditioned
  // residual, its part of r.c summed on the coarse level.
  CgCoarse* coarse = nullptr;
  if (settings.twoLevel) {
    coarse = &cgCoarse(s);
    coarse->prepare(s.springs, s.elements);
    const float a = system.forceTime;
    if (!coarse->assemble(s, w.constraint, a * p.wind.w, a * system.stiffnessTime, a, pool)) coarse = nullptr;
  }
  // c_i += S_i z of its aggregate: the last coarse solve's correction, filtered.
  auto addCorrection = [&](size_t i) {
    w.c[i] = glm::vec4(gpu::applyFilter(w.constraint[i], xyz(w.c[i]) + coarse->correction(static_cast<uint32_t>(i))), 0.f);
  };
  if (coarse) {
    setupSum += coarse->solve(w.r, pool);
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) addCorrection(i);
    });
  }
  bool stop = decide(WEFT_SOLVE_BEGIN, setupSum);
  if (settings.warmStart) {
    if (!stop) {
      double warmSum = sumOver(pool, n, [&](uint32_t i) { return cgWarmResidualParticle(i, s, w, p, system); });
      if (coarse) warmSum += coarse->solve(w.q, pool);
      stop = decide(WEFT_SOLVE_WARM, warmSum);
    }
    const bool kept = gpu::cgWarmKept(scalars);
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        cgWarmChooseParticle(static_cast<uint32_t>(i), s, w, kept);
        if (coarse && kept) addCorrection(i);
      }
    });
  }
  while (!stop) {
    if (decide(WEFT_SOLVE_ALPHA,
               pool.parallelSum(n, [&](size_t begin, size_t end) { return cgProductRange(begin, end, s, w, p, system); })))
      break;
    const float alpha = scalars.alpha;
    double updateSum = sumOver(pool, n, [&](uint32_t i) { return cgUpdateParticle(i, s, w, alpha); });
    if (coarse) updateSum += coarse->solve(w.r, pool);
    stop = decide(WEFT_SOLVE_BETA, updateSum);
    if (stop) break;
    const float beta = scalars.beta;
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      if (coarse) {
        for (size_t i = begin; i < end; ++i)
          w.c[i] = glm::vec4(gpu::applyFilter(w.constraint[i], xyz(w.q[i]) + coarse->correction(static_cast<uint32_t>(i)) +
                                                                   beta * xyz(w.c[i])),
                             0.f);
      } else {
        for (size_t i = begin; i < end; ++i)
          w.c[i] = glm::vec4(gpu::applyFilter(w.constraint[i], xyz(w.q[i]) + beta * xyz(w.c[i])), 0.f);
      }
    });
  }
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    integrators::stepThenCollideBlocks(begin, end, s.positionsOut, s.velocitiesOut, s.colliders, s.colliderGrid,
                                       system.driftTime, [&](uint32_t i) { cgFinishParticle(i, s, w, p, system); });
  });
  s.swapPositions();
  s.swapVelocities();
  const float residual = gpu::cgRelativeResidual(scalars);
  return {static_cast<int>(scalars.iterations), residual, residual <= settings.tolerance, p.dt};
}

void forgetCgGuessCpu(CpuState& state) {
  if (!state.scratch.empty()) std::fill(state.scratch[0].begin(), state.scratch[0].end(), glm::vec4(0.f));
}

void forgetCgGuessGpu(GpuState& state) {
  if (state.scratch.empty()) return;
  engine::submitAndWait(*state.context, [&](VkCommandBuffer cmd) {
    engine::barrier::allToUpload(state.context->vk(), cmd);
    state.context->vk().CmdFillBuffer(cmd, state.scratch[0].handle(), 0, VK_WHOLE_SIZE, 0u);
    engine::barrier::transferToAll(state.context->vk(), cmd);
  });
}

void prepareCgGpu(GpuState& state, Integrator owner, uint32_t logEntries) {
  const bool fresh = state.scratch.empty();
  state.ensureScratch(6);  // dv, r, c, q, the filter and b
  if (fresh) forgetCgGuessGpu(state);  // a new buffer holds whatever the memory held: no guess
  state.unit<CgResources>(owner).kit.ensureLog(logEntries);
}

void recordCgSolve(GpuRecorder& r, Integrator owner, const gpu::StepParams& step, const CgSystem& system,
                   const CgSettings& settings, uint32_t logIndex) {
  CgPasses passes(r, owner, step, system, settings, logIndex);
  passes.begin();
  passes.iterations(settings.maxIterations);
  passes.finish();
}

void submitCgSolves(GpuFrame& frame, Integrator owner, const gpu::StepParams& step, std::span<const CgSystem> systems,
                    const CgSettings& settings) {
  const CgResources& resources = frame.state.unit<CgResources>(owner);
  const auto* scalars = static_cast<const gpu::SolveScalars*>(resources.kit.scalars.mapped());
  for (size_t k = 0; k < systems.size(); ++k) {
    const auto logIndex = static_cast<uint32_t>(k);
    int recorded = 0;
    bool begun = false;
    while (!begun || (recorded < settings.maxIterations && scalars->converged == 0)) {
      const int chunk = std::min(settings.iterationsPerCheck, settings.maxIterations - recorded);
      frame.submitTimed([&](VkCommandBuffer cmd) {
        GpuRecorder recorder{cmd, frame.state, frame.timer};
        if (!begun) {
          // The solve before finishes in this submission, before this one binds the state it wrote.
          if (k > 0) CgPasses(recorder, owner, step, systems[k - 1], settings, logIndex - 1).finish();
          CgPasses(recorder, owner, step, systems[k], settings, logIndex).begin();
        }
        CgPasses(recorder, owner, step, systems[k], settings, logIndex).iterations(chunk);
        engine::barrier::computeToHost(recorder.vk(), cmd);
      });
      begun = true;
      recorded += chunk;
    }
  }
  if (systems.empty()) return;
  frame.submitTimed([&](VkCommandBuffer cmd) {
    GpuRecorder recorder{cmd, frame.state, frame.timer};
    CgPasses(recorder, owner, step, systems.back(), settings, static_cast<uint32_t>(systems.size() - 1)).finish();
  });
}

std::vector<SolveStats> readCgLog(GpuState& state, Integrator owner, int entries) {
  return state.unit<CgResources>(owner).kit.readLog(entries);
}

}  // namespace weft::integrators
