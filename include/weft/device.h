#pragma once
// The Vulkan device weft runs on: one a host application lends (embedding), or one weft creates for
// itself (headless tools). A Device holds weft's own table of Vulkan entry points, loaded through
// the host's vkGetInstanceProcAddr: weft defines no global symbol named vk*, so it links beside the
// loader's prototypes, volk, or another weft device in the same process.
//
// Include your Vulkan headers first: weft includes <vulkan/vulkan.h>, so a host that uses volk
// includes <volk.h> before any weft header (as for any Vulkan library).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace weft {

namespace detail {
struct DeviceImpl;
}

// The least Vulkan version weft runs on: the instance's apiVersion and the physical device's.
constexpr uint32_t kRequiredVulkanVersion = VK_API_VERSION_1_2;

// Device extensions the host must enable on a device it lends weft (weft's passes push their
// descriptors).
std::vector<const char*> requiredDeviceExtensions();
// Device features the host must enable. weft needs no optional feature of Vulkan 1.2: the
// structure comes back with none set, to chain into VkDeviceCreateInfo::pNext all the same, so a
// host that follows this contract keeps working if a later weft needs one.
VkPhysicalDeviceFeatures2 requiredDeviceFeatures();

// What a host hands over. The queue must belong to `queueFamily`, which must support compute.
struct DeviceDesc {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  // Used only by the calls documented as "submits" (creation, prepare, reads and writes of state);
  // weft never records into or submits to it from recordStep.
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t apiVersion = 0;  // VkApplicationInfo::apiVersion of the host's instance
  PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;  // the host's loader entry point
  std::vector<std::string> enabledExtensions;  // the device extensions the host enabled
  // Optional: a pipeline cache of the host's, to which weft adds its pipelines (the host saves it).
  // Null: weft makes its own (Device::pipelineCacheData() returns it for the host to keep).
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
};

// Empty when weft can run on the lent device, else one sentence naming what is missing (the API
// version, an extension the device lacks or the host did not enable, a queue without compute).
std::string checkDevice(const DeviceDesc& desc);

struct OwnedDeviceOptions {
  std::string deviceName;   // case-insensitive substring of the device's name; empty: the best one
  bool validation = false;  // Khronos validation layer, synchronisation validation included
};

class Device {
 public:
  // Borrows the host's device. InputError with checkDevice()'s sentence if weft cannot use it.
  // weft destroys only the objects it made; the host destroys its device after every weft object.
  explicit Device(const DeviceDesc& desc);
  // weft's own instance and device (a headless program, a test).
  static Device create(const OwnedDeviceOptions& options = {});
  ~Device();  // waits until the device is idle, then destroys weft's pipelines
  Device(Device&&) noexcept;
  Device& operator=(Device&&) noexcept;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  std::string name() const;
  bool borrowed() const;
  VkDevice handle() const;
  VkQueue queue() const;
  uint32_t queueFamily() const;
  // Compute and graphics pipelines weft has built on this device so far: every cloth made on it
  // shares them (one per kernel, made on the first cloth that needs it).
  size_t pipelineCount() const;
  // The pipeline cache's contents (vkGetPipelineCacheData), to save and hand back next run
  // through DeviceDesc::pipelineCache or pipelineCacheData below.
  std::vector<uint8_t> pipelineCacheData() const;
  // Validation messages seen since creation (owned devices with validation on; 0 otherwise).
  size_t validationMessageCount() const;
  std::vector<std::string> validationMessages() const;

  detail::DeviceImpl& impl() const { return *impl_; }

 private:
  explicit Device(std::unique_ptr<detail::DeviceImpl> impl);
  std::unique_ptr<detail::DeviceImpl> impl_;
};

}  // namespace weft
