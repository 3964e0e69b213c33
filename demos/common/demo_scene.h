#pragma once
// What the demos read from a scene file beside the cloth: where the camera looks, how many frames
// `weft run` simulates, and the range the viewer's calibration searches. The cloth's reader
// (solver/model/scene.h) accepts these keys unread and this one reads them from the same parsed file, so
// a scene stays one file and every message still names it and the key (docs/scene-format.md).
#include <optional>
#include <string>

#include "demos/common/camera_desc.h"
#include "demos/common/grid_calibration.h"
#include "solver/io/scene_reader.h"
#include "solver/model/scene.h"

namespace weft {

// Frames a run may simulate, for scene files and --frames alike: 4.6 h of 60 fps, far above what a
// demo needs and low enough that a typo is refused instead of running for hours.
constexpr int kMaxFrames = 1000000;

struct DemoScene {
  Scene scene;
  CameraDesc camera;                           // "camera"
  int frames = 120;                            // "solver.frames": frames `weft run` simulates
  std::optional<CalibrationSpec> calibration;  // "calibration": the viewer measures for a grid size
};

// loadScene and parseScene with the demos' keys too; the same InputError sentences.
DemoScene loadDemoScene(const std::string& path);
DemoScene parseDemoScene(const std::string& jsonText, const std::string& baseDir, const std::string& sourceName);

}  // namespace weft
