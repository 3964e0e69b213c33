#include "engine/buffer.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "engine/commands.h"
#include "engine/context.h"
#include "engine/vk_check.h"

namespace weft::engine {

Buffer::Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory,
               const std::string& name)
    : context_(&context), device_(context.device()), size_(size), name_(name) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size > 0 ? size : 16;  // zero-sized buffers are invalid; keep empty arrays bindable
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VK_CHECK(context.vk().CreateBuffer(device_, &info, nullptr, &buffer_));
  context.setName(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer_), name);

  VkMemoryRequirements req;
  context.vk().GetBufferMemoryRequirements(device_, buffer_, &req);
  uint32_t type = UINT32_MAX;
  switch (memory) {
    case MemoryUsage::DeviceLocal:
      type = context.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      break;
    case MemoryUsage::Upload:
      type = context.findMemoryType(req.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
      break;
    case MemoryUsage::Readback:
      type = context.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                                            VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
      if (type == UINT32_MAX)
        type = context.findMemoryType(req.memoryTypeBits,
                                      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
      break;
  }
  if (type == UINT32_MAX) type = context.findMemoryType(req.memoryTypeBits, 0);

  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  VK_CHECK(context.vk().AllocateMemory(device_, &alloc, nullptr, &memory_));
  context.setName(VK_OBJECT_TYPE_DEVICE_MEMORY, reinterpret_cast<uint64_t>(memory_), name + ".memory");
  VK_CHECK(context.vk().BindBufferMemory(device_, buffer_, memory_, 0));
  if (memory != MemoryUsage::DeviceLocal)
    VK_CHECK(context.vk().MapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
  context.countBufferBytes(static_cast<int64_t>(size_));
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& other) noexcept { *this = std::move(other); }

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    context_ = std::exchange(other.context_, nullptr);
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
    name_ = std::move(other.name_);
  }
  return *this;
}

void Buffer::release() {
  if (!device_) return;
  if (buffer_) context_->vk().DestroyBuffer(device_, buffer_, nullptr);
  if (memory_) context_->vk().FreeMemory(device_, memory_, nullptr);  // unmaps implicitly
  if (memory_ && context_) context_->countBufferBytes(-static_cast<int64_t>(size_));
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
}

void writeHostBuffer(const Context& context, Buffer& buffer, const void* data, size_t bytes, const char* name) {
  if (!buffer || buffer.size() < bytes)
    buffer = Buffer(context, std::max<size_t>(bytes, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::Upload, name);
  if (bytes > 0) std::memcpy(buffer.mapped(), data, bytes);
}

void uploadBuffer(const Context& context, const Buffer& dst, const void* data, size_t bytes, size_t dstOffset) {
  if (bytes == 0) return;
  Buffer staging(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload, dst.name() + ".staging");
  std::memcpy(staging.mapped(), data, bytes);
  submitAndWait(context, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, dstOffset, bytes};
    context.vk().CmdCopyBuffer(cmd, staging.handle(), dst.handle(), 1, &region);
    barrier::transferToAll(context.vk(), cmd);
  });
}

void recordReadback(const VulkanApi& vk, VkCommandBuffer cmd, const Buffer& src, const Buffer& readback, size_t bytes,
                    size_t srcOffset) {
  barrier::allToTransfer(vk, cmd);
  VkBufferCopy region{srcOffset, 0, bytes};
  vk.CmdCopyBuffer(cmd, src.handle(), readback.handle(), 1, &region);
  barrier::transferToHost(vk, cmd);
}

void downloadBuffer(const Context& context, const Buffer& src, void* data, size_t bytes, size_t srcOffset) {
  if (bytes == 0) return;
  Buffer readback(context, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback, src.name() + ".readback");
  submitAndWait(context,
                [&](VkCommandBuffer cmd) { recordReadback(context.vk(), cmd, src, readback, bytes, srcOffset); });
  std::memcpy(data, readback.mapped(), bytes);
}

}  // namespace weft::engine
