#include "engine/commands.h"

#include "engine/context.h"
#include "engine/record_stats.h"
#include "engine/vk_check.h"

namespace weft::engine {

void submitAndWait(const Context& context, const std::function<void(VkCommandBuffer)>& record) {
  VkDevice device = context.device();
  const VulkanApi& vk = context.vk();
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = context.commandPool();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  VK_CHECK(vk.AllocateCommandBuffers(device, &alloc, &cmd));

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vk.BeginCommandBuffer(cmd, &begin));
  try {
    record(cmd);  // may refuse what it was asked to record (an InputError): nothing is submitted then
  } catch (...) {
    vk.FreeCommandBuffers(device, context.commandPool(), 1, &cmd);
    throw;
  }
  VK_CHECK(vk.EndCommandBuffer(cmd));

  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vk.CreateFence(device, &fenceInfo, nullptr, &fence));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  VkResult result = vk.QueueSubmit(context.queue(), 1, &submit, fence);
  if (result == VK_SUCCESS) result = vk.WaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
  vk.DestroyFence(device, fence, nullptr);
  vk.FreeCommandBuffers(device, context.commandPool(), 1, &cmd);
  VK_CHECK(result);
}

namespace barrier {
namespace {
void memoryBarrier(const VulkanApi& vk, VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess,
                   VkPipelineStageFlags dst, VkAccessFlags dstAccess) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  vk.CmdPipelineBarrier(cmd, src, dst, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  if (RecordStats* stats = recordStats()) stats->barrier();
}
constexpr VkPipelineStageFlags kGraphicsShaders =
    VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
constexpr VkPipelineStageFlags kAllShaders = kGraphicsShaders | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
}  // namespace

void computeToCompute(const VulkanApi& vk, VkCommandBuffer cmd) {
  memoryBarrier(vk, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}
void computeToIndirect(const VulkanApi& vk, VkCommandBuffer cmd) {
  memoryBarrier(vk, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}
void computeToGraphics(const VulkanApi& vk, VkCommandBuffer cmd) {
  memoryBarrier(vk, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, kGraphicsShaders,
                VK_ACCESS_SHADER_READ_BIT);
}
void graphicsToCompute(const VulkanApi& vk, VkCommandBuffer cmd) {
  memoryBarrier(vk, cmd, kGraphicsShaders, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT);
}
void transferToAll(const VulkanApi& vk, VkCommandBuffer cmd) {
  memoryBarrier(vk, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                kAllShaders | VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                    VK_ACCESS_TRANSFER_WRITE_BIT);
}
void allToTransfer(const VulkanApi& vk, VkCommandBuffer cmd) {
  memoryBarrier(vk, cmd, kAllShaders | VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
}
void allToUpload(const VulkanApi& vk, VkCommandBuffer cmd) {
  // Write-after-read needs only the execution dependency; the write access covers write-after-write.
  memoryBarrier(vk, cmd, kAllShaders | VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT);
}
void computeToHost(const VulkanApi& vk, VkCommandBuffer cmd) {
  memoryBarrier(vk, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
}
void transferToHost(const VulkanApi& vk, VkCommandBuffer cmd) {
  memoryBarrier(vk, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
}
}  // namespace barrier

}  // namespace weft::engine
