#include "solver/integrators/implicit_cg.h"

#include <array>
#include <cmath>

#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/integrators/cpu_elements.h"
#include "solver/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

namespace {

struct CgVectors {
  std::vector<glm::vec4>&dv, &r, &c, &q, &constraint;
};

CgVectors cgVectors(CpuState& s) {
  s.scratch.resize(std::max<size_t>(s.scratch.size(), 5));
  for (size_t k = 0; k < 5; ++k) s.scratch[k].resize(s.positions.size());
  s.blocks.resize(s.positions.size());
  s.springBlocks.resize(s.springs.entries.size());
  return {s.scratch[0], s.scratch[1], s.scratch[2], s.scratch[3], s.scratch[4]};
}

// CPU twin of cg_setup.comp; returns r.c of the particle.
float cgSetupParticle(uint32_t i, CpuState& s, CgVectors& w, const gpu::StepParams& p) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 vi = xyz(s.velocities[i]);
  float h = p.dt;
  glm::vec4 flt(0.f, 0.f, 0.f, WEFT_FILTER_FREE);
  glm::mat3 block(1.f);
  glm::vec3 b(0.f);
  if (xi.w == 0.f) {
    flt.w = WEFT_FILTER_PINNED;
  } else {
    for (const gpu::Collider& c : s.colliders) {
      glm::vec4 contact = gpu::contactNormal(xyz(xi), vi, c);
      if (contact.w > 0.f && flt.w == WEFT_FILTER_FREE) flt = glm::vec4(xyz(contact), WEFT_FILTER_CONTACT);
    }
    float mass = 1.f / xi.w;
    float drag = p.wind.w;
    block = (mass + h * drag) * glm::mat3(1.f);
    glm::vec3 force = mass * xyz(p.gravity) + gpu::dragForce(vi, p.wind);
    glm::vec3 sv(0.f);
    for (uint32_t k = s.springs.rows[i]; k < s.springs.rows[i + 1]; ++k) {
      const gpu::SpringEntry& e = s.springs.entries[k];
      glm::vec3 xj = xyz(s.positions[e.other]), vj = xyz(s.velocities[e.other]);
      force += gpu::springForce(xyz(xi), vi, xj, vj, e);
      glm::vec4 system = gpu::springSystemBlock(xyz(xi), xj, e, h);
      s.springBlocks[k] = system;
      block += gpu::systemBlockMatrix(system);
      sv += gpu::springStiffnessBlock(xyz(xi), xj, e) * (vi - vj);
    }
    force += elementForces(i, s.positions, s.velocities, s.elements, p.wind, true);
    block += elementDiagonal(i, s.positions, s.elements, h * h, h);
    sv += elementProduct(i, s.positions, s.velocities, s.elements, 1.f, 0.f);
    b = h * (force - h * sv);
  }
  glm::mat3 inverseBlock = glm::inverse(block);
  glm::vec3 ri = gpu::applyFilter(flt, b);
  glm::vec3 ci = gpu::applyFilter(flt, inverseBlock * ri);
  w.constraint[i] = flt;
  s.blocks[i] = inverseBlock;
  w.dv[i] = glm::vec4(0.f);
  w.r[i] = glm::vec4(ri, 0.f);
  w.c[i] = glm::vec4(ci, 0.f);
  return glm::dot(ri, ci);
}

// CPU twin of cg_product.comp; returns c.q of the particle.
float cgProductParticle(uint32_t i, CpuState& s, CgVectors& w, const gpu::StepParams& p) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 ci = xyz(w.c[i]);
  glm::vec3 product(0.f);
  if (xi.w > 0.f) {
    float h = p.dt;
    product = (1.f / xi.w + h * p.wind.w) * ci;
    for (uint32_t k = s.springs.rows[i]; k < s.springs.rows[i + 1]; ++k)
      product += gpu::applySystemBlock(s.springBlocks[k], ci - xyz(w.c[s.springs.entries[k].other]));
    product += elementProduct(i, s.positions, w.c, s.elements, h * h, h);
  }
  glm::vec3 qi = gpu::applyFilter(w.constraint[i], product);
  w.q[i] = glm::vec4(qi, 0.f);
  return glm::dot(ci, qi);
}

// CPU twin of cg_update.comp; returns r.s of the particle.
float cgUpdateParticle(uint32_t i, CpuState& s, CgVectors& w, float alpha) {
  w.dv[i] += alpha * w.c[i];
  glm::vec3 ri = xyz(w.r[i]) - alpha * xyz(w.q[i]);
  glm::vec3 si = s.blocks[i] * ri;
  w.r[i] = glm::vec4(ri, 0.f);
  w.q[i] = glm::vec4(si, 0.f);
  return glm::dot(ri, si);
}

// CPU twin of cg_finish.comp.
void cgFinishParticle(uint32_t i, CpuState& s, CgVectors& w, const gpu::StepParams& p) {
  glm::vec4 xi = s.positions[i];
  if (xi.w == 0.f) {
    s.positionsOut[i] = xi;
    s.velocitiesOut[i] = glm::vec4(0.f);
    return;
  }
  glm::vec3 v = xyz(s.velocities[i]) + xyz(w.dv[i]);
  glm::vec3 x = xyz(xi) + p.dt * v;
  for (const gpu::Collider& c : s.colliders) gpu::collide(x, v, c);
  s.positionsOut[i] = glm::vec4(x, xi.w);
  s.velocitiesOut[i] = glm::vec4(v, 0.f);
}


}  // namespace

SolveStats implicitCgStepCpu(CpuState& s, const gpu::StepParams& p, const CgSettings& settings, ThreadPool& pool) {
  const size_t n = s.positions.size();
  CgVectors w = cgVectors(s);
  // The same scalar logic as cg_scalars.comp, on the host.
  double delta0 = sumOver(pool, n, [&](uint32_t i) { return cgSetupParticle(i, s, w, p); });
  double deltaNew = delta0;
  int iterations = 0;
  const double target = double(settings.tolerance) * settings.tolerance * delta0;
  bool stop = !(delta0 > 0.0) || settings.maxIterations == 0;
  while (!stop) {
    double pAp = sumOver(pool, n, [&](uint32_t i) { return cgProductParticle(i, s, w, p); });
    if (!(pAp > 0.0)) break;
    float alpha = static_cast<float>(deltaNew / pAp);
    double deltaOld = deltaNew;
    deltaNew = sumOver(pool, n, [&](uint32_t i) { return cgUpdateParticle(i, s, w, alpha); });
    ++iterations;
    stop = deltaNew <= target || iterations >= settings.maxIterations;
    if (stop) break;
    float beta = static_cast<float>(deltaNew / deltaOld);
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i)
        w.c[i] = glm::vec4(gpu::applyFilter(w.constraint[i], xyz(w.q[i]) + beta * xyz(w.c[i])), 0.f);
    });
  }
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) cgFinishParticle(static_cast<uint32_t>(i), s, w, p);
  });
  s.swapPositions();
  s.swapVelocities();
  float residual = delta0 > 0 ? static_cast<float>(std::sqrt(std::max(deltaNew, 0.0) / delta0)) : 0.f;
  return {iterations, residual, residual <= settings.tolerance, p.dt};
}

namespace {

// Everything one CG pass needs to record itself.
struct CgPasses {
  GpuRecorder& r;
  gpu::SolveParams solve;
  std::array<engine::BufferBinding, 21> bindings;

  CgPasses(GpuRecorder& recorder, const gpu::StepParams& params, const CgSettings& settings, uint32_t substep)
      : r(recorder) {
    GpuState& s = r.state;
    s.ensureScratch(5);
    solve = {};
    solve.step = params;
    solve.tolerance = settings.tolerance;
    solve.maxIterations = static_cast<uint32_t>(settings.maxIterations);
    uint32_t groupsX, groupsY;
    r.programs.cgSetup.groupsFor(s.particleCount, groupsX, groupsY);
    solve.partialCount = groupsX * groupsY;
    solve.substep = substep;
    // Every CG pass binds the same set; each shader uses its part of it (reflection drops the rest).
    bindings = {{
        {WEFT_BIND_POSITIONS, &s.positionsIn()},
        {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
        {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
        {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()},
        {WEFT_BIND_SPRING_ROWS, &s.springRows},
        {WEFT_BIND_SPRINGS, &s.springs},
        {WEFT_BIND_ELEMENTS, &s.elements},
        {WEFT_BIND_ELEMENT_ROWS, &s.elementRows},
        {WEFT_BIND_ELEMENT_REFS, &s.elementRefs},
        {WEFT_BIND_COLLIDERS, &s.colliders},
        {WEFT_BIND_SOLVE_SCALARS, &s.solveScalars},
        {WEFT_BIND_PARTIALS, &s.partials},
        {WEFT_BIND_INDIRECT, &s.indirect},
        {WEFT_BIND_STEP_LOG, &s.stepLog},
        {WEFT_BIND_CG_DV, &s.scratch[0]},
        {WEFT_BIND_CG_R, &s.scratch[1]},
        {WEFT_BIND_CG_C, &s.scratch[2]},
        {WEFT_BIND_CG_Q, &s.scratch[3]},
        {WEFT_BIND_CG_PRECONDITIONER, &s.preconditioner},
        {WEFT_BIND_CG_FILTER, &s.scratch[4]},
        {WEFT_BIND_CG_BLOCKS, &s.springBlocks},
    }};
  }

  void scalars(uint32_t mode) {
    gpu::SolveParams p = solve;
    p.step.mode = mode;
    r.programs.cgScalars.dispatch(r.cmd, 1, bindings, p);
    engine::barrier::computeToIndirect(r.cmd);
  }
  void perParticle(const engine::ComputeProgram& program) {
    program.dispatchIndirect(r.cmd, r.state.indirect, 0, bindings, solve);
    engine::barrier::computeToCompute(r.cmd);
  }
};

}  // namespace

void recordImplicitCgBegin(GpuRecorder& r, const gpu::StepParams& params, const CgSettings& settings,
                           uint32_t substep) {
  CgPasses passes(r, params, settings, substep);
  engine::timed(r.timer, r.cmd, "cg_setup", [&] {
    r.programs.cgSetup.dispatch(r.cmd, r.state.particleCount, passes.bindings, passes.solve);
  });
  engine::barrier::computeToCompute(r.cmd);
  passes.scalars(WEFT_SOLVE_BEGIN);
}

void recordImplicitCgIterations(GpuRecorder& r, const gpu::StepParams& params, const CgSettings& settings,
                                uint32_t substep, int count) {
  CgPasses passes(r, params, settings, substep);
  engine::timed(r.timer, r.cmd, "cg_iterations", [&] {
    for (int k = 0; k < count; ++k) {
      passes.perParticle(r.programs.cgProduct);
      passes.scalars(WEFT_SOLVE_ALPHA);
      passes.perParticle(r.programs.cgUpdate);
      passes.scalars(WEFT_SOLVE_BETA);
      passes.perParticle(r.programs.cgDirection);
    }
  });
}

void recordImplicitCgFinish(GpuRecorder& r, const gpu::StepParams& params, const CgSettings& settings,
                            uint32_t substep) {
  CgPasses passes(r, params, settings, substep);
  engine::timed(r.timer, r.cmd, "cg_finish", [&] {
    r.programs.cgFinish.dispatch(r.cmd, r.state.particleCount, passes.bindings, passes.solve);
  });
  engine::barrier::computeToCompute(r.cmd);
  r.state.swapPositions();
  r.state.swapVelocities();
}

void recordImplicitCgStep(GpuRecorder& r, const gpu::StepParams& params, const CgSettings& settings,
                          uint32_t substep) {
  recordImplicitCgBegin(r, params, settings, substep);
  recordImplicitCgIterations(r, params, settings, substep, settings.maxIterations);
  recordImplicitCgFinish(r, params, settings, substep);
}

}  // namespace weft::integrators
