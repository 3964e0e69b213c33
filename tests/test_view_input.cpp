// `weft view` driven through the X server, as a user drives it: xdotool moves the pointer, presses
// the button and keys, and resizes the window on an Xvfb display. The viewer opens paused on the
// hanging scene, a particle is grabbed and dragged, the simulation is started with the key, the
// particle is released, the window resized and a screenshot taken with P. The recording made
// meanwhile says where the particle was every frame, which the test compares with the drag target
// computed from the same camera and pixels. Skipped where xvfb-run or xdotool is not installed.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "demos/common/demo_scene.h"
#include "demos/render/camera.h"
#include "demos/view/orbit_camera.h"
#include "solver/io/recording.h"
#include "solver/model/scene.h"
#include "tests/view_run.h"

namespace weft {
namespace {

using namespace view_test;

bool haveXdotool() { return std::system("command -v xdotool >/dev/null 2>&1") == 0; }

// Where pickParticle sees particle i: its projection in pixels, rounded to the pixel the pointer goes to.
glm::ivec2 particlePixel(const std::vector<glm::vec4>& positions, uint32_t i, const CameraDesc& camera,
                         glm::vec2 viewport) {
  glm::vec4 clip = viewProjection(camera, viewport.x / viewport.y) * glm::vec4(glm::vec3(positions[i]), 1.f);
  glm::vec2 at = (glm::vec2(clip) / clip.w * 0.5f + 0.5f) * viewport;
  return glm::ivec2(glm::round(at));
}

class ViewInput : public ::testing::TestWithParam<const char*> {};

TEST_P(ViewInput, DragHoldsTheGrabbedParticleAtTheTargetUntilReleaseAndTheWindowResizes) {
  if (!haveXvfb() || !haveXdotool()) GTEST_SKIP() << "xvfb-run or xdotool is not installed";
  const glm::vec2 viewport(1280.f, 720.f);  // the window's size before the resize, the whole view (no panel)
  const DemoScene demo = loadDemoScene(scene("hanging.json"));
  const Scene& hanging = demo.scene;
  std::vector<glm::vec4> start;
  for (const glm::vec3& p : hanging.cloth.positions) start.emplace_back(p, 0.f);
  const CameraDesc camera = demo.camera;

  // The pointer goes onto the middle particle of the grid; pickParticle chooses among the particles
  // within its radius, as the viewer will, and the drag moves 150 pixels down.
  const uint32_t w = hanging.cloth.gridWidth, h = hanging.cloth.gridHeight;
  const glm::ivec2 press = particlePixel(start, (h / 2) * w + w / 2, camera, viewport);
  const glm::ivec2 release = press + glm::ivec2(0, 150);
  std::optional<uint32_t> picked = pickParticle(start, camera, viewport, glm::vec2(press));
  ASSERT_TRUE(picked.has_value());
  const glm::vec3 target = dragTarget(camera, pixelRay(camera, viewport, glm::vec2(release)), glm::vec3(start[*picked]));
  ASSERT_GT(glm::distance(target, glm::vec3(start[*picked])), 0.1f);

  const fs::path dir = tempPath(std::string("input_") + GetParam());
  fs::create_directories(dir);
  const fs::path recording = dir / "grab.weftrec", screenshot = dir / "weft-view-1.png", log = dir / "view.log";
  fs::remove(recording);
  fs::remove(screenshot);
  const std::string x = std::to_string(press.x), y = std::to_string(press.y), y2 = std::to_string(release.y);
  std::ofstream(dir / "drive.sh") << "set -e\ncd '" << dir.string() << "'\n"
      << WEFT_BINARY << " view " << scene("hanging.json") << " --backend " << GetParam()
      << " --no-panel --paused --record-now --record " << recording.string() << " --validate > " << log.string()
      << " 2>&1 &\n"
      << "viewer=$!\n"
      << "wid=$(timeout 60 xdotool search --sync --name 'weft view')\n"
      << "sleep 2\n"  // the first frames: pipelines, ImGui
      << "xdotool mousemove --window $wid " << x << " " << y << "; sleep 0.5\n"
      << "xdotool mousedown 1; sleep 0.5\n"
      << "xdotool mousemove --window $wid " << x << " " << y2 << "; sleep 0.5\n"
      << "xdotool key space; sleep 2\n"       // run, the particle held
      << "xdotool mouseup 1; sleep 2\n"       // released: it falls with the cloth
      << "xdotool windowsize $wid 900 500; sleep 1\n"
      << "xdotool key p; sleep 1\n"
      << "xdotool key Escape\n"
      << "wait $viewer\n";
  Result r = shell("timeout 180 " + onXvfb("bash " + (dir / "drive.sh").string()));
  std::ifstream logFile(log);
  const std::string output((std::istreambuf_iterator<char>(logFile)), std::istreambuf_iterator<char>());
  ASSERT_EQ(r.exitCode, 0) << r.output << output;
  expectNoValidationMessage({0, output});

  // Every frame the button held (the first ones after the key) has the particle at the target, to
  // 0.1 mm: a twentieth of a pixel here, the float error of unprojecting the pointer's ray. After
  // the release it moves on.
  RecordingReader reader(recording.string());
  const uint32_t frames = reader.header().frameCount;
  ASSERT_GE(frames, 6u) << output;
  uint32_t held = 0;
  for (uint32_t k = 0; k < frames && glm::distance(glm::vec3(reader.frame(k)[*picked]), target) < 1e-4f; ++k) ++held;
  EXPECT_GE(held, 2u) << "frames " << frames;
  EXPECT_LT(held, frames);
  const glm::vec3 last(reader.frame(frames - 1)[*picked]);
  EXPECT_GT(glm::distance(last, target), 0.01f) << "still at the target after the release";
  // Released, not pinned elsewhere: between the last two frames it still moves.
  EXPECT_GT(glm::distance(last, glm::vec3(reader.frame(frames - 2)[*picked])), 1e-5f);

  // P after the resize wrote the window at its new size, cloth in it.
  Screenshot shot = loadPng(screenshot);
  ASSERT_TRUE(shot) << output;
  EXPECT_EQ(shot.width, 900);
  EXPECT_EQ(shot.height, 500);
  int cloth = 0;
  for (int i = 0; i < shot.width * shot.height; ++i) cloth += isCloth(shot.pixels() + 4 * i);
  EXPECT_GT(cloth, 2000);
}

INSTANTIATE_TEST_SUITE_P(Backends, ViewInput, ::testing::Values("gpu", "cpu"));

}  // namespace
}  // namespace weft
