#pragma once
// The CPU backend: multi-threaded loops over the same layout and the same physics functions as the
// GPU kernels. A backend in its own right (on a 2-core machine it outruns lavapipe), and the
// readable reference for every GPU pass sequence.
#include <memory>

#include "solver/backend/backend_state.h"
#include "solver/backend/solver.h"
#include "solver/cpu/thread_pool.h"

namespace weft {

class CpuSolver : public Solver {
 public:
  CpuSolver(const ClothModel& model, const SolverParams& params, unsigned threads = 0);
  void advance(float frameDt, int substeps) override;
  void readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const override;
  void writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) override;
  PassTimes lastPassTimes() const override { return passTimes_; }
  ContactStats lastContactStats() const override;
  std::vector<uint32_t> lastContactMarks() const override;
  Backend backend() const override { return Backend::Cpu; }
  std::string deviceName() const override;
  void setHandle(uint32_t index, glm::vec3 target) override;
  void clearHandle() override;
  // Bytes the state's vectors hold (their sizes): what the memory check's estimate stands for.
  uint64_t stateBytes() const;

 protected:
  void onParamsChanged() override;
  void checkParams(const SolverParams& params) const override;
  std::vector<uint32_t> detectTears() override;
  void reloadTopology(const ClothModel& model, const std::vector<glm::vec4>& positions,
                      const std::vector<glm::vec4>& velocities) override;

 private:
  void advanceSteps(float frameDt, int substeps);
  ThreadPool pool_;
  CpuState state_;
  PassTimes passTimes_;
};

}  // namespace weft
