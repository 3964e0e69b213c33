#include "solver/gpu_solver.h"

#include <algorithm>

#include "engine/commands.h"
#include "solver/integrators/euler.h"
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

void GpuSolver::recordAdvance(VkCommandBuffer cmd, float frameDt, int substeps, engine::GpuTimer* timer) {
  const float dt = frameDt / static_cast<float>(substeps);
  gpu::StepParams step = makeStepParams(params_, dt, state_.particleCount, state_.colliderCount);
  GpuRecorder recorder{cmd, state_, programs_, timer};
  for (int s = 0; s < substeps; ++s) {
    switch (params_.integrator) {
      case Integrator::ExplicitEuler:
      case Integrator::SymplecticEuler: integrators::recordEulerStep(recorder, step); break;
      case Integrator::Verlet: integrators::recordVerletStep(recorder, step, params_.iterations); break;
      case Integrator::Rk4: integrators::recordRk4Step(recorder, step); break;
    }
  }
}

void GpuSolver::advance(float frameDt, int substeps) {
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
