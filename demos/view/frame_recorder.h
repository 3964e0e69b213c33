#pragma once
// The viewer's record button: every simulated frame's positions appended to a recording
// (solver/io/recording.h) without stalling the frame loop. On the GPU the frame's command buffer copies
// the positions into its slot's readback buffer, and the copy is appended when that slot comes round
// again (its fence already waited on), two frames later; the CPU backend appends its host copy at once.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <vulkan/vulkan_core.h>

#include "demos/view/frame_ring.h"
#include "engine/buffer.h"
#include "solver/io/recording.h"

namespace weft {

namespace engine {
class Context;
}

class FrameRecorder {
 public:
  FrameRecorder(const engine::Context& context, const std::string& path, uint32_t particleCount,
                const std::vector<glm::uvec3>& triangles, float frameDt, uint32_t substeps);

  // Records a copy of `positions` for frame `frame` (the device wrote it earlier in `cmd`).
  void recordCopy(VkCommandBuffer cmd, uint64_t frame, const engine::Buffer& positions);
  // The slot of `frame` finished: appends what its copy holds, if it made one.
  void collect(uint64_t frame);
  // Host positions (CPU backend): appended now.
  void add(const std::vector<glm::vec4>& positions);
  // Appends the copies still pending (the device must be idle), oldest first, and puts the file in
  // place. `nextFrame`: the frame the loop would draw next.
  void finish(uint64_t nextFrame);

  uint32_t frameCount() const;
  const std::string& path() const { return path_; }

 private:
  const engine::Context& context_;
  std::string path_;
  uint32_t particleCount_;
  RecordingWriter writer_;
  std::array<engine::Buffer, kFramesInFlight> readbacks_;
  std::array<bool, kFramesInFlight> pending_{};
  std::vector<glm::vec4> scratch_;
};

}  // namespace weft
