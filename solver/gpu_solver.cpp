#include "solver/gpu_solver.h"

#include <algorithm>
#include <stdexcept>

#include "engine/commands.h"
#include "solver/integrators/euler.h"
#include "solver/integrators/implicit_cg.h"
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
  writeState(packPositions(model), packVelocities(model));
  onParamsChanged();
}

GpuSolver::~GpuSolver() = default;

void GpuState::ensureSolveBuffers(uint32_t steps, const engine::ComputeProgram& program) {
  if (!solveScalars) {
    solveScalars = storage(*context, sizeof(gpu::SolveScalars), "weft.solveScalars");
    uint32_t x, y;
    program.groupsFor(particleCount, x, y);
    partials = storage(*context, size_t(x) * y * sizeof(float), "weft.partials");
    indirect = engine::Buffer(*context, 6 * sizeof(uint32_t), engine::kStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                              engine::MemoryUsage::DeviceLocal, "weft.indirect");
    const uint32_t args[6] = {x, y, 1, x, y, 1};
    engine::uploadBuffer(*context, indirect, args, sizeof args);
    preconditioner = storage(*context, 3ull * particleCount * sizeof(glm::vec4), "weft.preconditioner");
  }
  if (steps > stepLogCapacity) {
    vkDeviceWaitIdle(context->device());
    stepLog = storage(*context, steps * sizeof(gpu::StepLog), "weft.stepLog");
    stepLogCapacity = steps;
  }
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

// Read once per frame from the step log; nonlinear-cg reads its log after every step instead.
bool GpuSolver::logsSolves() const { return params_.integrator == Integrator::ImplicitCg; }

void GpuSolver::recordAdvance(VkCommandBuffer cmd, float frameDt, int substeps, engine::GpuTimer* timer) {
  if (params_.integrator == Integrator::NonlinearCg)
    throw std::logic_error("nonlinear-cg decides on the host after every step whether to retry it, so it cannot "
                           "record a frame into one command buffer: use advance()");
  if (logsSolves()) state_.ensureSolveBuffers(static_cast<uint32_t>(substeps), programs_.cgSetup);
  const float dt = frameDt / static_cast<float>(substeps);
  gpu::StepParams step = makeStepParams(params_, dt, state_.particleCount, state_.colliderCount);
  GpuRecorder recorder{cmd, state_, programs_, timer};
  const integrators::CgSettings cg{params_.tolerance, params_.maxIterations};
  for (int s = 0; s < substeps; ++s) {
    switch (params_.integrator) {
      case Integrator::ImplicitCg: integrators::recordImplicitCgStep(recorder, step, cg, static_cast<uint32_t>(s)); break;
      case Integrator::ExplicitEuler:
      case Integrator::SymplecticEuler: integrators::recordEulerStep(recorder, step); break;
      case Integrator::Verlet: integrators::recordVerletStep(recorder, step, params_.iterations); break;
      case Integrator::Rk4: integrators::recordRk4Step(recorder, step); break;
      case Integrator::NonlinearCg: break;  // refused above
    }
  }
}

void GpuSolver::advance(float frameDt, int substeps) {
  if (params_.integrator == Integrator::NonlinearCg) {
    advanceNonlinearCg(frameDt, substeps);
    return;
  }
  // Enough timestamp pairs for every pass of the frame: max(iterations + 1, 4 RK4 stages) per substep.
  uint32_t passes = static_cast<uint32_t>(substeps) * static_cast<uint32_t>(std::max(params_.iterations + 1, 4));
  if (passes > timerCapacity_) {
    timer_ = engine::GpuTimer(context_, passes);
    timerCapacity_ = passes;
  }
  engine::submitAndWait(context_, [&](VkCommandBuffer cmd) {
    timer_.reset(cmd);
    recordAdvance(cmd, frameDt, substeps, &timer_);
  });
  passTimes_ = timer_.read();
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
                                        state_.colliderCount);
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
