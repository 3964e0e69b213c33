#pragma once
// A host application's Vulkan device, made the way a host makes it (the loader's own prototypes,
// no volk, no weft code), for the embedding tests: weft borrows it through weft::DeviceDesc. The
// entry points weft loads go through a counting wrapper, so a test can assert that a call made
// no submission, no wait and no allocation.
#include <vulkan/vulkan.h>

#include <functional>
#include <string>
#include <vector>

#include <weft/device.h>

namespace weft::test {

// What weft called through the entry points it was given, since the last reset().
struct CallCounts {
  size_t submits = 0;      // vkQueueSubmit, vkQueueSubmit2
  size_t waits = 0;        // vkQueueWaitIdle, vkDeviceWaitIdle, vkWaitForFences
  size_t allocations = 0;  // vkAllocateMemory, vkCreateBuffer
  void reset() { *this = {}; }
};
CallCounts& weftCalls();

class HostDevice {
 public:
  // pushDescriptor: enable VK_KHR_push_descriptor (weft's requirement); off to test the refusal.
  explicit HostDevice(bool pushDescriptor = true);
  ~HostDevice();
  HostDevice(const HostDevice&) = delete;
  HostDevice& operator=(const HostDevice&) = delete;

  // What weft needs to borrow the device, with the counting getInstanceProcAddr.
  DeviceDesc desc() const;
  // Records `record` into a command buffer of the host's, submits it and waits (the host's own
  // calls: they do not count as weft's).
  void submit(const std::function<void(VkCommandBuffer)>& record) const;
  // Copies `bytes` of `buffer` from `offset` to the host (a submission of the host's).
  std::vector<uint8_t> read(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize bytes) const;
  // A device-local buffer of the host's, freed with the device.
  VkBuffer makeBuffer(VkDeviceSize bytes, VkBufferUsageFlags usage);
  void fill(VkBuffer buffer, uint32_t word) const;  // every word of it (a submission of the host's)
  size_t validationMessages() const;
  std::string lastValidationMessage() const;

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
  std::vector<std::string> extensions;

 private:
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::vector<std::pair<VkBuffer, VkDeviceMemory>> buffers_;
};

// Command buffers of the test's own on a device weft made (weft::Device::create), submitted with
// the loader's prototypes.
class HostCommands {
 public:
  explicit HostCommands(const Device& device);
  ~HostCommands();
  HostCommands(const HostCommands&) = delete;
  HostCommands& operator=(const HostCommands&) = delete;
  void submit(const std::function<void(VkCommandBuffer)>& record) const;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
};

}  // namespace weft::test
