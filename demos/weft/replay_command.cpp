#include "demos/weft/replay_command.h"

#include <cstdio>

#include "demos/common/demo_scene.h"
#include "demos/render/camera.h"
#include "demos/render/cloth_renderer.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/model/kinematics.h"
#include "solver/io/recording.h"

namespace weft {
int replayCommand(const ReplayOptions& options) {
  RecordingReader recording(options.path);
  const RecordingHeader& h = recording.header();
  if (h.frameCount == 0) throw InputError("recording '" + options.path + "' holds no frames");
  // Frame numbers are uint32, as the header's count: no int arithmetic, which overflows at 2^31.
  if (options.frame >= int64_t{h.frameCount})
    throw InputError("--frame " + std::to_string(options.frame) + " is past the recording's last frame (" +
                     std::to_string(h.frameCount - 1) + ")");
  const uint32_t frame = options.frame < 0 ? h.frameCount - 1 : static_cast<uint32_t>(options.frame);
  std::vector<glm::vec4> positions = recording.frame(frame);
  std::vector<ColliderDesc> colliders;
  CameraDesc camera = fitCamera(positions);
  if (!options.scenePath.empty()) {  // read first, with or without --png: a wrong file fails at once
    const DemoScene demo = loadDemoScene(options.scenePath);
    colliders = collidersAtTime(demo.scene.colliders, frame * double(h.frameDt));
    camera = demo.camera;
  }
  // The counts are the shown frame's: a tearing cloth's grow as it tears.
  const RecordedTopology topology = recording.topology(frame);
  std::printf("weft: %s | %u particles, %zu triangles | %u frames of %.4g s (%u substeps each) | frame %u",
              options.path.c_str(), topology.particleCount, topology.triangles.size(), h.frameCount, h.frameDt,
              h.substeps, frame);
  if (recording.topologyChanges())
    std::printf(" | %u topology changes, from %u particles and %u triangles at frame 0",
                recording.topologyChanges(), h.particleCount, h.triangleCount);
  std::printf("\n");
  if (options.pngPath.empty()) return 0;

  engine::Context context(engine::ContextOptions{.deviceName = options.device});
  engine::ShaderLibrary shaders;
  ClothRenderer renderer(context, shaders, recordedCloth(topology, positions), kPngWidth, kPngHeight);
  renderer.render(positions, colliders, camera);
  renderer.savePng(options.pngPath);
  return 0;
}

}  // namespace weft
