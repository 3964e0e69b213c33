#include "solver/integrators/xpbd/xpbd.h"

#include <algorithm>

#include "engine/buffer.h"
#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/integrators/xpbd/xpbd_colouring.h"
#include "solver/integrators/xpbd/xpbd_finish_lanes.h"
#include "solver/integrators/xpbd/xpbd_spring_lanes.h"
#include "solver/integrators/xpbd/xpbd_tether_lanes.h"
#include "solver/integrators/xpbd/xpbd_tether.h"
#include "solver/cpu/thread_pool.h"
#include "solver/integrators/common/verlet_predict.h"

namespace weft::integrators {

using gpu::xyz;

namespace {

// The CPU's constraint set and multipliers, kept while the topology holds.
struct XpbdCpuResources : UnitResources {
  explicit XpbdCpuResources(const CpuState& s)
      : set(buildXpbdConstraints(s.springs, s.elements)),
        capacity(xpbdConstraintCapacity(s.springs.entries.size(), s.elements.elements.size())),
        lambdas(capacity, glm::vec4(0.f)) {}
  // The constraints and their multipliers at the tables' capacity, as memory() states them.
  uint64_t hostBytes() const override { return capacity * (sizeof(gpu::XpbdConstraint) + sizeof(glm::vec4)); }
  XpbdConstraintSet set;
  uint64_t capacity;
  std::vector<glm::vec4> lambdas;
};

// CPU twin of xpbd_project.comp: constraint k projected in place in positionsOut, its multipliers
// read unless `first` and kept only if another sweep follows (`keep`).
void projectConstraint(uint32_t k, CpuState& s, XpbdCpuResources& r, float h, bool first, bool keep) {
  const gpu::XpbdConstraint& c = r.set.constraints[k];
  glm::vec4 lambda = first ? glm::vec4(0.f) : r.lambdas[k];
  std::vector<glm::vec4>& x = s.positionsOut;
  const std::vector<glm::vec4>& start = s.prevPositions;
  if (c.node1 != WEFT_XPBD_ELEMENT) {
    const gpu::XpbdSpringMove m = gpu::xpbdSpring(x[c.node0], x[c.node1], xyz(start[c.node0]), xyz(start[c.node1]),
                                                  c.restLength, c.stiffness, c.damping, h, lambda.x);
    x[c.node0] += glm::vec4(m.dx0, 0.f);
    x[c.node1] += glm::vec4(m.dx1, 0.f);
    lambda.x += m.dlambda;
  } else if (const gpu::Element& e = s.elements.elements[c.node0]; projectsAsTether(e)) {
    projectTether(e, x.data(), start.data(), h, lambda);
  } else {
    const glm::uvec4 n = e.nodes;
    const gpu::XpbdElementMove m =
        gpu::xpbdElement(e, x[n.x], x[n.y], x[n.z], x[n.w], xyz(start[n.x]), xyz(start[n.y]), xyz(start[n.z]),
                         xyz(start[n.w]), h, lambda);
    for (int slot = 0; slot < 4; ++slot) {
      const uint32_t node = n[slot];
      if (x[node].w > 0.f) x[node] += glm::vec4(m.dx[slot], 0.f);
    }
    lambda += m.dlambda;
  }
  if (keep) r.lambdas[k] = lambda;
}

// CPU twin of xpbd_finish.comp before its collision (stepThenCollideBlocks collides); `predicted`
// holds x*.
void finishParticle(uint32_t i, CpuState& s, const std::vector<glm::vec4>& predicted, const gpu::StepParams& p) {
  const glm::vec4 xi = s.positionsOut[i];
  if (xi.w == 0.f) return;
  s.velocitiesOut[i] = glm::vec4(gpu::carryCorrection(xyz(s.velocitiesOut[i]), xyz(xi), xyz(predicted[i]), p.dt), 0.f);
}

void xpbdStepCpu(CpuState& s, const gpu::StepParams& params, const SolverParams& solver, ThreadPool& pool) {
  const size_t n = s.positions.size();
  XpbdCpuResources& r = s.unit<XpbdCpuResources>(Integrator::Xpbd);
  // x* stays in `positions` (the GPU's copy pass) while the sweeps move positionsOut in place: each
  // thread copies the part it predicted while it is still in its cache (a copy of the whole on the
  // calling thread took 12 % of the 128² cloth's step).
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    verletPredictRange(begin, end, s, params);
    std::copy(s.positionsOut.begin() + begin, s.positionsOut.begin() + end, s.positions.begin() + begin);
  });
  for (int iteration = 0; iteration < solver.iterations; ++iteration) {
    for (uint32_t colour = 0; colour < r.set.colours(); ++colour) {
      const uint32_t first = r.set.colourStarts[colour];
      const bool sweepFirst = iteration == 0, keep = iteration + 1 < solver.iterations;
      pool.parallelFor(r.set.colourStarts[colour + 1] - first, [&](size_t begin, size_t end) {
        // Springs and tethers four at a time where four come in a row, the rest (other elements, a
        // run's last few) one by one.
        for (size_t k = first + begin; k < first + end;) {
          k += projectSpringLanes(r.set.constraints.data() + k, first + end - k, s.positionsOut.data(),
                                  s.prevPositions.data(), params.dt, r.lambdas.data() + k, sweepFirst, keep);
          k += projectTetherLanes(r.set.constraints.data() + k, first + end - k, s.positionsOut.data(),
                                  s.prevPositions.data(), params.dt, r.lambdas.data() + k, sweepFirst, keep);
          if (k < first + end) projectConstraint(static_cast<uint32_t>(k++), s, r, params.dt, sweepFirst, keep);
        }
      });
    }
  }
  const XpbdFinishKernel lanes = xpbdFinishLanes();
  const XpbdFinishInput in{s.positionsOut.data(), s.positions.data(), s.velocitiesOut.data(), params.dt};
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    integrators::stepBlocksThenCollide(begin, end, s.positionsOut, s.velocitiesOut, s.colliders, s.colliderGrid,
                                       params.dt, [&](size_t b, size_t e) {
                                         size_t i = b;  // whole groups in lanes, the rest one by one
                                         if (lanes.run)
                                           for (; i + size_t(lanes.width) <= e; i += size_t(lanes.width))
                                             lanes.run(in, static_cast<uint32_t>(i));
                                         for (; i < e; ++i) finishParticle(static_cast<uint32_t>(i), s, s.positions, params);
                                       });
  });
  s.swapPositions();
  s.swapVelocities();
}

// The GPU's kernels, constraint set and multipliers.
struct XpbdGpuResources : UnitResources {
  explicit XpbdGpuResources(const GpuState& s)
      : predict(s.program(s.kernel("verlet_predict.comp"))),
        copy(*s.context, *s.shaders, "copy.comp"),
        project(s.program(s.kernel("xpbd_project.comp"))),
        projectSprings(s.program(std::string("xpbd_project.comp") + engine::kNoElementsVariant)),
        finish(s.program("xpbd_finish.comp")),
        set(buildXpbdConstraints(*s.hostSprings, *s.hostElements)) {
    for (uint32_t colour = 0; colour < set.colours(); ++colour)
      if (set.tethersEnd(colour) > set.springsEnd(colour)) hasTethers = true;
    if (hasTethers) projectTethers = s.program("xpbd_project_tethers.comp");
    // Sized to the tables' capacity (at least one entry: bindings may not be empty), as memory() states it.
    const uint64_t count = xpbdConstraintCapacity(s.hostSprings->entries.size(), s.hostElements->elements.size());
    constraints = engine::Buffer(*s.context, count * sizeof(gpu::XpbdConstraint), engine::kStorageUsage,
                                 engine::MemoryUsage::DeviceLocal, "weft.xpbdConstraints");
    if (!set.constraints.empty())
      engine::uploadBuffer(*s.context, constraints, set.constraints.data(),
                           set.constraints.size() * sizeof(gpu::XpbdConstraint));
    lambdas = engine::Buffer(*s.context, count * sizeof(glm::vec4), engine::kStorageUsage,
                             engine::MemoryUsage::DeviceLocal, "weft.xpbdLambdas");
  }
  // A colour's parts each through its own kernel (a device that runs every branch under a mask,
  // lavapipe, would otherwise pay for the element projection on every spring and the general
  // element's on every tether): projectSprings, the kernel built without the element code, for its
  // springs; projectTethers (xpbdTether) for its tethers, built only if some colour has any;
  // project for its other elements.
  engine::ComputeProgram predict, copy, project, projectSprings, finish, projectTethers;
  XpbdConstraintSet set;
  bool hasTethers = false;
  engine::Buffer constraints, lambdas;
};

void recordXpbdStep(GpuRecorder& r, const gpu::StepParams& params, const SolverParams& solver) {
  GpuState& s = r.state;
  const XpbdGpuResources& u = s.unit<XpbdGpuResources>(Integrator::Xpbd);
  engine::timed(r.timer, r.cmd, "xpbd_predict", [&] {
    recordVerletPredict(r, u.predict, params);
    // x* into the other buffer too: the sweeps move positionsOut, finish reads x* from positionsIn.
    u.copy.dispatch(r.cmd, s.particleCount, {{WEFT_BIND_POSITIONS, &s.positionsOut()}, {WEFT_BIND_POSITIONS_OUT, &s.positionsIn()}},
                    params);
    engine::barrier::computeToCompute(r.vk(), r.cmd);
  });
  for (int iteration = 0; iteration < solver.iterations; ++iteration) {
    engine::timed(r.timer, r.cmd, "xpbd_project", [&] {
      std::vector<engine::BufferBinding> bindings = s.withTables({{WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                                                  {WEFT_BIND_PREV_POSITIONS, &s.prevPositions},
                                                                  {WEFT_BIND_XPBD_CONSTRAINTS, &u.constraints},
                                                                  {WEFT_BIND_XPBD_LAMBDAS, &u.lambdas}});
      // A part's dispatch reaches its own constraints, and their multipliers where it reads them (after
      // the first iteration) or keeps them (before the last): what the pass's bytes count.
      engine::BufferBinding& constraintsBinding = bindings[2];
      engine::BufferBinding& lambdasBinding = bindings[3];
      for (uint32_t colour = 0; colour < u.set.colours(); ++colour) {
        gpu::XpbdParams p{};
        p.step = params;
        p.iteration = static_cast<uint32_t>(iteration);
        p.keepMultipliers = iteration + 1 < solver.iterations ? 1u : 0u;
        // The colour's springs, tethers and other elements: one colour moves no particle twice, so
        // the three dispatches need no barrier between them.
        const uint32_t starts[4] = {u.set.colourStarts[colour], u.set.springsEnd(colour), u.set.tethersEnd(colour),
                                    u.set.colourStarts[colour + 1]};
        const engine::ComputeProgram* kernels[3] = {&u.projectSprings, &u.projectTethers, &u.project};
        for (int part = 0; part < 3; ++part) {
          p.first = starts[part];
          p.count = starts[part + 1] - starts[part];
          constraintsBinding.reach = uint64_t(p.count) * sizeof(gpu::XpbdConstraint);
          lambdasBinding.reach = p.iteration > 0 || p.keepMultipliers != 0 ? uint64_t(p.count) * sizeof(glm::vec4) : 0u;
          if (p.count > 0) kernels[part]->dispatch(r.cmd, p.count, bindings, p);
        }
        engine::barrier::computeToCompute(r.vk(), r.cmd);
      }
    });
  }
  engine::timed(r.timer, r.cmd, "xpbd_finish", [&] {
    u.finish.dispatch(r.cmd, s.particleCount,
                      s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                    {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                    {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()}}),
                      params);
  });
  engine::barrier::computeToCompute(r.vk(), r.cmd);
  s.swapPositions();
  s.swapVelocities();
}

class XpbdUnit final : public IntegratorUnit {
 public:
  Integrator id() const override { return Integrator::Xpbd; }
  UnitMemory memory(const StateSize& size) const override {
    // Each spring once and each element once (an upper bound: the aerodynamic ones are left out),
    // a constraint and a multiplier vector each, on both backends (xpbd_colouring.h, the resources here).
    const uint64_t constraints = xpbdConstraintCapacity(size.springEntries, size.elements);
    UnitMemory m;
    m.gpuOwn.add(constraints * sizeof(gpu::XpbdConstraint));
    m.gpuOwn.add(constraints * sizeof(glm::vec4));
    m.cpu.add(constraints * sizeof(gpu::XpbdConstraint));
    m.cpu.add(constraints * sizeof(glm::vec4));
    return m;
  }
  std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams& params, const gpu::StepParams& step, float,
                                     int substeps, ThreadPool& pool) const override {
    for (int k = 0; k < substeps; ++k) xpbdStepCpu(state, step, params, pool);
    return {};
  }
  uint32_t timedPassesPerStep(const SolverParams& params) const override {
    return 2 + static_cast<uint32_t>(std::max(params.iterations, 0));
  }
  void prepareGpu(GpuState& state, const SolverParams&, int) const override { state.unit<XpbdGpuResources>(Integrator::Xpbd); }
  void recordStep(GpuRecorder& r, const SolverParams& params, const gpu::StepParams& step, uint32_t) const override {
    recordXpbdStep(r, step, params);
  }
};

}  // namespace

template <>
const IntegratorUnit& integratorUnitFor<Integrator::Xpbd>() {
  static const XpbdUnit unit;
  return unit;
}

}  // namespace weft::integrators
