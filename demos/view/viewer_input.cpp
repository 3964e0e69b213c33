// The viewer's input: mouse camera (orbit, pan, zoom), particle grab, and the keys.
#include <cstdio>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "demos/view/viewer.h"
#include "engine/commands.h"

namespace weft {
namespace {
Viewer& viewerOf(GLFWwindow* window) { return *static_cast<Viewer*>(glfwGetWindowUserPointer(window)); }
}  // namespace

// GLFW calls plain functions; each forwards to the Viewer stored as the window's user pointer.
struct ViewerCallbacks {
  static void key(GLFWwindow* w, int key, int, int action, int mods) { viewerOf(w).onKey(key, action, mods); }
  static void button(GLFWwindow* w, int button, int action, int mods) { viewerOf(w).onMouseButton(button, action, mods); }
  static void cursor(GLFWwindow* w, double, double) { Viewer& v = viewerOf(w); v.onCursor(v.cursorPixel()); }
  static void scroll(GLFWwindow* w, double, double y) { viewerOf(w).onScroll(y); }
  static void resize(GLFWwindow* w, int, int) { viewerOf(w).resized_ = true; }
};

void Viewer::installCallbacks() {
  GLFWwindow* w = window_.handle();
  glfwSetWindowUserPointer(w, this);
  glfwSetKeyCallback(w, ViewerCallbacks::key);
  glfwSetMouseButtonCallback(w, ViewerCallbacks::button);
  glfwSetCursorPosCallback(w, ViewerCallbacks::cursor);
  glfwSetScrollCallback(w, ViewerCallbacks::scroll);
  glfwSetFramebufferSizeCallback(w, ViewerCallbacks::resize);
}

glm::vec2 Viewer::viewport() const {
  VkExtent2D e = swapchain_.extent();
  return {float(e.width), float(e.height)};
}

glm::vec2 Viewer::cursorPixel() const {
  double x = 0, y = 0;
  int windowW = 1, windowH = 1;
  glfwGetCursorPos(window_.handle(), &x, &y);
  glfwGetWindowSize(window_.handle(), &windowW, &windowH);
  VkExtent2D fb = window_.framebufferSize();
  return {float(x) * float(fb.width) / float(std::max(windowW, 1)),
          float(y) * float(fb.height) / float(std::max(windowH, 1))};
}

void Viewer::onKey(int key, int action, int) {
  if (action != GLFW_PRESS) return;
  switch (key) {
    case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(window_.handle(), GLFW_TRUE); break;
    case GLFW_KEY_SPACE: running_ = !running_; break;
    case GLFW_KEY_N:
      running_ = false;
      stepOnce_ = true;
      break;
    case GLFW_KEY_R: reset(); break;
    case GLFW_KEY_W: wireframe_ = !wireframe_; break;
    case GLFW_KEY_P: screenshotRequested_ = true; break;
    default: break;
  }
}

void Viewer::onMouseButton(int button, int action, int mods) {
  lastCursor_ = cursorPixel();
  if (action == GLFW_RELEASE) {
    if (drag_ == Drag::Grab) solver_->clearHandle();
    drag_ = Drag::None;
    return;
  }
  if (button == GLFW_MOUSE_BUTTON_MIDDLE || (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_SHIFT))) {
    drag_ = Drag::Pan;
    return;
  }
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  // Positions are read back on a click only, never per frame.
  vkDeviceWaitIdle(context_.device());
  solver_->readState(hostPositions_, hostVelocities_);
  std::optional<uint32_t> picked = pickParticle(hostPositions_, camera_.desc(), viewport(), lastCursor_);
  if (!picked) {
    drag_ = Drag::Orbit;
    return;
  }
  grabAnchor_ = glm::vec3(hostPositions_[*picked]);
  solver_->setHandle(*picked, grabAnchor_);
  drag_ = Drag::Grab;
}

void Viewer::onCursor(glm::vec2 pixel) {
  glm::vec2 delta = pixel - lastCursor_;
  lastCursor_ = pixel;
  switch (drag_) {
    case Drag::Orbit: camera_.orbit(delta); break;
    case Drag::Pan: camera_.pan(delta, viewport().y); break;
    case Drag::Grab: {
      // The particle moves in the plane through where it was grabbed, facing the camera.
      CameraDesc camera = camera_.desc();
      glm::vec3 target = dragTarget(camera, pixelRay(camera, viewport(), pixel), grabAnchor_);
      solver_->setHandle(*solver_->handle(), target);
      break;
    }
    case Drag::None: break;
  }
}

void Viewer::onScroll(double steps) { camera_.zoom(float(steps)); }

}  // namespace weft
