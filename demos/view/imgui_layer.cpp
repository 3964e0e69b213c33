#include "demos/view/imgui_layer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <stdexcept>

#include "engine/commands.h"
#include "engine/context.h"
#include "engine/vk_check.h"

namespace weft {
namespace {
// ImGui's backend asks for each function by name: device-level ones straight from the context's
// device (as its own table has them), the rest from its instance.
PFN_vkVoidFunction loadVulkan(const char* name, void* user) {
  const auto& context = *static_cast<const engine::Context*>(user);
  if (PFN_vkVoidFunction device = context.vk().GetDeviceProcAddr(context.device(), name)) return device;
  return context.vk().GetInstanceProcAddr(context.instance(), name);
}
void checkVk(VkResult result) {
  if (result != VK_SUCCESS) throw std::runtime_error("ImGui's Vulkan backend failed: " + std::to_string(result));
}
}  // namespace

ImguiLayer::ImguiLayer(const engine::Context& context, GLFWwindow* window, VkRenderPass renderPass,
                       VkSampleCountFlagBits samples, uint32_t imageCount)
    : context_(context), device_(context.device()) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left in the user's folder
  ImGui::StyleColorsDark();
  ImGui::GetStyle().Alpha = 0.92f;
  if (!ImGui_ImplVulkan_LoadFunctions(loadVulkan, const_cast<engine::Context*>(&context)))
    throw std::runtime_error("ImGui's Vulkan backend could not load its Vulkan functions");
  ImGui_ImplGlfw_InitForVulkan(window, true);

  // The font atlas is ImGui's only descriptor set.
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &size;
  VK_CHECK(context.vk().CreateDescriptorPool(device_, &poolInfo, nullptr, &pool_));

  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = context.instance();
  info.PhysicalDevice = context.physicalDevice();
  info.Device = device_;
  info.QueueFamily = context.queueFamily();
  info.Queue = context.queue();
  info.DescriptorPool = pool_;
  info.MinImageCount = std::max(imageCount, 2u);
  info.ImageCount = std::max(imageCount, 2u);
  info.MSAASamples = samples;
  info.CheckVkResultFn = checkVk;
  ImGui_ImplVulkan_Init(&info, renderPass);

  engine::submitAndWait(context, [](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
}

ImguiLayer::~ImguiLayer() {
  context_.vk().DeviceWaitIdle(device_);
  ImGui_ImplVulkan_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  context_.vk().DestroyDescriptorPool(device_, pool_, nullptr);
}

void ImguiLayer::beginFrame() {
  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void ImguiLayer::record(VkCommandBuffer cmd) {
  ImGui::Render();
  ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
}

bool ImguiLayer::wantsMouse() const { return ImGui::GetIO().WantCaptureMouse; }
bool ImguiLayer::wantsKeyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }

}  // namespace weft
