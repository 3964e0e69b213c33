#include "demos/view/window.h"

#include <cstdlib>
#include <stdexcept>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "engine/context.h"
#include "engine/vk_check.h"

namespace weft {

bool Window::initGlfw() {
  // GLFW 3.3 on Linux opens X11; without DISPLAY it would fail anyway, but this says why at once.
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) return false;
  if (!glfwInit()) return false;
  if (!glfwVulkanSupported()) {
    glfwTerminate();
    return false;
  }
  return true;
}

std::vector<const char*> Window::requiredInstanceExtensions() {
  uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  return std::vector<const char*>(names, names + count);
}

Window::Window(const engine::Context& context, int width, int height, const std::string& title)
    : vk_(context.vk()), instance_(context.instance()) {
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!window_) throw std::runtime_error("glfwCreateWindow failed");
  VkResult result = glfwCreateWindowSurface(instance_, window_, nullptr, &surface_);
  if (result != VK_SUCCESS) {
    glfwDestroyWindow(window_);
    VK_CHECK(result);
  }
}

Window::~Window() {
  if (surface_) vk_.DestroySurfaceKHR(instance_, surface_, nullptr);
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

VkExtent2D Window::framebufferSize() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return {uint32_t(w), uint32_t(h)};
}

bool Window::shouldClose() const { return glfwWindowShouldClose(window_); }

}  // namespace weft
