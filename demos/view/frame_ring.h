#pragma once
// The per-frame-slot objects of a frame loop with kFramesInFlight frames in flight: a command buffer,
// the fence that says the slot's last submission finished, and the semaphore its swapchain
// acquire signals. Owns them (and their command pool); not copyable.
#include <array>

#include <vulkan/vulkan_core.h>

namespace weft {

namespace engine {
class Context;
struct VulkanApi;
}

constexpr int kFramesInFlight = 2;

struct FrameSlot {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence done = VK_NULL_HANDLE;          // created signalled: the first wait returns at once
  VkSemaphore acquired = VK_NULL_HANDLE;  // the swapchain image may be drawn into
};

class FrameRing {
 public:
  explicit FrameRing(const engine::Context& context);
  ~FrameRing();
  FrameRing(const FrameRing&) = delete;
  FrameRing& operator=(const FrameRing&) = delete;

  FrameSlot& operator[](uint64_t frame) { return slots_[frame % kFramesInFlight]; }

 private:
  const engine::VulkanApi& vk_;
  VkDevice device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::array<FrameSlot, kFramesInFlight> slots_{};
};

}  // namespace weft
