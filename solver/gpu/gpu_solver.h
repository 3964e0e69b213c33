#pragma once
// The GPU backend: state in device-local storage buffers, each integrator a sequence of compute
// passes. advance() records a whole frame into one command buffer; recordAdvance() records into a
// command buffer the caller owns (embedding in a host application's frame).
#include <functional>

#include "engine/context.h"
#include "engine/shader_library.h"
#include "solver/backend/backend_state.h"
#include "solver/backend/solver.h"

namespace weft {

class GpuSolver : public Solver {
 public:
  GpuSolver(const ClothModel& model, const SolverParams& params, engine::Context& context,
            const engine::ShaderLibrary& shaders);
  ~GpuSolver() override;

  void advance(float frameDt, int substeps) override;
  void readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const override;
  void writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) override;
  PassTimes lastPassTimes() const override { return passTimes_; }
  ContactStats lastContactStats() const override;
  std::vector<uint32_t> lastContactMarks() const override;
  Backend backend() const override { return Backend::Gpu; }
  std::string deviceName() const override { return context_.deviceName(); }

  // Records `substeps` steps into `cmd`, ending with a compute-to-compute barrier. The caller
  // submits; afterwards positionBuffer() holds the new positions (barrier::computeToGraphics
  // before drawing from it). Not for nonlinear-cg (std::logic_error), which needs the host
  // between steps to retry diverged ones.
  void recordAdvance(VkCommandBuffer cmd, float frameDt, int substeps, engine::GpuTimer* timer = nullptr);
  // Builds what recordAdvance needs for frames of up to `substeps` steps (the integrator's
  // pipelines and scratch buffers, its solve log, the strain limit's and tear detection's tables),
  // submitting and waiting as that takes. recordAdvance then records only. It prepares on its own
  // what was not prepared, which a host recording into a frame of its own must not let happen.
  void prepare(int substeps);
  void setHandle(uint32_t index, glm::vec3 target) override;
  void clearHandle() override;
  // Records the pending handle changes (outside a render pass) with their barriers; recordAdvance
  // calls it first. A viewer that draws a paused solver calls it to show a drag at once.
  void recordHandle(VkCommandBuffer cmd);

  const engine::Buffer& positionBuffer() const { return state_.positionsIn(); }
  const engine::Buffer& velocityBuffer() const { return state_.velocitiesIn(); }
  // uint[N] WEFT_CONTACT_MARK_* bits of the frames recorded since the last frame start, for drawing in
  // place (barrier::computeToGraphics first); null when the scene has no contact.
  const engine::Buffer* contactMarkBuffer() const;

 protected:
  void onParamsChanged() override;
  void checkParams(const SolverParams& params) const override;
  std::vector<uint32_t> detectTears() override;
  void reloadTopology(const ClothModel& model, const std::vector<glm::vec4>& positions,
                      const std::vector<glm::vec4>& velocities) override;

 private:
  // The state's buffers and the cloth's tables for `model` (the constructor, and after a tear).
  void loadTables(const ClothModel& model);
  void submitTimed(const std::function<void(VkCommandBuffer)>& record);  // adds to passTimes_
  gpu::StepParams stepParams(float frameDt, int substeps) const;
  engine::Context& context_;
  GpuState state_;
  engine::GpuTimer timer_;
  uint32_t timerCapacity_ = 0;
  PassTimes passTimes_;
  glm::vec3 handleTarget_{0.f};
  bool handleMoved_ = false;  // the held particle's target changed since the last recordHandle
  // recordAdvance is recording a frame advance() submits at once (not a host's command buffer), so
  // the collider grid's buffer may be made anew (reserveColliderGrid).
  bool recordingOwnFrame_ = false;
  std::vector<std::pair<uint32_t, float>> releases_;  // particles to give their inverse mass back
};

}  // namespace weft
