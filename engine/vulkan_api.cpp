#include "engine/vulkan_api.h"

#include <dlfcn.h>

#include <mutex>
#include <stdexcept>
#include <string>

#include "engine/error.h"

namespace weft::engine {
namespace {

[[noreturn]] void missing(const char* name) {
  throw std::runtime_error(std::string("the Vulkan driver does not provide vk") + name +
                           ", which weft needs (Vulkan 1.2 and VK_KHR_push_descriptor)");
}

}  // namespace

PFN_vkGetInstanceProcAddr openVulkanLoader() {
  static std::once_flag once;
  static PFN_vkGetInstanceProcAddr found = nullptr;
  std::call_once(once, [] {
    void* library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
    if (library) found = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
  });
  if (!found)
    throw InputError("the Vulkan loader (libvulkan.so.1) was not found; install libvulkan1 and a driver "
                     "(mesa-vulkan-drivers provides the CPU device)");
  return found;
}

void VulkanApi::loadLoader(PFN_vkGetInstanceProcAddr getInstanceProcAddr) {
  if (!getInstanceProcAddr) throw std::invalid_argument("VulkanApi::loadLoader needs a vkGetInstanceProcAddr");
  GetInstanceProcAddr = getInstanceProcAddr;
#define WEFT_VK_LOAD(name)                                                                              \
  name = reinterpret_cast<PFN_vk##name>(GetInstanceProcAddr(VK_NULL_HANDLE, "vk" #name)); \
  if (!name) missing(#name);
  WEFT_VK_LOADER_FUNCTIONS(WEFT_VK_LOAD)
#undef WEFT_VK_LOAD
}

void VulkanApi::loadInstance(VkInstance instance) {
  if (!GetInstanceProcAddr) throw std::logic_error("VulkanApi::loadInstance before loadLoader");
#define WEFT_VK_LOAD(name)                                                                    \
  name = reinterpret_cast<PFN_vk##name>(GetInstanceProcAddr(instance, "vk" #name)); \
  if (!name) missing(#name);
#define WEFT_VK_LOAD_OPTIONAL(name) \
  name = reinterpret_cast<PFN_vk##name>(GetInstanceProcAddr(instance, "vk" #name));
  WEFT_VK_INSTANCE_FUNCTIONS(WEFT_VK_LOAD)
  WEFT_VK_INSTANCE_OPTIONAL_FUNCTIONS(WEFT_VK_LOAD_OPTIONAL)
#undef WEFT_VK_LOAD
#undef WEFT_VK_LOAD_OPTIONAL
}

void VulkanApi::loadDevice(VkDevice device) {
  if (!GetDeviceProcAddr) throw std::logic_error("VulkanApi::loadDevice before loadInstance");
#define WEFT_VK_LOAD(name)                                                               \
  name = reinterpret_cast<PFN_vk##name>(GetDeviceProcAddr(device, "vk" #name)); \
  if (!name) missing(#name);
#define WEFT_VK_LOAD_OPTIONAL(name) name = reinterpret_cast<PFN_vk##name>(GetDeviceProcAddr(device, "vk" #name));
  WEFT_VK_DEVICE_FUNCTIONS(WEFT_VK_LOAD)
  WEFT_VK_DEVICE_OPTIONAL_FUNCTIONS(WEFT_VK_LOAD_OPTIONAL)
#undef WEFT_VK_LOAD
#undef WEFT_VK_LOAD_OPTIONAL
}

}  // namespace weft::engine
