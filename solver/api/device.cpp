// weft::Device: the device contract (what a host must enable), the check of a lent device, and the
// context and shader library every cloth on the device shares.
#include "weft/device.h"

#include <algorithm>
#include <cstring>

#include "engine/error.h"
#include "solver/api/api_internal.h"

namespace weft {
namespace {

std::string versionText(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v));
}

template <class Fn>
Fn instanceFunction(const DeviceDesc& desc, const char* name) {
  return reinterpret_cast<Fn>(desc.getInstanceProcAddr(desc.instance, name));
}

}  // namespace

std::vector<const char*> requiredDeviceExtensions() { return {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME}; }

VkPhysicalDeviceFeatures2 requiredDeviceFeatures() {
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  return features;
}

std::string checkDevice(const DeviceDesc& desc) {
  if (!desc.getInstanceProcAddr) return "DeviceDesc::getInstanceProcAddr is null: pass the host's vkGetInstanceProcAddr";
  if (!desc.instance || !desc.physicalDevice || !desc.device || !desc.queue)
    return "DeviceDesc needs the host's instance, physical device, device and queue, and one of them is null";
  if (desc.apiVersion < kRequiredVulkanVersion)
    return "the host's instance was created for Vulkan " + versionText(desc.apiVersion) + ", and weft needs " +
           versionText(kRequiredVulkanVersion) + " (VkApplicationInfo::apiVersion)";
  auto getProperties = instanceFunction<PFN_vkGetPhysicalDeviceProperties>(desc, "vkGetPhysicalDeviceProperties");
  auto getFamilies =
      instanceFunction<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(desc, "vkGetPhysicalDeviceQueueFamilyProperties");
  auto enumerateExtensions =
      instanceFunction<PFN_vkEnumerateDeviceExtensionProperties>(desc, "vkEnumerateDeviceExtensionProperties");
  auto getDeviceProcAddr = instanceFunction<PFN_vkGetDeviceProcAddr>(desc, "vkGetDeviceProcAddr");
  if (!getProperties || !getFamilies || !enumerateExtensions || !getDeviceProcAddr)
    return "the host's vkGetInstanceProcAddr does not give the Vulkan 1.0 instance functions for this instance";

  VkPhysicalDeviceProperties properties{};
  getProperties(desc.physicalDevice, &properties);
  if (properties.apiVersion < kRequiredVulkanVersion)
    return std::string("the device ") + properties.deviceName + " supports Vulkan " + versionText(properties.apiVersion) +
           ", and weft needs " + versionText(kRequiredVulkanVersion);

  uint32_t familyCount = 0;
  getFamilies(desc.physicalDevice, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  getFamilies(desc.physicalDevice, &familyCount, families.data());
  if (desc.queueFamily >= familyCount)
    return "DeviceDesc::queueFamily is " + std::to_string(desc.queueFamily) + ", and the device has " +
           std::to_string(familyCount) + " queue families";
  if (!(families[desc.queueFamily].queueFlags & VK_QUEUE_COMPUTE_BIT))
    return "queue family " + std::to_string(desc.queueFamily) + " does not support compute, which weft runs on";

  uint32_t count = 0;
  enumerateExtensions(desc.physicalDevice, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> supported(count);
  enumerateExtensions(desc.physicalDevice, nullptr, &count, supported.data());
  for (const char* name : requiredDeviceExtensions()) {
    const bool isSupported = std::any_of(supported.begin(), supported.end(),
                                         [&](const VkExtensionProperties& p) { return std::strcmp(p.extensionName, name) == 0; });
    if (!isSupported)
      return std::string("the device ") + properties.deviceName + " does not support " + name + ", which weft needs";
    const bool enabled = std::find(desc.enabledExtensions.begin(), desc.enabledExtensions.end(), name) !=
                         desc.enabledExtensions.end();
    if (!enabled)
      return std::string("the host did not enable ") + name +
             " on its device (weft::requiredDeviceExtensions() lists what to enable)";
  }
  // The list is the host's word; a device made without the extension gives no entry point for it.
  if (!getDeviceProcAddr(desc.device, "vkCmdPushDescriptorSetKHR"))
    return std::string("the host's device has no vkCmdPushDescriptorSetKHR: it was created without ") +
           VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
  return {};
}

Device::Device(std::unique_ptr<detail::DeviceImpl> impl) : impl_(std::move(impl)) {}

Device::Device(const DeviceDesc& desc) {
  const std::string problem = checkDevice(desc);
  if (!problem.empty()) throw InputError(problem);
  engine::ExternalDevice external;
  external.instance = desc.instance;
  external.physicalDevice = desc.physicalDevice;
  external.device = desc.device;
  external.queue = desc.queue;
  external.queueFamily = desc.queueFamily;
  external.getInstanceProcAddr = desc.getInstanceProcAddr;
  external.pipelineCache = desc.pipelineCache;
  impl_ = std::make_unique<detail::DeviceImpl>();
  impl_->context = std::make_unique<engine::Context>(external);
}

Device Device::create(const OwnedDeviceOptions& options) {
  engine::ContextOptions contextOptions;
  contextOptions.deviceName = options.deviceName;
  contextOptions.validation = options.validation;
  auto impl = std::make_unique<detail::DeviceImpl>();
  impl->context = std::make_unique<engine::Context>(contextOptions);
  return Device(std::move(impl));
}

Device::~Device() = default;  // the context waits for the device before it destroys anything
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&&) noexcept = default;

std::string Device::name() const { return impl_->context->deviceName(); }
bool Device::borrowed() const { return !impl_->context->ownsDevice(); }
VkDevice Device::handle() const { return impl_->context->device(); }
VkQueue Device::queue() const { return impl_->context->queue(); }
uint32_t Device::queueFamily() const { return impl_->context->queueFamily(); }
size_t Device::pipelineCount() const { return impl_->context->pipelineCount(); }
std::vector<uint8_t> Device::pipelineCacheData() const { return impl_->context->pipelineCacheData(); }
size_t Device::validationMessageCount() const { return impl_->context->validationMessageCount(); }
std::vector<std::string> Device::validationMessages() const { return impl_->context->validationMessages(); }

}  // namespace weft
