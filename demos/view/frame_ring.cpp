#include "demos/view/frame_ring.h"

#include <string>

#include "engine/context.h"
#include "engine/vk_check.h"

namespace weft {

FrameRing::FrameRing(const engine::Context& context) : vk_(context.vk()), device_(context.device()) {
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;  // each slot re-records its buffer
  pool.queueFamilyIndex = context.queueFamily();
  VK_CHECK(vk_.CreateCommandPool(device_, &pool, nullptr, &pool_));
  for (size_t i = 0; i < slots_.size(); ++i) {
    FrameSlot& slot = slots_[i];
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VK_CHECK(vk_.AllocateCommandBuffers(device_, &alloc, &slot.cmd));
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    VK_CHECK(vk_.CreateFence(device_, &fence, nullptr, &slot.done));
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VK_CHECK(vk_.CreateSemaphore(device_, &semaphore, nullptr, &slot.acquired));
    std::string name = "view.frame" + std::to_string(i);
    context.setName(VK_OBJECT_TYPE_COMMAND_BUFFER, reinterpret_cast<uint64_t>(slot.cmd), name + ".cmd");
    context.setName(VK_OBJECT_TYPE_FENCE, reinterpret_cast<uint64_t>(slot.done), name + ".done");
    context.setName(VK_OBJECT_TYPE_SEMAPHORE, reinterpret_cast<uint64_t>(slot.acquired), name + ".acquired");
  }
}

FrameRing::~FrameRing() {
  vk_.DeviceWaitIdle(device_);
  for (FrameSlot& slot : slots_) {
    if (slot.acquired) vk_.DestroySemaphore(device_, slot.acquired, nullptr);
    if (slot.done) vk_.DestroyFence(device_, slot.done, nullptr);
  }
  if (pool_) vk_.DestroyCommandPool(device_, pool_, nullptr);
}

}  // namespace weft
