#include "solver/passes/tear_detection.h"

#include <algorithm>

#include "engine/commands.h"
#include "shaders/physics.h"

namespace weft {

std::vector<uint32_t> detectTearsCpu(const SpringTable& table, const std::vector<glm::vec4>& positions) {
  std::vector<uint32_t> torn;
  if (table.tearLimits.empty()) return torn;
  for (uint32_t i = 0; i + 1 < table.rows.size(); ++i)  // tear_detect.comp's loop, each spring at its lower end
    for (uint32_t e = table.rows[i]; e < table.rows[i + 1]; ++e) {
      const uint32_t j = table.links[e].other;
      if (j > i && gpu::springTears(glm::length(gpu::xyz(positions[i]) - gpu::xyz(positions[j])), table.tearLimits[e]))
        torn.push_back(table.tearLimits[e].spring);
    }
  std::sort(torn.begin(), torn.end());
  return torn;
}

void prepareTearDetectionGpu(GpuState& state) {
  if (!state.tearDetectProgram)
    state.tearDetectProgram = std::make_unique<engine::ComputeProgram>(*state.context, *state.shaders, "tear_detect.comp");
}

void recordTearDetection(GpuRecorder& r, const gpu::StepParams& step) {
  GpuState& s = r.state;
  engine::timed(r.timer, r.cmd, "tear_detect", [&] {
    engine::barrier::allToUpload(r.vk(), r.cmd);  // the last detection's readback, and the frame's passes
    r.vk().CmdFillBuffer(r.cmd, s.tearList.handle(), 0, sizeof(uint32_t), 0u);
    engine::barrier::transferToAll(r.vk(), r.cmd);
    s.tearDetectProgram->dispatch(r.cmd, s.particleCount,
                                  s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                                {WEFT_BIND_TEAR_LIMITS, &s.tearLimits},
                                                {WEFT_BIND_TEAR_LIST, &s.tearList}}),
                                  step);
    engine::barrier::computeToCompute(r.vk(), r.cmd);
  });
}

std::vector<uint32_t> readTearList(const GpuState& state) {
  uint32_t count = 0;
  engine::downloadBuffer(*state.context, state.tearList, &count, sizeof count);
  std::vector<uint32_t> torn(count);
  if (count > 0) engine::downloadBuffer(*state.context, state.tearList, torn.data(), count * sizeof(uint32_t), sizeof count);
  std::sort(torn.begin(), torn.end());
  return torn;
}

}  // namespace weft
