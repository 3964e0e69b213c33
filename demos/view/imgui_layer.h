#pragma once
// Dear ImGui on the viewer's window and swapchain: the GLFW input backend, the Vulkan renderer
// backend loaded through the context's table, the descriptor pool it draws its font from, and the font upload.
// The panel's widgets are drawn between beginFrame() and record(); record() goes inside the
// swapchain's render pass, after the scene.
#include <vulkan/vulkan_core.h>

struct GLFWwindow;

namespace weft {

namespace engine {
class Context;
}

class ImguiLayer {
 public:
  // Installs ImGui's GLFW callbacks, which chain to the ones the window already had.
  // `samples`: the render pass's sample count, which ImGui's pipeline must match.
  ImguiLayer(const engine::Context& context, GLFWwindow* window, VkRenderPass renderPass,
             VkSampleCountFlagBits samples, uint32_t imageCount);
  ~ImguiLayer();
  ImguiLayer(const ImguiLayer&) = delete;
  ImguiLayer& operator=(const ImguiLayer&) = delete;

  void beginFrame();
  // Finishes the frame's widgets and records their draw into the render pass begun on `cmd`.
  void record(VkCommandBuffer cmd);
  // The pointer or the keyboard is over a widget: the viewer's own mouse and keys stand aside.
  bool wantsMouse() const;
  bool wantsKeyboard() const;

 private:
  const engine::Context& context_;
  VkDevice device_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

}  // namespace weft
