// The viewer's input: mouse camera (orbit, pan, zoom), particle grab, and the keys.
#include <cstdio>

#include <imgui.h>

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
  static void cursor(GLFWwindow* w, double x, double y) { Viewer& v = viewerOf(w); v.onCursor(v.toPixel({x, y})); }
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
  double x = 0, y = 0;  // where the pointer is before it first moves
  glfwGetCursorPos(w, &x, &y);
  lastCursor_ = toPixel({x, y});
}

std::optional<size_t> Viewer::paneAt(glm::vec2 pixel) const {
  for (size_t p = 0; p < panes_.size(); ++p) {
    const glm::vec4 r = paneRect(p);
    if (pixel.x >= r.x && pixel.x < r.x + r.z && pixel.y >= r.y && pixel.y < r.y + r.w) return p;
  }
  return std::nullopt;
}

glm::vec2 Viewer::toPixel(glm::dvec2 windowPoint) const {
  int windowW = 1, windowH = 1;
  glfwGetWindowSize(window_.handle(), &windowW, &windowH);
  VkExtent2D fb = window_.framebufferSize();
  return {float(windowPoint.x) * float(fb.width) / float(std::max(windowW, 1)),
          float(windowPoint.y) * float(fb.height) / float(std::max(windowH, 1))};
}

void Viewer::onKey(int key, int action, int) {
  if ((action != GLFW_PRESS && action != GLFW_REPEAT) || imgui_->wantsKeyboard()) return;
  if (action == GLFW_REPEAT && key != GLFW_KEY_LEFT && key != GLFW_KEY_RIGHT) return;
  switch (key) {
    case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(window_.handle(), GLFW_TRUE); break;
    case GLFW_KEY_SPACE:
      if (replaying()) clock_->toggle();
      else running_ = !running_;
      break;
    case GLFW_KEY_N:
      running_ = false;
      stepOnce_ = true;
      break;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_RIGHT:
      if (replaying()) clock_->step(key == GLFW_KEY_LEFT ? -1 : 1);
      break;
    case GLFW_KEY_H: showPanel_ = !showPanel_; break;
    case GLFW_KEY_R: reset(); break;
    case GLFW_KEY_W:  // shaded, wireframe, springs and particles, contacts, round again
      drawMode_ = static_cast<DrawMode>((static_cast<int>(drawMode_) + 1) % kDrawModeCount);
      break;
    case GLFW_KEY_P: screenshotRequested_ = true; break;
    default: break;
  }
}

// A press acts where the pointer was when it happened: the last position the event stream reported,
// not where the pointer is now (glfwGetCursorPos), which is later when events queue behind a slow frame.
void Viewer::onMouseButton(int button, int action, int mods) {
  if (action == GLFW_RELEASE) {
    if (drag_ == Drag::Grab) panes_[dragPane_].sim->solver().clearHandle();
    drag_ = Drag::None;
    return;
  }
  if (imgui_->wantsMouse()) return;  // a click on the panel
  if (button == GLFW_MOUSE_BUTTON_RIGHT) {  // a tearing cloth is cut where the pointer drags
    std::optional<size_t> pane = paneAt(lastCursor_);
    if (pane && panes_[*pane].sim && panes_[*pane].sim->solver().tears()) {
      dragPane_ = *pane;
      drag_ = Drag::Cut;
    }
    return;
  }
  if (button == GLFW_MOUSE_BUTTON_MIDDLE || (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_SHIFT))) {
    drag_ = Drag::Pan;
    return;
  }
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  std::optional<size_t> pane = paneAt(lastCursor_);
  if (!pane || !panes_[*pane].sim) {  // a replay cannot be grabbed
    drag_ = Drag::Orbit;
    return;
  }
  // Positions are read back on a click only, never per frame.
  context_.vk().DeviceWaitIdle(context_.device());
  Pane& target = panes_[*pane];
  target.sim->solver().readState(target.hostPositions, target.hostVelocities);
  const glm::vec4 r = paneRect(*pane);
  std::optional<uint32_t> picked = pickParticle(target.hostPositions, paneCamera(*pane), {r.z, r.w},
                                                lastCursor_ - glm::vec2(r.x, r.y));
  if (!picked) {
    drag_ = Drag::Orbit;
    return;
  }
  grabAnchor_ = glm::vec3(target.hostPositions[*picked]);
  target.sim->solver().setHandle(*picked, grabAnchor_);
  dragPane_ = *pane;
  drag_ = Drag::Grab;
}

void Viewer::onCursor(glm::vec2 pixel) {
  glm::vec2 delta = pixel - lastCursor_;
  lastCursor_ = pixel;
  switch (drag_) {
    case Drag::Orbit: camera_.orbit(delta); break;
    case Drag::Pan: camera_.pan(delta, paneRect(0).w); break;
    case Drag::Grab: {
      // The particle moves in the plane through where it was grabbed, facing the camera.
      const CameraDesc camera = paneCamera(dragPane_);
      const glm::vec4 r = paneRect(dragPane_);
      const Ray ray = pixelRay(camera, {r.z, r.w}, pixel - glm::vec2(r.x, r.y));
      Solver& solver = panes_[dragPane_].sim->solver();
      if (solver.handle()) solver.setHandle(*solver.handle(), dragTarget(camera, ray, grabAnchor_));
      break;
    }
    case Drag::Cut: cutAlong(pixel - delta, pixel); break;
    case Drag::None: break;
  }
}

void Viewer::onScroll(double steps) {
  if (!imgui_->wantsMouse()) camera_.zoom(float(steps));
}

}  // namespace weft
