#pragma once
// `weft view`: a window on a scene, simulated live (GPU solver recorded into the frame's own
// command buffer, or the CPU solver uploaded once per frame), with mouse camera and grab.
#include <optional>
#include <string>

namespace weft {

struct ViewOptions {
  std::string scenePath;
  std::optional<std::string> backend;
  std::optional<std::string> integrator;
  std::string device;
  bool validate = false;
  std::optional<int> frames;   // render this many frames, then exit (unattended); else until closed
  std::string screenshotPath;  // PNG of the last frame (with --frames) or of each P press
  bool wireframe = false;      // start in wireframe (the W key toggles it)
  int width = 1280;
  int height = 720;
};

// Exit status: 0 done, 1 bad input or no display (message printed), 4 validation messages appeared.
int viewCommand(const ViewOptions& options);

constexpr int kNoDisplayExit = 1;
constexpr const char* kNoDisplayMessage = "weft view needs a display; use weft run --png for a headless image";

}  // namespace weft
