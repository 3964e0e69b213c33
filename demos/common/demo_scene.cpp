// The demos' keys of a scene file, read after the cloth's so that a file with several mistakes
// reports the same first one as when one reader read everything.
#include "demos/common/demo_scene.h"

#include "solver/io/scene_json.h"

namespace weft {
namespace {

CalibrationSpec parseCalibration(const JsonSection& s, const Scene& scene) {
  s.allowKeys({"targetFps", "minGrid", "maxGrid"});
  if (!scene.grid) s.fail("", "needs a grid cloth (this one is a mesh)");
  CalibrationSpec c;
  c.targetFps = s.number("targetFps", c.targetFps, Bound::Positive);
  c.minGrid = static_cast<uint32_t>(s.integer("minGrid", static_cast<int>(c.minGrid), 2));
  c.maxGrid = static_cast<uint32_t>(s.integer("maxGrid", static_cast<int>(c.maxGrid), 2));
  if (c.maxGrid > kMaxGridSide) {
    s.fail("maxGrid", "must be at most " + std::to_string(kMaxGridSide) + " particles per side (got " +
                          std::to_string(c.maxGrid) + ")");
  }
  if (c.minGrid > c.maxGrid) {
    s.fail("minGrid", "must not exceed maxGrid (got " + std::to_string(c.minGrid) + " > " +
                          std::to_string(c.maxGrid) + ")");
  }
  return c;
}

CameraDesc parseCamera(const JsonSection& s) {
  s.allowKeys({"eye", "target", "fovY"});
  CameraDesc cam;
  cam.eye = s.vec3("eye", cam.eye);
  cam.target = s.vec3("target", cam.target);
  cam.fovYDegrees = s.number("fovY", cam.fovYDegrees);
  if (!(cam.fovYDegrees > 0.f && cam.fovYDegrees < 180.f)) {
    s.fail("fovY", "must be between 0 and 180 degrees, exclusive (got " + shownNumber(cam.fovYDegrees) + ")");
  }
  if (cam.eye == cam.target) s.fail("", "eye and target must differ");
  return cam;
}

DemoScene readDemoScene(const SceneDocument& document) {
  static const ForeignKeys kDemoKeys{{"camera", "calibration"}, {"frames"}};
  DemoScene demo;
  demo.scene = readScene(document, kDemoKeys);
  const JsonSection top = document.top();
  if (top.has("solver")) demo.frames = top.child("solver").integer("frames", demo.frames, 1, kMaxFrames);
  if (top.has("camera")) demo.camera = parseCamera(top.child("camera"));
  if (top.has("calibration")) demo.calibration = parseCalibration(top.child("calibration"), demo.scene);
  return demo;
}

}  // namespace

DemoScene loadDemoScene(const std::string& path) { return readDemoScene(loadSceneDocument(path)); }

DemoScene parseDemoScene(const std::string& jsonText, const std::string& baseDir, const std::string& sourceName) {
  return readDemoScene(parseSceneDocument(jsonText, baseDir, sourceName));
}

}  // namespace weft
