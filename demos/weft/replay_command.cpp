#include "demos/weft/replay_command.h"

#include <cstdio>

#include "demos/render/camera.h"
#include "demos/render/cloth_renderer.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/recording.h"

namespace weft {
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
  ClothRenderer renderer(context, shaders, recordedCloth(recording, positions), 1280, 720);
  renderer.render(positions, {}, fitCamera(positions));
  renderer.savePng(options.pngPath);
  return 0;
}

}  // namespace weft
