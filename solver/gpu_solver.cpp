#include "solver/gpu_solver.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/commands.h"
#include "solver/integrators/euler.h"
#include "solver/integrators/implicit_cg.h"
#include "solver/integrators/newton_chebyshev.h"
#include "solver/integrators/nonlinear_cg.h"
#include "solver/integrators/rk4.h"
#include "solver/integrators/verlet.h"

namespace weft {
namespace {
engine::Buffer storage(const engine::Context& context, size_t bytes, const std::string& name) {
  return engine::Buffer(context, bytes, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, name);
}
template <class T>
void upload(const engine::Context& context, const engine::Buffer& buffer, const std::vector<T>& data) {
  engine::uploadBuffer(context, buffer, data.data(), data.size() * sizeof(T));
}
}  // namespace

GpuSolver::GpuSolver(const ClothModel& model, const SolverParams& params, engine::Context& context,
                     const engine::ShaderLibrary& shaders)
    : context_(context) {
  params_ = params;
  particleCount_ = model.particleCount();
  programs_.eulerStep = engine::ComputeProgram(context, shaders, "euler_step.comp");
  programs_.verletPredict = engine::ComputeProgram(context, shaders, "verlet_predict.comp");
  programs_.verletRelax = engine::ComputeProgram(context, shaders, "verlet_relax.comp");
  programs_.rk4Stage = engine::ComputeProgram(context, shaders, "rk4_stage.comp");
  programs_.cgSetup = engine::ComputeProgram(context, shaders, "cg_setup.comp");
  programs_.cgScalars = engine::ComputeProgram(context, shaders, "cg_scalars.comp");
  programs_.cgProduct = engine::ComputeProgram(context, shaders, "cg_product.comp");
  programs_.cgUpdate = engine::ComputeProgram(context, shaders, "cg_update.comp");
  programs_.cgDirection = engine::ComputeProgram(context, shaders, "cg_direction.comp");
  programs_.cgFinish = engine::ComputeProgram(context, shaders, "cg_finish.comp");
  programs_.newtonPredict = engine::ComputeProgram(context, shaders, "newton_predict.comp");
  programs_.newtonGradient = engine::ComputeProgram(context, shaders, "newton_gradient.comp");
  programs_.newtonScalars = engine::ComputeProgram(context, shaders, "newton_scalars.comp");
  programs_.newtonSweep = engine::ComputeProgram(context, shaders, "newton_sweep.comp");
  programs_.newtonUpdate = engine::ComputeProgram(context, shaders, "newton_update.comp");
  programs_.newtonFinish = engine::ComputeProgram(context, shaders, "newton_finish.comp");
  programs_.nlcgStart = engine::ComputeProgram(context, shaders, "nlcg_start.comp");
  programs_.nlcgScalars = engine::ComputeProgram(context, shaders, "nlcg_scalars.comp");
  programs_.nlcgResidual = engine::ComputeProgram(context, shaders, "nlcg_residual.comp");
  programs_.nlcgDirection = engine::ComputeProgram(context, shaders, "nlcg_direction.comp");
  programs_.nlcgAdd = engine::ComputeProgram(context, shaders, "nlcg_add.comp");
  programs_.nlcgFinish = engine::ComputeProgram(context, shaders, "nlcg_finish.comp");
  state_.context = &context;

  const size_t n = model.particleCount();
  const size_t vec4Bytes = n * sizeof(glm::vec4);
  SpringTable table = buildSpringTable(model);
  for (int k = 0; k < 2; ++k) {
    state_.positions[k] = storage(context, vec4Bytes, "weft.positions" + std::to_string(k));
    state_.velocities[k] = storage(context, vec4Bytes, "weft.velocities" + std::to_string(k));
  }
  state_.prevPositions = storage(context, vec4Bytes, "weft.prevPositions");
  state_.springRows = storage(context, table.rows.size() * sizeof(uint32_t), "weft.springRows");
  state_.springs = storage(context, table.entries.size() * sizeof(gpu::SpringEntry), "weft.springs");
  state_.particleCount = static_cast<uint32_t>(n);
  upload(context, state_.springRows, table.rows);
  upload(context, state_.springs, table.entries);
  state_.springLinks = storage(context, table.links.size() * sizeof(gpu::SpringLink), "weft.springLinks");
  upload(context, state_.springLinks, table.links);
  const ElementTable elements = buildElementTable(model);
  state_.elements = storage(context, elements.elements.size() * sizeof(gpu::Element), "weft.elements");
  state_.elementRows = storage(context, elements.rows.size() * sizeof(uint32_t), "weft.elementRows");
  state_.elementRefs = storage(context, elements.refs.size() * sizeof(uint32_t), "weft.elementRefs");
  upload(context, state_.elements, elements.elements);
  upload(context, state_.elementRows, elements.rows);
  upload(context, state_.elementRefs, elements.refs);
  state_.elementRefCount = elements.rows.back();
  writeState(packPositions(model), packVelocities(model));
  onParamsChanged();
}

GpuSolver::~GpuSolver() = default;

void GpuState::ensureSolveBuffers(uint32_t steps, const engine::ComputeProgram& program) {
  if (!solveScalars) {
    // Host-visible: GpuSolver::advance reads the converged flag between chunks of iterations.
    solveScalars = engine::Buffer(*context, sizeof(gpu::SolveScalars), engine::kStorageUsage,
                                  engine::MemoryUsage::Readback, "weft.solveScalars");
    uint32_t x, y;
    program.groupsFor(particleCount, x, y);
    partials = storage(*context, size_t(x) * y * sizeof(float), "weft.partials");
    indirect = engine::Buffer(*context, 6 * sizeof(uint32_t), engine::kStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                              engine::MemoryUsage::DeviceLocal, "weft.indirect");
    const uint32_t args[6] = {x, y, 1, x, y, 1};
    engine::uploadBuffer(*context, indirect, args, sizeof args);
    preconditioner = storage(*context, 3ull * particleCount * sizeof(glm::vec4), "weft.preconditioner");
    springBlocks = storage(*context, springs.size(), "weft.springBlocks");  // one vec4 per SpringEntry
  }
  if (steps > stepLogCapacity) {
    vkDeviceWaitIdle(context->device());
    stepLog = storage(*context, steps * sizeof(gpu::StepLog), "weft.stepLog");
    stepLogCapacity = steps;
  }
}

void GpuState::ensureNewtonBuffers() {
  if (newtonScalars) return;
  newtonScalars = storage(*context, sizeof(gpu::NewtonScalars), "weft.newtonScalars");
  newtonDiagonal = storage(*context, 2ull * particleCount * sizeof(glm::vec4), "weft.newtonDiagonal");
  const size_t entries = springs.size() / sizeof(gpu::SpringEntry);
  newtonCouplings = storage(*context, entries * sizeof(glm::vec4), "weft.newtonCouplings");
}

void GpuState::ensureNlcgBuffers(const engine::ComputeProgram& program) {
  if (nlcgScalars) return;
  nlcgScalars = storage(*context, sizeof(gpu::NonlinearCgScalars), "weft.nlcgScalars");
  uint32_t x, y;
  program.groupsFor(particleCount, x, y);
  nlcgPartials = storage(*context, size_t(WEFT_NLCG_PARTIAL_SLOTS) * x * y * sizeof(float), "weft.nlcgPartials");
  nlcgIndirect = engine::Buffer(*context, 12 * sizeof(uint32_t),
                                engine::kStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                engine::MemoryUsage::DeviceLocal, "weft.nlcgIndirect");
  const uint32_t args[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, x, y, 1};  // WEFT_NLCG_GROUPS_FULL last
  engine::uploadBuffer(*context, nlcgIndirect, args, sizeof args);
  nlcgReadback = engine::Buffer(*context, sizeof(gpu::StepLog), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                engine::MemoryUsage::Readback, "weft.nlcgReadback");
}

void GpuState::ensureScratch(size_t count) {
  while (scratch.size() < count)
    scratch.push_back(storage(*context, particleCount * sizeof(glm::vec4), "weft.scratch" + std::to_string(scratch.size())));
}

void GpuSolver::onParamsChanged() {
  std::vector<gpu::Collider> colliders = packColliders(params_.colliders);
  size_t bytes = std::max<size_t>(1, colliders.size()) * sizeof(gpu::Collider);
  if (!state_.colliders || state_.colliders.size() < bytes) {
    vkDeviceWaitIdle(context_.device());  // the old buffer may still be read by a frame in flight
    state_.colliders = storage(context_, bytes, "weft.colliders");
  }
  upload(context_, state_.colliders, colliders);
  state_.colliderCount = static_cast<uint32_t>(colliders.size());
}

bool GpuSolver::logsSolves() const {
  return params_.integrator == Integrator::ImplicitCg || params_.integrator == Integrator::NewtonChebyshev;
}

// nonlinear-cg reads its log after every step instead (GpuSolver::advanceNonlinearCg).

void GpuSolver::setHandle(uint32_t index, glm::vec3 target) {
  if (index >= particleCount_) throw std::out_of_range("setHandle: no particle " + std::to_string(index));
  if (handle_ && *handle_ != index) clearHandle();
  if (!handle_) {
    // One 16-byte readback per grab, never per frame: the inverse mass to restore on release.
    glm::vec4 p;
    engine::downloadBuffer(context_, state_.positionsIn(), &p, sizeof p, size_t(index) * sizeof p);
    handleInvMass_ = p.w;
    handle_ = index;
  }
  handleTarget_ = target;
  handleMoved_ = true;
}

void GpuSolver::clearHandle() {
  if (!handle_) return;
  releases_.emplace_back(*handle_, handleInvMass_);
  handle_.reset();
  handleMoved_ = false;
}

void GpuSolver::recordHandle(VkCommandBuffer cmd) {
  if (!handleMoved_ && releases_.empty()) return;
  engine::barrier::allToUpload(cmd);  // earlier passes and draws read and wrote these particles
  for (auto [index, invMass] : releases_)  // only w: the particle stays where the drag left it
    vkCmdUpdateBuffer(cmd, state_.positionsIn().handle(), VkDeviceSize(index) * sizeof(glm::vec4) + 12,
                      sizeof(float), &invMass);
  releases_.clear();
  if (handle_ && handleMoved_) {
    const glm::vec4 position(handleTarget_, 0.f), velocity(0.f);
    const VkDeviceSize offset = VkDeviceSize(*handle_) * sizeof(glm::vec4);
    vkCmdUpdateBuffer(cmd, state_.positionsIn().handle(), offset, sizeof position, &position);
    vkCmdUpdateBuffer(cmd, state_.velocitiesIn().handle(), offset, sizeof velocity, &velocity);
  }
  handleMoved_ = false;
  engine::barrier::transferToAll(cmd);
}

void GpuSolver::recordAdvance(VkCommandBuffer cmd, float frameDt, int substeps, engine::GpuTimer* timer) {
  if (params_.integrator == Integrator::NonlinearCg)
    throw std::logic_error("nonlinear-cg decides on the host after every step whether to retry it, so it cannot "
                           "record a frame into one command buffer: use advance()");
  recordHandle(cmd);
  if (logsSolves()) state_.ensureSolveBuffers(static_cast<uint32_t>(substeps), programs_.cgSetup);
  const float dt = frameDt / static_cast<float>(substeps);
  gpu::StepParams step = makeStepParams(params_, dt, state_.particleCount, state_.colliderCount, state_.elementRefCount);
  GpuRecorder recorder{cmd, state_, programs_, timer};
  const integrators::CgSettings cg{params_.tolerance, params_.maxIterations};
  const integrators::NewtonSettings newton = integrators::newtonSettings(params_);
  for (int s = 0; s < substeps; ++s) {
    switch (params_.integrator) {
      case Integrator::ImplicitCg: integrators::recordImplicitCgStep(recorder, step, cg, static_cast<uint32_t>(s)); break;
      case Integrator::NewtonChebyshev:
        integrators::recordNewtonChebyshevStep(recorder, step, newton, static_cast<uint32_t>(s));
        break;
      case Integrator::ExplicitEuler:
      case Integrator::SymplecticEuler: integrators::recordEulerStep(recorder, step); break;
      case Integrator::Verlet: integrators::recordVerletStep(recorder, step, params_.iterations, params_.relaxationRho); break;
      case Integrator::Rk4: integrators::recordRk4Step(recorder, step); break;
      case Integrator::NonlinearCg: break;  // refused above
    }
  }
}

void GpuSolver::submitTimed(const std::function<void(VkCommandBuffer)>& record) {
  engine::submitAndWait(context_, [&](VkCommandBuffer cmd) {
    timer_.reset(cmd);
    record(cmd);
  });
  for (const auto& [name, ms] : timer_.read()) {
    auto it = std::find_if(passTimes_.begin(), passTimes_.end(), [&](auto& p) { return p.first == name; });
    if (it == passTimes_.end()) passTimes_.emplace_back(name, ms);
    else it->second += ms;
  }
}

// Implicit CG, submitted in chunks of kCgIterationsPerCheck iterations: after each chunk the host
// reads the solve's 32-byte scalar state and stops at the first chunk after convergence. That is
// one small readback per chunk, never one per iteration; the scalars themselves never leave the GPU
// for the iteration's arithmetic.
void GpuSolver::advanceImplicitCg(float frameDt, int substeps) {
  state_.ensureSolveBuffers(static_cast<uint32_t>(substeps), programs_.cgSetup);
  const float dt = frameDt / static_cast<float>(substeps);
  gpu::StepParams step = makeStepParams(params_, dt, state_.particleCount, state_.colliderCount, state_.elementRefCount);
  const integrators::CgSettings cg{params_.tolerance, params_.maxIterations};
  const auto* scalars = static_cast<const gpu::SolveScalars*>(state_.solveScalars.mapped());
  for (int s = 0; s < substeps; ++s) {
    const uint32_t substep = static_cast<uint32_t>(s);
    int recorded = 0;
    bool begun = false;
    while (!begun || (recorded < cg.maxIterations && scalars->converged == 0)) {
      int chunk = std::min(kCgIterationsPerCheck, cg.maxIterations - recorded);
      submitTimed([&](VkCommandBuffer cmd) {
        GpuRecorder recorder{cmd, state_, programs_, &timer_};
        if (!begun) integrators::recordImplicitCgBegin(recorder, step, cg, substep);
        integrators::recordImplicitCgIterations(recorder, step, cg, substep, chunk);
        engine::barrier::computeToHost(cmd);
      });
      begun = true;
      recorded += chunk;
    }
    submitTimed([&](VkCommandBuffer cmd) {
      GpuRecorder recorder{cmd, state_, programs_, &timer_};
      integrators::recordImplicitCgFinish(recorder, step, cg, substep);
    });
  }
}

void GpuSolver::advance(float frameDt, int substeps) {
  if (params_.integrator == Integrator::NonlinearCg) {
    engine::submitAndWait(context_, [&](VkCommandBuffer cmd) { recordHandle(cmd); });
    advanceNonlinearCg(frameDt, substeps);
    return;
  }
  // Enough timestamp pairs for every timed pass of the frame, per substep: Verlet's iterations + 1,
  // RK4's 4 stages, Newton-Chebyshev's predict and finish around 3 per Newton iteration.
  const int perStep = std::max({params_.iterations + 1, 4, 2 + 3 * params_.newtonIterations});
  uint32_t passes = static_cast<uint32_t>(substeps) * static_cast<uint32_t>(perStep);
  if (passes > timerCapacity_) {
    timer_ = engine::GpuTimer(context_, passes);
    timerCapacity_ = passes;
  }
  passTimes_.clear();
  if (params_.integrator == Integrator::ImplicitCg) {
    engine::submitAndWait(context_, [&](VkCommandBuffer cmd) { recordHandle(cmd); });
    advanceImplicitCg(frameDt, substeps);
  } else {
    submitTimed([&](VkCommandBuffer cmd) { recordAdvance(cmd, frameDt, substeps, &timer_); });
  }
  solveStats_.clear();
  if (logsSolves()) {
    std::vector<gpu::StepLog> log(static_cast<size_t>(substeps));
    engine::downloadBuffer(context_, state_.stepLog, log.data(), log.size() * sizeof(gpu::StepLog));
    for (const gpu::StepLog& entry : log)
      solveStats_.push_back({static_cast<int>(entry.iterations), entry.residual, entry.converged != 0, entry.dt});
  }
}

// A submission per step (the host decides on retries), each timed on its own; the times add up.
void GpuSolver::advanceNonlinearCg(float frameDt, int substeps) {
  constexpr uint32_t kTimedRegionsPerSubmission = 3;  // start, iterations, finish
  if (kTimedRegionsPerSubmission > timerCapacity_) {
    timer_ = engine::GpuTimer(context_, kTimedRegionsPerSubmission);
    timerCapacity_ = kTimedRegionsPerSubmission;
  }
  gpu::StepParams step = makeStepParams(params_, frameDt / static_cast<float>(substeps), state_.particleCount,
                                        state_.colliderCount, state_.elementRefCount);
  const integrators::NlcgSettings settings{params_.tolerance, params_.maxIterations, params_.velocityScale};
  solveStats_ = integrators::nonlinearCgAdvanceGpu(state_, programs_, step, settings, frameDt, substeps, &timer_,
                                                   passTimes_);
}

void GpuSolver::readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const {
  positions.resize(particleCount_);
  velocities.resize(particleCount_);
  engine::downloadBuffer(context_, state_.positionsIn(), positions.data(), particleCount_ * sizeof(glm::vec4));
  engine::downloadBuffer(context_, state_.velocitiesIn(), velocities.data(), particleCount_ * sizeof(glm::vec4));
}

void GpuSolver::writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) {
  upload(context_, state_.positionsIn(), positions);
  upload(context_, state_.velocitiesIn(), velocities);
}

}  // namespace weft
