#pragma once
// The Vulkan context: instance, physical device, device and one queue. Either weft owns them
// (standalone programs and tests) or a host application lends its own (embedding): every other
// engine type only *uses* a Context and never cares which.
#include <vulkan/vulkan_core.h>

#include <atomic>
#include <map>
#include <memory>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "engine/vulkan_api.h"

namespace weft::engine {

struct ContextOptions {
  std::string deviceName;         // case-insensitive substring; empty: $WEFT_DEVICE, then the best device
  bool validation = false;        // Khronos validation layer with synchronisation validation
  std::vector<const char*> instanceExtensions;  // e.g. from glfwGetRequiredInstanceExtensions
  std::vector<const char*> deviceExtensions;    // e.g. VK_KHR_swapchain
};

// What a host application hands over to embed weft. The device must have been created with
// VK_KHR_push_descriptor enabled (weft's passes push their descriptors) and Vulkan 1.2 or newer.
struct ExternalDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  // The host's vkGetInstanceProcAddr, where it has its own loader or layer set-up; null: weft opens
  // the Vulkan loader (libvulkan.so.1) itself. The Context loads its table from it.
  PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
  // The host's pipeline cache, which weft's pipelines then go into; null: the Context makes its own.
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
};

struct DeviceInfo {
  std::string name;
  std::string type;  // "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other"
};

// Each Context loads its own table of Vulkan entry points (engine/vulkan_api.h): every engine type
// calls Vulkan through the Context it was made on, so any number of Contexts, owned or borrowed, may
// be alive at once.
class Context {
 public:
  explicit Context(const ContextOptions& options);  // owns instance and device
  explicit Context(const ExternalDevice& external);  // borrows them; destroys only its own objects
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // The Vulkan entry points of this context's instance and device.
  const VulkanApi& vk() const { return vk_; }
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queueFamily() const { return queueFamily_; }
  VkCommandPool commandPool() const { return commandPool_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceMemoryProperties& memoryProperties() const { return memoryProperties_; }
  std::string deviceName() const { return properties_.deviceName; }
  std::string deviceType() const;
  bool ownsDevice() const { return owned_; }
  bool timestampsSupported() const { return timestampsSupported_; }

  uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const;
  // Debug name for captures and validation messages (no-op without VK_EXT_debug_utils).
  void setName(VkObjectType type, uint64_t handle, const std::string& name) const;

  // Bytes of the Buffers alive on this context: what a solver's state really takes, to hold its
  // estimate (solver/backend/memory_budget.h) to. Buffer keeps it.
  uint64_t bufferBytes() const { return bufferBytes_.load(); }
  void countBufferBytes(int64_t change) const { bufferBytes_ += static_cast<uint64_t>(change); }

  // Every pipeline goes through this cache (the host's, or the context's own), and is counted while
  // it lives: solvers on one context share one pipeline per kernel (engine/program.h).
  VkPipelineCache pipelineCache() const { return pipelineCache_; }
  std::vector<uint8_t> pipelineCacheData() const;
  size_t pipelineCount() const { return pipelineCount_.load(); }
  void countPipelines(int change) const { pipelineCount_ += static_cast<size_t>(change); }
  // The context's program library: built programs by key, shared by every solver made on the
  // context (type-erased here: engine/program.cpp owns the type). Null when not built yet.
  std::shared_ptr<const void> findProgram(const std::string& key) const;
  void keepProgram(const std::string& key, std::shared_ptr<const void> program) const;

  // Validation messages (warnings and errors) seen since creation; tests fail on any.
  size_t validationMessageCount() const { return validationCount_.load(); }
  std::vector<std::string> validationMessages() const;

  // Every Vulkan device the loader can see, for error messages and `weft devices`.
  static std::vector<DeviceInfo> listDevices();

 private:
  void createInstance(const ContextOptions& options);
  void pickPhysicalDevice(const std::string& requested);
  void createDevice(const ContextOptions& options);
  void finishSetup();
  void destroy();
  static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT types,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                  void* user);

  VulkanApi vk_;
  bool owned_ = false;
  bool debugUtils_ = false;
  bool timestampsSupported_ = false;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queueFamily_ = 0;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memoryProperties_{};
  std::atomic<size_t> validationCount_{0};
  mutable std::atomic<uint64_t> bufferBytes_{0};
  VkPipelineCache pipelineCache_ = VK_NULL_HANDLE;
  bool ownsPipelineCache_ = false;
  mutable std::atomic<size_t> pipelineCount_{0};
  mutable std::mutex programsMutex_;
  mutable std::map<std::string, std::shared_ptr<const void>> programs_;
  mutable std::mutex messagesMutex_;
  std::vector<std::string> messages_;
};

}  // namespace weft::engine
