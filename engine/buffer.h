#pragma once
// Storage, staging and readback buffers. Move-only: the Buffer owns its VkBuffer and memory.
#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <string>

namespace weft::engine {

class Context;
struct VulkanApi;

enum class MemoryUsage {
  DeviceLocal,  // solver state: fastest for the device, not mapped
  Upload,       // host-visible, mapped, host writes then the device reads
  Readback,     // host-visible (cached where possible), mapped, the device writes then the host reads
};

class Buffer {
 public:
  Buffer() = default;
  Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory,
         const std::string& name);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }  // null for DeviceLocal
  const std::string& name() const { return name_; }
  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }

 private:
  void release();
  const Context* context_ = nullptr;
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
  std::string name_;
};

// Usage flags every solver storage buffer gets: read and written by shaders, copied both ways.
constexpr VkBufferUsageFlags kStorageUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// Copies host data into a device buffer through a staging buffer and waits for it.
// Not for per-step use: it blocks on the queue.
void uploadBuffer(const Context& context, const Buffer& dst, const void* data, size_t bytes, size_t dstOffset = 0);
// Writes host data into `buffer`, a host-visible storage buffer that shaders read straight from
// (positions or marks drawn from the CPU backend), first making it (MemoryUsage::Upload, `name`)
// when it is missing or smaller. No copy and no wait: the submission that reads it makes the writes
// visible, so it must not be in use by a submission still in flight.
void writeHostBuffer(const Context& context, Buffer& buffer, const void* data, size_t bytes, const char* name);
// Copies a device buffer back to the host and waits for it.
void downloadBuffer(const Context& context, const Buffer& src, void* data, size_t bytes, size_t srcOffset = 0);
// Records a readback of `bytes` at `srcOffset` of a device buffer into `readback` (a MemoryUsage::
// Readback buffer), between the barriers it needs: after the submission's fence, readback.mapped()
// holds them. For a few bytes read every submission without a second one.
void recordReadback(const VulkanApi& vk, VkCommandBuffer cmd, const Buffer& src, const Buffer& readback, size_t bytes,
                    size_t srcOffset = 0);

}  // namespace weft::engine
