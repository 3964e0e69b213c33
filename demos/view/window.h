#pragma once
// A GLFW window for Vulkan (no client API) and its surface. glfwInit happens in Window::initGlfw so
// the caller can tell "no display" from any other failure before creating the Vulkan instance.
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

struct GLFWwindow;

namespace weft {

namespace engine {
class Context;
struct VulkanApi;
}  // namespace engine

class Window {
 public:
  // False where no display can be opened (no DISPLAY, no X server) or GLFW finds no Vulkan loader.
  static bool initGlfw();
  // The instance extensions the surface needs (VK_KHR_surface and the platform's).
  static std::vector<const char*> requiredInstanceExtensions();

  // The surface is made on the context's instance (by GLFW's own loader) and destroyed through its table.
  Window(const engine::Context& context, int width, int height, const std::string& title);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  VkSurfaceKHR surface() const { return surface_; }
  VkExtent2D framebufferSize() const;
  bool shouldClose() const;

 private:
  const engine::VulkanApi& vk_;
  VkInstance instance_ = VK_NULL_HANDLE;
  GLFWwindow* window_ = nullptr;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
};

}  // namespace weft
