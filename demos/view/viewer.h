#pragma once
// The windowed viewer: owns the window, swapchain, frame ring, solver and scene drawer, runs the
// frame loop and turns input into camera moves, solver control and particle grabs.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "demos/render/scene_drawer.h"
#include "demos/view/frame_ring.h"
#include "demos/view/orbit_camera.h"
#include "demos/view/swapchain.h"
#include "demos/view/view_command.h"
#include "demos/view/window.h"
#include "engine/buffer.h"
#include "engine/context.h"
#include "engine/shader_library.h"
#include "solver/scene.h"
#include "solver/solver.h"

namespace weft {

class GpuSolver;

class Viewer {
 public:
  // The context must have been made with the window's instance extensions and VK_KHR_swapchain.
  Viewer(engine::Context& context, const engine::ShaderLibrary& shaders, Scene scene, Backend backend,
         const ViewOptions& options);
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;

  // Runs until the window closes, Esc, or options.frames frames. Returns the exit status.
  int run();

 private:
  enum class Drag { None, Orbit, Pan, Grab };

  // One frame: simulate (if running), record, submit, present. False when the swapchain had to be
  // recreated before anything was drawn.
  bool drawFrame(bool capture);
  void recordFrame(VkCommandBuffer cmd, uint32_t image, bool advance, bool capture);
  void recordCapture(VkCommandBuffer cmd, uint32_t image);
  void saveCapture(const std::string& path) const;
  // What this frame draws from: the GPU solver's buffer, or the CPU state copied into the slot's upload buffer.
  const engine::Buffer& positionsFor(uint64_t frame);
  void reset();
  void updateTitle(double frameMs);

  // Input (viewer_input.cpp).
  void installCallbacks();
  void onKey(int key, int action, int mods);
  void onMouseButton(int button, int action, int mods);
  void onCursor(glm::vec2 pixel);
  void onScroll(double steps);
  glm::vec2 cursorPixel() const;  // framebuffer pixels, which may differ from window coordinates
  glm::vec2 viewport() const;

  engine::Context& context_;
  Scene scene_;
  Backend backend_;
  ViewOptions options_;
  std::unique_ptr<Solver> solver_;
  GpuSolver* gpuSolver_ = nullptr;  // solver_ when on the GPU backend
  std::vector<glm::vec4> initialPositions_, initialVelocities_, hostPositions_, hostVelocities_;
  Window window_;
  Swapchain swapchain_;
  SceneDrawer drawer_;  // after the swapchain: its pipelines are made for the swapchain's render pass
  FrameRing frames_;
  std::array<engine::Buffer, kFramesInFlight> uploads_;  // CPU backend: one per slot in flight
  engine::Buffer capture_;                              // screenshot readback
  OrbitCamera camera_;
  bool wireframe_ = false;
  uint64_t frame_ = 0;
  bool running_ = true;
  bool stepOnce_ = false;
  bool screenshotRequested_ = false;
  bool resized_ = false;
  Drag drag_ = Drag::None;
  glm::vec2 lastCursor_{0.f};
  glm::vec3 grabAnchor_{0.f};
  int screenshotCount_ = 0;

  friend struct ViewerCallbacks;
};

}  // namespace weft
