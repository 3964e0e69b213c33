#include "demos/view/frame_recorder.h"

#include <cstring>

#include "engine/commands.h"
#include "engine/context.h"

namespace weft {

FrameRecorder::FrameRecorder(const engine::Context& context, const std::string& path, uint32_t particleCount,
                             const std::vector<glm::uvec3>& triangles, float frameDt, uint32_t substeps)
    : context_(context), path_(path), particleCount_(particleCount),
      writer_(path, particleCount, triangles, frameDt, substeps), scratch_(particleCount) {}

void FrameRecorder::recordCopy(VkCommandBuffer cmd, uint64_t frame, const engine::Buffer& positions) {
  const size_t slot = frame % kFramesInFlight;
  const VkDeviceSize bytes = VkDeviceSize(particleCount_) * sizeof(glm::vec4);
  if (!readbacks_[slot])
    readbacks_[slot] = engine::Buffer(context_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                      engine::MemoryUsage::Readback, "view.recordReadback");
  engine::barrier::allToTransfer(context_.vk(), cmd);
  VkBufferCopy region{0, 0, bytes};
  context_.vk().CmdCopyBuffer(cmd, positions.handle(), readbacks_[slot].handle(), 1, &region);
  engine::barrier::transferToHost(context_.vk(), cmd);
  pending_[slot] = true;
}

void FrameRecorder::collect(uint64_t frame) {
  const size_t slot = frame % kFramesInFlight;
  if (!pending_[slot]) return;
  pending_[slot] = false;
  std::memcpy(scratch_.data(), readbacks_[slot].mapped(), scratch_.size() * sizeof(glm::vec4));
  writer_.addFrame(scratch_);
}

void FrameRecorder::add(const std::vector<glm::vec4>& positions) { writer_.addFrame(positions); }

void FrameRecorder::finish(uint64_t nextFrame) {
  // In submission order: nextFrame's slot last held the oldest frame still in flight.
  for (uint64_t k = 0; k < kFramesInFlight; ++k) collect(nextFrame + k);
  writer_.finish();
}

uint32_t FrameRecorder::frameCount() const { return writer_.frameCount(); }

}  // namespace weft
