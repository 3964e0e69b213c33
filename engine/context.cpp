#include "engine/context.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine/error.h"
#include "engine/vk_check.h"

namespace weft::engine {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

const char* typeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

// Discrete GPU first, then integrated, then anything else, the CPU (lavapipe) last.
int typeRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

bool hasInstanceExtension(const VulkanApi& vk, const char* name) {
  uint32_t count = 0;
  vk.EnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> props(count);
  vk.EnumerateInstanceExtensionProperties(nullptr, &count, props.data());
  return std::any_of(props.begin(), props.end(), [&](auto& p) { return std::strcmp(p.extensionName, name) == 0; });
}

bool hasLayer(const VulkanApi& vk, const char* name) {
  uint32_t count = 0;
  vk.EnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> props(count);
  vk.EnumerateInstanceLayerProperties(&count, props.data());
  return std::any_of(props.begin(), props.end(), [&](auto& p) { return std::strcmp(p.layerName, name) == 0; });
}

std::string describeDevices(const std::vector<DeviceInfo>& devices) {
  std::string out;
  for (const auto& d : devices) out += (out.empty() ? "" : ", ") + d.name + " (" + d.type + ")";
  return out.empty() ? "none" : out;
}

}  // namespace

Context::Context(const ContextOptions& options) : owned_(true) {
  vk_.loadLoader(openVulkanLoader());
  try {
    createInstance(options);
    std::string requested = options.deviceName;
    if (requested.empty())
      if (const char* env = std::getenv("WEFT_DEVICE")) requested = env;
    pickPhysicalDevice(requested);
    createDevice(options);
    finishSetup();
  } catch (...) {
    destroy();  // the destructor does not run for a constructor that throws
    throw;
  }
}

Context::Context(const ExternalDevice& external) : owned_(false) {
  if (!external.instance || !external.physicalDevice || !external.device || !external.queue)
    throw std::invalid_argument("ExternalDevice needs an instance, physical device, device and queue");
  vk_.loadLoader(external.getInstanceProcAddr ? external.getInstanceProcAddr : openVulkanLoader());
  instance_ = external.instance;
  physicalDevice_ = external.physicalDevice;
  device_ = external.device;
  queue_ = external.queue;
  queueFamily_ = external.queueFamily;
  pipelineCache_ = external.pipelineCache;
  vk_.loadInstance(instance_);
  vk_.loadDevice(device_);
  debugUtils_ = vk_.SetDebugUtilsObjectNameEXT != nullptr;
  finishSetup();
}

Context::~Context() { destroy(); }

void Context::destroy() {
  // A constructor that threw while loading the table may leave entry points null.
  if (device_ && vk_.DeviceWaitIdle) vk_.DeviceWaitIdle(device_);
  {
    std::lock_guard lock(programsMutex_);
    programs_.clear();  // the pipelines no solver holds any more
  }
  if (ownsPipelineCache_) vk_.DestroyPipelineCache(device_, pipelineCache_, nullptr);
  pipelineCache_ = VK_NULL_HANDLE;
  if (commandPool_) vk_.DestroyCommandPool(device_, commandPool_, nullptr);
  commandPool_ = VK_NULL_HANDLE;
  if (!owned_) return;
  if (device_ && vk_.DestroyDevice) vk_.DestroyDevice(device_, nullptr);
  if (messenger_) vk_.DestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  if (instance_ && vk_.DestroyInstance) vk_.DestroyInstance(instance_, nullptr);
  device_ = VK_NULL_HANDLE;
  messenger_ = VK_NULL_HANDLE;
  instance_ = VK_NULL_HANDLE;
}

void Context::createInstance(const ContextOptions& options) {
  std::vector<const char*> extensions = options.instanceExtensions;
  std::vector<const char*> layers;
  debugUtils_ = hasInstanceExtension(vk_, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (debugUtils_) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (options.validation) {
    if (!hasLayer(vk_, kValidationLayer))
      throw InputError("validation was requested but the Khronos validation layer is not installed "
                       "(Debian package vulkan-validationlayers)");
    if (!debugUtils_) throw InputError("validation needs VK_EXT_debug_utils, which this loader lacks");
    layers.push_back(kValidationLayer);
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "weft";
  app.pEngineName = "weft";
  app.apiVersion = VK_API_VERSION_1_2;

  // Synchronisation validation catches missing barriers between solver passes.
  VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;

  VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType =
      VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  messenger.pfnUserCallback = &Context::onMessage;
  messenger.pUserData = this;
  if (options.validation) messenger.pNext = &features;

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  if (options.validation) info.pNext = &messenger;  // also covers instance creation itself
  VkResult result = vk_.CreateInstance(&info, nullptr, &instance_);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    throw InputError("no Vulkan 1.2 driver was found; install mesa-vulkan-drivers for the CPU device");
  VK_CHECK(result);
  vk_.loadInstance(instance_);
  if (options.validation) {
    messenger.pNext = nullptr;
    VK_CHECK(vk_.CreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_));
  }
}

void Context::pickPhysicalDevice(const std::string& requested) {
  uint32_t count = 0;
  vk_.EnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vk_.EnumeratePhysicalDevices(instance_, &count, devices.data());
  if (devices.empty())
    throw InputError("no Vulkan device was found; install mesa-vulkan-drivers for the CPU device (lavapipe)");

  std::vector<DeviceInfo> infos;
  int bestRank = -1;
  for (VkPhysicalDevice device : devices) {
    VkPhysicalDeviceProperties props;
    vk_.GetPhysicalDeviceProperties(device, &props);
    infos.push_back({props.deviceName, typeName(props.deviceType)});
    if (props.apiVersion < VK_API_VERSION_1_2) continue;
    bool matches = requested.empty() || lower(props.deviceName).find(lower(requested)) != std::string::npos;
    if (matches && typeRank(props.deviceType) > bestRank) {
      bestRank = typeRank(props.deviceType);
      physicalDevice_ = device;
    }
  }
  if (!physicalDevice_) {
    if (requested.empty()) throw InputError("no Vulkan 1.2 device was found (seen: " + describeDevices(infos) + ")");
    throw InputError("no Vulkan device matches '" + requested + "' (available: " + describeDevices(infos) + ")");
  }
}

void Context::createDevice(const ContextOptions& options) {
  uint32_t familyCount = 0;
  vk_.GetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vk_.GetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, families.data());
  bool found = false;
  for (uint32_t i = 0; i < familyCount && !found; ++i) {
    // One queue that does both: the solver and the renderer share buffers without ownership transfers.
    VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if ((families[i].queueFlags & need) == need) {
      queueFamily_ = i;
      found = true;
    }
  }
  if (!found) throw InputError("the Vulkan device has no queue that does both graphics and compute");

  std::vector<const char*> extensions = options.deviceExtensions;
  extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);

  float priority = 1.f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = queueFamily_;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;

  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkResult result = vk_.CreateDevice(physicalDevice_, &info, nullptr, &device_);
  if (result == VK_ERROR_EXTENSION_NOT_PRESENT)
    throw InputError("the Vulkan device lacks an extension weft needs (VK_KHR_push_descriptor)");
  VK_CHECK(result);
  vk_.loadDevice(device_);
  vk_.GetDeviceQueue(device_, queueFamily_, 0, &queue_);
}

void Context::finishSetup() {
  vk_.GetPhysicalDeviceProperties(physicalDevice_, &properties_);
  vk_.GetPhysicalDeviceMemoryProperties(physicalDevice_, &memoryProperties_);
  uint32_t familyCount = 0;
  vk_.GetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vk_.GetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, families.data());
  timestampsSupported_ = properties_.limits.timestampPeriod > 0.f && queueFamily_ < familyCount &&
                         families[queueFamily_].timestampValidBits > 0;

  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = queueFamily_;
  VK_CHECK(vk_.CreateCommandPool(device_, &pool, nullptr, &commandPool_));
  setName(VK_OBJECT_TYPE_COMMAND_POOL, reinterpret_cast<uint64_t>(commandPool_), "weft.commandPool");
  if (!pipelineCache_) {
    VkPipelineCacheCreateInfo cache{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VK_CHECK(vk_.CreatePipelineCache(device_, &cache, nullptr, &pipelineCache_));
    ownsPipelineCache_ = true;
  }
}

std::vector<uint8_t> Context::pipelineCacheData() const {
  size_t bytes = 0;
  VK_CHECK(vk_.GetPipelineCacheData(device_, pipelineCache_, &bytes, nullptr));
  std::vector<uint8_t> data(bytes);
  VK_CHECK(vk_.GetPipelineCacheData(device_, pipelineCache_, &bytes, data.data()));
  data.resize(bytes);
  return data;
}

std::shared_ptr<const void> Context::findProgram(const std::string& key) const {
  std::lock_guard lock(programsMutex_);
  auto it = programs_.find(key);
  return it == programs_.end() ? nullptr : it->second;
}

void Context::keepProgram(const std::string& key, std::shared_ptr<const void> program) const {
  std::lock_guard lock(programsMutex_);
  programs_.emplace(key, std::move(program));
}

std::string Context::deviceType() const { return typeName(properties_.deviceType); }

uint32_t Context::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memoryProperties_.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) && (memoryProperties_.memoryTypes[i].propertyFlags & required) == required) return i;
  return UINT32_MAX;
}

void Context::setName(VkObjectType type, uint64_t handle, const std::string& name) const {
  if (!debugUtils_ || !vk_.SetDebugUtilsObjectNameEXT) return;
  VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = name.c_str();
  vk_.SetDebugUtilsObjectNameEXT(device_, &info);
}

std::vector<std::string> Context::validationMessages() const {
  std::lock_guard lock(messagesMutex_);
  return messages_;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Context::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* self = static_cast<Context*>(user);
  const char* level = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
  std::string text = std::string("validation ") + level + ": " + (data->pMessage ? data->pMessage : "");
  std::fprintf(stderr, "%s\n", text.c_str());
  self->validationCount_++;
  std::lock_guard lock(self->messagesMutex_);
  if (self->messages_.size() < 64) self->messages_.push_back(std::move(text));
  return VK_FALSE;
}

std::vector<DeviceInfo> Context::listDevices() {
  VulkanApi vk;
  vk.loadLoader(openVulkanLoader());
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance;
  if (vk.CreateInstance(&info, nullptr, &instance) != VK_SUCCESS) return {};
  try {
    vk.loadInstance(instance);
  } catch (const std::runtime_error&) {
    if (auto destroy = reinterpret_cast<PFN_vkDestroyInstance>(vk.GetInstanceProcAddr(instance, "vkDestroyInstance")))
      destroy(instance, nullptr);
    return {};
  }
  uint32_t count = 0;
  vk.EnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vk.EnumeratePhysicalDevices(instance, &count, devices.data());
  std::vector<DeviceInfo> out;
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties props;
    vk.GetPhysicalDeviceProperties(d, &props);
    out.push_back({props.deviceName, typeName(props.deviceType)});
  }
  vk.DestroyInstance(instance, nullptr);
  return out;
}

}  // namespace weft::engine
