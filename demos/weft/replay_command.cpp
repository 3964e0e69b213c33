#include "demos/weft/replay_command.h"

#include <cstdio>

#include "demos/render/cloth_renderer.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/recording.h"

namespace weft {
namespace {

// Frames the positions' bounding box from the front-right and a little above.
CameraDesc fitCamera(const std::vector<glm::vec4>& positions) {
  glm::vec3 lo(positions[0]), hi(positions[0]);
  for (const glm::vec4& p : positions) {
    lo = glm::min(lo, glm::vec3(p));
    hi = glm::max(hi, glm::vec3(p));
  }
  glm::vec3 center = 0.5f * (lo + hi);
  float extent = std::max(glm::length(hi - lo), 0.1f);
  CameraDesc camera;
  camera.target = center;
  camera.eye = center + extent * glm::vec3(0.7f, 0.45f, 1.1f);
  return camera;
}

}  // namespace

int replayCommand(const ReplayOptions& options) {
  RecordingReader recording(options.path);
  const RecordingHeader& h = recording.header();
  if (h.frameCount == 0) throw InputError("recording '" + options.path + "' holds no frames");
  int frame = options.frame < 0 ? static_cast<int>(h.frameCount) - 1 : options.frame;
  if (frame >= static_cast<int>(h.frameCount))
    throw InputError("--frame " + std::to_string(frame) + " is past the recording's last frame (" +
                     std::to_string(h.frameCount - 1) + ")");
  std::vector<glm::vec4> positions = recording.frame(static_cast<uint32_t>(frame));
  std::printf("weft: %s | %u particles, %u triangles | %u frames of %.4g s (%u substeps each) | frame %d\n",
              options.path.c_str(), h.particleCount, h.triangleCount, h.frameCount, h.frameDt, h.substeps, frame);
  if (options.pngPath.empty()) return 0;

  engine::Context context(engine::ContextOptions{.deviceName = options.device});
  engine::ShaderLibrary shaders;
  ClothModel model;  // what the renderer needs: the particles and the triangles
  model.positions.resize(h.particleCount);
  for (size_t i = 0; i < positions.size(); ++i) model.positions[i] = glm::vec3(positions[i]);
  model.triangles = recording.triangles();
  model.masses.assign(h.particleCount, 1.f);
  model.pinned.assign(h.particleCount, 0);
  ClothRenderer renderer(context, shaders, model, 1280, 720);
  renderer.render(positions, {}, fitCamera(positions));
  renderer.savePng(options.pngPath);
  return 0;
}

}  // namespace weft
