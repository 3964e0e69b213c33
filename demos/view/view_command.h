#pragma once
// `weft view`: a window on a scene, simulated live (GPU solver recorded into the frame's own
// command buffer, or the CPU solver uploaded once per frame), with mouse camera, grab and a panel of
// live parameters; or two integrators side by side (--compare); or a recording played back (--replay).
#include <optional>
#include <string>
#include <vector>

namespace weft {

struct ViewOptions {
  std::string scenePath;       // live and compare modes; with --replay only its camera and colliders
  std::string replayPath;      // play this recording back instead of simulating
  std::string compare;         // "A,B": two integrators side by side; "A:128,B:2" with their own substeps
  std::optional<std::string> backend;
  std::optional<std::string> integrator;
  std::optional<int> grid;     // N: an N x N grid instead of the scene's (grid scenes only)
  std::string recordPath;      // where the record button writes (default weft-view-K.weftrec)
  std::string device;
  bool validate = false;
  std::optional<int> frames;   // render this many frames, then exit (unattended); else until closed
  std::string screenshotPath;  // PNG of the last frame (with --frames) or of each P press
  bool wireframe = false;      // start in wireframe (the W key cycles the draw modes)
  std::string draw;            // start in this draw mode: shaded, wireframe, springs or contacts
  bool panel = true;           // show the panel (H toggles it)
  bool recordFromStart = false;  // start recording on the first frame (--record-now)
  bool paused = false;           // open with the simulation paused (space starts it)
  // Samples per pixel wanted: 1 (off), 2, 4 or 8; the device may offer fewer. Unset: 4 on a GPU, 1 on
  // a CPU device such as lavapipe, where 4x nearly doubles the draw (4.7 to 9.3 ms at 1280 x 720).
  std::optional<int> msaa;
  int width = 1280;
  int height = 720;
};

// Exit status: 0 done, 1 bad input or no display (message printed), 4 validation messages appeared.
int viewCommand(const ViewOptions& options);

constexpr int kNoDisplayExit = 1;
constexpr const char* kNoDisplayMessage = "weft view needs a display; use weft run --png for a headless image";

}  // namespace weft
