#pragma once
// weft's own table of Vulkan entry points, one per Context. weft never calls a global Vulkan
// prototype (its sources compile with VK_NO_PROTOTYPES) and defines no global `vk*` symbol, so it
// links beside a host application that uses the loader's prototypes or another function loader,
// and two Contexts (two devices, or one device borrowed twice) live side by side in one process.
// Device-level entry points come from vkGetDeviceProcAddr: each Context calls its own driver
// directly, without the loader's trampoline.
#include <vulkan/vulkan_core.h>

// Every entry point weft calls, by level. X(name) gets the name without the `vk` prefix.
// Loader level: vkGetInstanceProcAddr(VK_NULL_HANDLE, ...).
#define WEFT_VK_LOADER_FUNCTIONS(X)      \
  X(CreateInstance)                      \
  X(EnumerateInstanceExtensionProperties) \
  X(EnumerateInstanceLayerProperties)

// Instance level, required: vkGetInstanceProcAddr(instance, ...).
#define WEFT_VK_INSTANCE_FUNCTIONS(X)        \
  X(DestroyInstance)                         \
  X(EnumeratePhysicalDevices)                \
  X(GetPhysicalDeviceProperties)             \
  X(GetPhysicalDeviceQueueFamilyProperties)  \
  X(GetPhysicalDeviceMemoryProperties)       \
  X(GetPhysicalDeviceFormatProperties)       \
  X(GetPhysicalDeviceImageFormatProperties)  \
  X(CreateDevice)                            \
  X(GetDeviceProcAddr)

// Instance level, from extensions the instance may not have enabled (VK_EXT_debug_utils,
// VK_KHR_surface): null where missing.
#define WEFT_VK_INSTANCE_OPTIONAL_FUNCTIONS(X)  \
  X(CreateDebugUtilsMessengerEXT)               \
  X(DestroyDebugUtilsMessengerEXT)              \
  X(DestroySurfaceKHR)                          \
  X(GetPhysicalDeviceSurfaceFormatsKHR)         \
  X(GetPhysicalDeviceSurfaceCapabilitiesKHR)

// Device level, required (Vulkan 1.0 core and VK_KHR_push_descriptor, which weft's devices enable):
// vkGetDeviceProcAddr(device, ...).
#define WEFT_VK_DEVICE_FUNCTIONS(X) \
  X(DestroyDevice)                  \
  X(GetDeviceQueue)                 \
  X(DeviceWaitIdle)                 \
  X(QueueSubmit)                    \
  X(CreateFence)                    \
  X(DestroyFence)                   \
  X(WaitForFences)                  \
  X(ResetFences)                    \
  X(CreateSemaphore)                \
  X(DestroySemaphore)               \
  X(CreateCommandPool)              \
  X(DestroyCommandPool)             \
  X(AllocateCommandBuffers)         \
  X(FreeCommandBuffers)             \
  X(BeginCommandBuffer)             \
  X(EndCommandBuffer)               \
  X(ResetCommandBuffer)             \
  X(CreateBuffer)                   \
  X(DestroyBuffer)                  \
  X(GetBufferMemoryRequirements)    \
  X(BindBufferMemory)               \
  X(CreateImage)                    \
  X(DestroyImage)                   \
  X(GetImageMemoryRequirements)     \
  X(BindImageMemory)                \
  X(CreateImageView)                \
  X(DestroyImageView)               \
  X(AllocateMemory)                 \
  X(FreeMemory)                     \
  X(MapMemory)                      \
  X(CreateQueryPool)                \
  X(DestroyQueryPool)               \
  X(GetQueryPoolResults)            \
  X(CreateShaderModule)             \
  X(DestroyShaderModule)            \
  X(CreateDescriptorSetLayout)      \
  X(DestroyDescriptorSetLayout)     \
  X(CreateDescriptorPool)           \
  X(DestroyDescriptorPool)          \
  X(CreatePipelineLayout)           \
  X(DestroyPipelineLayout)          \
  X(CreateComputePipelines)         \
  X(CreateGraphicsPipelines)        \
  X(DestroyPipeline)                \
  X(CreateRenderPass)               \
  X(DestroyRenderPass)              \
  X(CreateFramebuffer)              \
  X(DestroyFramebuffer)             \
  X(CmdPipelineBarrier)             \
  X(CmdCopyBuffer)                  \
  X(CreatePipelineCache)            \
  X(DestroyPipelineCache)           \
  X(GetPipelineCacheData)           \
  X(CmdCopyImageToBuffer)           \
  X(CmdUpdateBuffer)                \
  X(CmdFillBuffer)                  \
  X(CmdBindPipeline)                \
  X(CmdPushConstants)               \
  X(CmdPushDescriptorSetKHR)        \
  X(CmdDispatch)                    \
  X(CmdDispatchIndirect)            \
  X(CmdBeginRenderPass)             \
  X(CmdEndRenderPass)               \
  X(CmdSetViewport)                 \
  X(CmdSetScissor)                  \
  X(CmdDraw)                        \
  X(CmdResetQueryPool)              \
  X(CmdWriteTimestamp)

// Device level, from extensions the device (or instance) may not have enabled (VK_EXT_debug_utils,
// VK_KHR_swapchain): null where missing.
#define WEFT_VK_DEVICE_OPTIONAL_FUNCTIONS(X) \
  X(SetDebugUtilsObjectNameEXT)              \
  X(CreateSwapchainKHR)                      \
  X(DestroySwapchainKHR)                     \
  X(GetSwapchainImagesKHR)                   \
  X(AcquireNextImageKHR)                     \
  X(QueuePresentKHR)

namespace weft::engine {

// Members are named without the `vk` prefix: api.CreateBuffer(...), api.CmdDispatch(...).
struct VulkanApi {
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
#define WEFT_VK_MEMBER(name) PFN_vk##name name = nullptr;
  WEFT_VK_LOADER_FUNCTIONS(WEFT_VK_MEMBER)
  WEFT_VK_INSTANCE_FUNCTIONS(WEFT_VK_MEMBER)
  WEFT_VK_INSTANCE_OPTIONAL_FUNCTIONS(WEFT_VK_MEMBER)
  WEFT_VK_DEVICE_FUNCTIONS(WEFT_VK_MEMBER)
  WEFT_VK_DEVICE_OPTIONAL_FUNCTIONS(WEFT_VK_MEMBER)
#undef WEFT_VK_MEMBER

  // Each step throws std::runtime_error naming the first required entry point that is missing.
  // The loader-level entry points, from `getInstanceProcAddr` (the host's, or openVulkanLoader()'s).
  void loadLoader(PFN_vkGetInstanceProcAddr getInstanceProcAddr);
  // The instance-level ones (needs loadLoader first).
  void loadInstance(VkInstance instance);
  // The device-level ones, straight from the device's driver (needs loadInstance first).
  void loadDevice(VkDevice device);
};

// The Vulkan loader's vkGetInstanceProcAddr, from dlopen("libvulkan.so.1") (opened once, never
// closed). Throws InputError when no loader is installed.
PFN_vkGetInstanceProcAddr openVulkanLoader();

}  // namespace weft::engine
