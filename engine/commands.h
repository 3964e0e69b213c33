#pragma once
// Command recording helpers: one-shot submission and barriers named by intent.
// Barriers are global memory barriers: weft's passes touch whole buffers, so per-buffer barriers
// would add bookkeeping without letting the device overlap anything more.
#include <vulkan/vulkan_core.h>

#include <functional>

namespace weft::engine {

class Context;
struct VulkanApi;

// Records `record` into a fresh primary command buffer, submits it and waits for the queue.
void submitAndWait(const Context& context, const std::function<void(VkCommandBuffer)>& record);

namespace barrier {
// Each records into `cmd` through `vk`, the table of the context the command buffer belongs to.
// A compute pass reads (or overwrites) what the previous compute pass wrote.
void computeToCompute(const VulkanApi& vk, VkCommandBuffer cmd);
// An indirect dispatch reads group counts a compute pass wrote (and shaders read its other output).
void computeToIndirect(const VulkanApi& vk, VkCommandBuffer cmd);
// Vertex/fragment shaders read what a compute pass wrote (rendering from the solver's buffers).
void computeToGraphics(const VulkanApi& vk, VkCommandBuffer cmd);
// A compute pass writes what the previous frame's draw read (write-after-read).
void graphicsToCompute(const VulkanApi& vk, VkCommandBuffer cmd);
// Any shader or copy reads what a copy wrote (uploads).
void transferToAll(const VulkanApi& vk, VkCommandBuffer cmd);
// A copy or buffer update overwrites what earlier shaders or copies read or wrote (small updates
// between passes, such as a moving pin).
void allToUpload(const VulkanApi& vk, VkCommandBuffer cmd);
// A copy reads what any earlier shader or copy wrote (readbacks).
void allToTransfer(const VulkanApi& vk, VkCommandBuffer cmd);
// The host reads what a copy wrote, after the fence.
void transferToHost(const VulkanApi& vk, VkCommandBuffer cmd);
// The host reads what a compute pass wrote into mapped memory, after the fence.
void computeToHost(const VulkanApi& vk, VkCommandBuffer cmd);
}  // namespace barrier

}  // namespace weft::engine
