// A host calls the loader's own prototypes, which weft's targets compile without
// (VK_NO_PROTOTYPES): this file is the host, so it takes them back before any Vulkan header.
#undef VK_NO_PROTOTYPES
#include "host_device.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace weft::test {
namespace {

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(result));
}

size_t gMessages = 0;
std::string gLastMessage;

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    ++gMessages;
    gLastMessage = data->pMessage;
  }
  return VK_FALSE;
}

// ---- The counting entry points handed to weft ----
VKAPI_ATTR VkResult VKAPI_CALL countQueueSubmit(VkQueue q, uint32_t n, const VkSubmitInfo* s, VkFence f) {
  ++weftCalls().submits;
  return vkQueueSubmit(q, n, s, f);
}
VKAPI_ATTR VkResult VKAPI_CALL countQueueSubmit2(VkQueue q, uint32_t n, const VkSubmitInfo2* s, VkFence f) {
  ++weftCalls().submits;
  return vkQueueSubmit2(q, n, s, f);
}
VKAPI_ATTR VkResult VKAPI_CALL countQueueWaitIdle(VkQueue q) {
  ++weftCalls().waits;
  return vkQueueWaitIdle(q);
}
VKAPI_ATTR VkResult VKAPI_CALL countDeviceWaitIdle(VkDevice d) {
  ++weftCalls().waits;
  return vkDeviceWaitIdle(d);
}
VKAPI_ATTR VkResult VKAPI_CALL countWaitForFences(VkDevice d, uint32_t n, const VkFence* f, VkBool32 all, uint64_t t) {
  ++weftCalls().waits;
  return vkWaitForFences(d, n, f, all, t);
}
VKAPI_ATTR VkResult VKAPI_CALL countAllocateMemory(VkDevice d, const VkMemoryAllocateInfo* i, const VkAllocationCallbacks* a,
                                                   VkDeviceMemory* m) {
  ++weftCalls().allocations;
  return vkAllocateMemory(d, i, a, m);
}
VKAPI_ATTR VkResult VKAPI_CALL countCreateBuffer(VkDevice d, const VkBufferCreateInfo* i, const VkAllocationCallbacks* a,
                                                 VkBuffer* b) {
  ++weftCalls().allocations;
  return vkCreateBuffer(d, i, a, b);
}

PFN_vkVoidFunction counted(const char* name) {
  struct Entry {
    const char* name;
    PFN_vkVoidFunction fn;
  };
  static const Entry entries[] = {
      {"vkQueueSubmit", reinterpret_cast<PFN_vkVoidFunction>(countQueueSubmit)},
      {"vkQueueSubmit2", reinterpret_cast<PFN_vkVoidFunction>(countQueueSubmit2)},
      {"vkQueueSubmit2KHR", reinterpret_cast<PFN_vkVoidFunction>(countQueueSubmit2)},
      {"vkQueueWaitIdle", reinterpret_cast<PFN_vkVoidFunction>(countQueueWaitIdle)},
      {"vkDeviceWaitIdle", reinterpret_cast<PFN_vkVoidFunction>(countDeviceWaitIdle)},
      {"vkWaitForFences", reinterpret_cast<PFN_vkVoidFunction>(countWaitForFences)},
      {"vkAllocateMemory", reinterpret_cast<PFN_vkVoidFunction>(countAllocateMemory)},
      {"vkCreateBuffer", reinterpret_cast<PFN_vkVoidFunction>(countCreateBuffer)},
  };
  for (const Entry& e : entries)
    if (std::strcmp(e.name, name) == 0) return e.fn;
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetDeviceProcAddr(VkDevice device, const char* name) {
  PFN_vkVoidFunction real = vkGetDeviceProcAddr(device, name);
  if (!real) return nullptr;  // not on this device: weft must see that
  if (PFN_vkVoidFunction fn = counted(name)) return fn;
  return real;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(countingGetDeviceProcAddr);
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(countingGetInstanceProcAddr);
  if (PFN_vkVoidFunction fn = counted(name)) return fn;
  return vkGetInstanceProcAddr(instance, name);
}

void submitOn(VkDevice device, VkQueue queue, VkCommandPool pool, const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  check(vkAllocateCommandBuffers(device, &alloc, &cmd), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  record(cmd);
  check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  VkSubmitInfo submitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &cmd;
  check(vkQueueSubmit(queue, 1, &submitInfo, VK_NULL_HANDLE), "vkQueueSubmit");
  check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
  vkFreeCommandBuffers(device, pool, 1, &cmd);
}

// A buffer bound to fresh memory of the first type with `flags`.
std::pair<VkBuffer, VkDeviceMemory> allocateBuffer(VkDevice device, VkPhysicalDevice physical, VkDeviceSize bytes,
                                                   VkBufferUsageFlags usage, VkMemoryPropertyFlags flags) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = bytes;
  info.usage = usage;
  VkBuffer buffer;
  check(vkCreateBuffer(device, &info, nullptr, &buffer), "vkCreateBuffer");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, buffer, &req);
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(physical, &props);
  uint32_t type = 0;
  while (type < props.memoryTypeCount &&
         !((req.memoryTypeBits & (1u << type)) && (props.memoryTypes[type].propertyFlags & flags) == flags))
    ++type;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  VkDeviceMemory memory;
  check(vkAllocateMemory(device, &alloc, nullptr, &memory), "vkAllocateMemory");
  check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
  return {buffer, memory};
}

bool hasLayer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(), [&](auto& l) { return std::strcmp(l.layerName, name) == 0; });
}

}  // namespace

CallCounts& weftCalls() {
  static CallCounts counts;
  return counts;
}

HostDevice::HostDevice(bool pushDescriptor) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* debugUtils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  if (!hasLayer(layer)) throw std::runtime_error("the embedding tests need the Khronos validation layer");
  VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messengerInfo.pNext = &features;
  messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  messengerInfo.pfnUserCallback = onMessage;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pNext = &messengerInfo;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = 1;
  info.ppEnabledLayerNames = &layer;
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &debugUtils;
  check(vkCreateInstance(&info, nullptr, &instance), "vkCreateInstance");
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  messengerInfo.pNext = nullptr;
  check(create(instance, &messengerInfo, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");

  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> physicals(count);
  vkEnumeratePhysicalDevices(instance, &count, physicals.data());
  for (VkPhysicalDevice candidate : physicals) {
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, families.data());
    for (uint32_t f = 0; f < familyCount && !physical; ++f)
      if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        physical = candidate;
        family = f;
      }
    if (physical) break;
  }
  if (!physical) throw std::runtime_error("no Vulkan device with a compute queue");
  if (pushDescriptor)
    for (const char* name : requiredDeviceExtensions()) extensions.emplace_back(name);
  std::vector<const char*> names;
  for (const std::string& e : extensions) names.push_back(e.c_str());
  VkPhysicalDeviceFeatures2 deviceFeatures = requiredDeviceFeatures();
  const float priority = 1.f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.pNext = &deviceFeatures;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = uint32_t(names.size());
  deviceInfo.ppEnabledExtensionNames = names.data();
  check(vkCreateDevice(physical, &deviceInfo, nullptr, &device), "vkCreateDevice");
  vkGetDeviceQueue(device, family, 0, &queue);
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.queueFamilyIndex = family;
  check(vkCreateCommandPool(device, &poolInfo, nullptr, &pool_), "vkCreateCommandPool");
}

HostDevice::~HostDevice() {
  vkDeviceWaitIdle(device);
  for (auto [buffer, memory] : buffers_) {
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
  }
  vkDestroyCommandPool(device, pool_, nullptr);
  vkDestroyDevice(device, nullptr);
  auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  destroy(instance, messenger_, nullptr);
  vkDestroyInstance(instance, nullptr);
}

DeviceDesc HostDevice::desc() const {
  DeviceDesc d;
  d.instance = instance;
  d.physicalDevice = physical;
  d.device = device;
  d.queueFamily = family;
  d.queue = queue;
  d.apiVersion = VK_API_VERSION_1_3;
  d.getInstanceProcAddr = countingGetInstanceProcAddr;
  d.enabledExtensions = extensions;
  return d;
}

void HostDevice::submit(const std::function<void(VkCommandBuffer)>& record) const {
  submitOn(device, queue, pool_, record);
}

HostCommands::HostCommands(const Device& device) : device_(device.handle()), queue_(device.queue()) {
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.queueFamilyIndex = device.queueFamily();
  check(vkCreateCommandPool(device_, &poolInfo, nullptr, &pool_), "vkCreateCommandPool");
}

HostCommands::~HostCommands() { vkDestroyCommandPool(device_, pool_, nullptr); }

void HostCommands::submit(const std::function<void(VkCommandBuffer)>& record) const {
  submitOn(device_, queue_, pool_, record);
}

std::vector<uint8_t> HostDevice::read(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize bytes) const {
  const auto [staging, memory] =
      allocateBuffer(device, physical, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  submit([&](VkCommandBuffer cmd) {
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr,
                         0, nullptr);
    VkBufferCopy region{offset, 0, bytes};
    vkCmdCopyBuffer(cmd, buffer, staging, 1, &region);
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after, 0, nullptr, 0, nullptr);
  });
  std::vector<uint8_t> out(bytes);
  void* mapped = nullptr;
  check(vkMapMemory(device, memory, 0, bytes, 0, &mapped), "vkMapMemory");
  std::memcpy(out.data(), mapped, bytes);
  vkUnmapMemory(device, memory);
  vkDestroyBuffer(device, staging, nullptr);
  vkFreeMemory(device, memory, nullptr);
  return out;
}

VkBuffer HostDevice::makeBuffer(VkDeviceSize bytes, VkBufferUsageFlags usage) {
  const auto [buffer, memory] = allocateBuffer(device, physical, bytes, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  buffers_.emplace_back(buffer, memory);
  return buffer;
}

void HostDevice::fill(VkBuffer buffer, uint32_t word) const {
  submit([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, word);
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &after, 0, nullptr,
                         0, nullptr);
  });
}

size_t HostDevice::validationMessages() const { return gMessages; }
std::string HostDevice::lastValidationMessage() const { return gLastMessage; }

}  // namespace weft::test
