#pragma once
// The windowed viewer: owns the window, swapchain, frame ring, ImGui and the panes (one live
// simulation, two side by side, or a recording played back), runs the frame loop and turns input
// into camera moves, solver control and particle grabs.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "demos/common/camera_desc.h"
#include "demos/common/grid_calibration.h"
#include "demos/render/scene_drawer.h"
#include "demos/view/frame_recorder.h"
#include "demos/view/frame_ring.h"
#include "demos/view/imgui_layer.h"
#include "demos/view/live_simulation.h"
#include "demos/view/orbit_camera.h"
#include "demos/view/perf_history.h"
#include "demos/view/replay_clock.h"
#include "demos/view/swapchain.h"
#include "demos/view/view_command.h"
#include "demos/view/window.h"
#include "engine/buffer.h"
#include "engine/context.h"
#include "engine/gpu_timer.h"
#include "engine/shader_library.h"
#include "solver/io/recording.h"
#include "solver/model/scene.h"

namespace weft {

constexpr float kPanelWidth = 340.f;               // pixels
constexpr float kPanelColumn = kPanelWidth + 20.f;  // the panel with its margins

// One image region of the window and what it shows.
struct Pane {
  std::unique_ptr<LiveSimulation> sim;  // null when replaying
  SceneDrawer drawer;
  std::array<engine::Buffer, kFramesInFlight> uploads;  // host positions drawn: CPU backend, replay
  std::array<engine::Buffer, kFramesInFlight> markUploads;  // host contact marks drawn: CPU backend, made when first drawn
  std::array<engine::GpuTimer, kFramesInFlight> timers;
  std::array<PassTimes, kFramesInFlight> hostPasses;  // passes of a host advance() in that slot's frame
  std::array<bool, kFramesInFlight> advanced{};       // the slot's frame stepped the simulation
  PerfHistory history;
  std::vector<glm::vec4> hostPositions, hostVelocities;
  // The topology the drawer and uploads were made for (a tearing cloth changes it).
  const Solver* drawnSolver = nullptr;
  uint64_t drawnTopology = 0;
};

// What the viewer shows, decided by the command line.
struct ViewContent {
  Scene scene;                                  // live scene, or the colliders for a replay
  CameraDesc camera;                            // where the view starts
  std::optional<CalibrationSpec> calibration;   // live: the grid size is measured for
  Backend backend = Backend::Gpu;
  struct PaneSolver {
    Integrator integrator;
    int substeps;  // per frame
  };
  std::vector<PaneSolver> solvers;              // one per pane (live: one; compare: two)
  std::unique_ptr<RecordingReader> recording;   // replay mode
  std::string gridNote;                         // how the grid size was chosen, for the panel
};

class Viewer {
 public:
  // The context must have been made with the window's instance extensions and VK_KHR_swapchain.
  Viewer(engine::Context& context, const engine::ShaderLibrary& shaders, ViewContent content,
         const ViewOptions& options);
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;

  // Runs until the window closes, Esc, or options.frames frames. Returns the exit status.
  int run();

 private:
  enum class Drag { None, Orbit, Pan, Grab, Cut };

  // One frame: gather the finished slot's timings, build the panel, simulate (if running), record,
  // submit, present. False when the swapchain had to be recreated before anything was drawn.
  bool drawFrame(bool capture, double frameMs);
  void collectSlot(uint64_t frame, double frameMs);
  void advanceOnHost();
  // A tearing cloth's drawer and upload buffers, made again when its particles or triangles changed.
  void followTopology(Pane& pane);
  // Cuts the cloth of pane dragPane_ along the screen segment from `from` to `to` (pixels).
  void cutAlong(glm::vec2 from, glm::vec2 to);
  void recordFrame(VkCommandBuffer cmd, uint32_t image, bool capture);
  void recordCapture(VkCommandBuffer cmd, uint32_t image);
  void saveCapture(const std::string& path) const;
  // What pane `p` draws from this frame: the GPU solver's buffer, or the slot's upload buffer
  // holding the CPU state or the replayed frame.
  const engine::Buffer& positionsFor(Pane& pane, uint64_t frame);
  // The contact marks pane `p` draws this frame, when drawing contacts: the GPU solver's buffer, or
  // the slot's upload buffer holding the CPU solver's. Null when not drawing them, when the scene has
  // no contact, and in a replay (recordings hold positions only).
  const engine::Buffer* contactMarksFor(Pane& pane, uint64_t frame);
  glm::vec4 paneRect(size_t p) const;  // x, y, width, height in framebuffer pixels
  CameraDesc paneCamera(size_t p) const;
  bool replaying() const { return content_.recording != nullptr; }
  bool simulating() const { return (running_ || stepOnce_) && !replaying(); }
  void reset();
  void startRecording();
  void stopRecording();

  // The panel and the labels (viewer_panel.cpp).
  void drawPanel();
  void drawSimulationControls();
  void drawParameters();
  void drawReplayControls();
  void drawContactLegend() const;  // what the contact overlay's colours mean
  void drawTimings();
  void drawPaneLabels();
  std::string paneTitle(size_t p) const;

  // Input (viewer_input.cpp).
  void installCallbacks();
  void onKey(int key, int action, int mods);
  void onMouseButton(int button, int action, int mods);
  void onCursor(glm::vec2 pixel);
  void onScroll(double steps);
  glm::vec2 toPixel(glm::dvec2 windowPoint) const;  // window coordinates to framebuffer pixels
  std::optional<size_t> paneAt(glm::vec2 pixel) const;

  engine::Context& context_;
  const engine::ShaderLibrary& shaders_;
  ViewContent content_;
  ViewOptions options_;
  Window window_;
  Swapchain swapchain_;
  std::vector<Pane> panes_;  // after the swapchain: their pipelines are made for its render pass
  FrameRing frames_;
  std::unique_ptr<ImguiLayer> imgui_;
  std::optional<ReplayClock> clock_;
  std::unique_ptr<FrameRecorder> recorder_;
  engine::Buffer capture_;  // screenshot readback
  OrbitCamera camera_;
  DrawMode drawMode_ = DrawMode::Shaded;
  bool showPanel_ = true;
  uint64_t frame_ = 0;
  uint32_t replayFrame_ = 0;
  bool running_ = true;
  bool stepOnce_ = false;
  bool screenshotRequested_ = false;
  bool resized_ = false;
  Drag drag_ = Drag::None;
  size_t dragPane_ = 0;
  glm::vec2 lastCursor_{0.f};
  glm::vec3 grabAnchor_{0.f};
  int screenshotCount_ = 0;
  int recordingCount_ = 0;
  SpringMaterial editingMaterial_;  // the spring sliders' values until let go
  bool editingMaterialActive_ = false;
  std::string status_;  // last message for the panel (recording written, ...)

  friend struct ViewerCallbacks;
};

}  // namespace weft
