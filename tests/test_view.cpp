// The viewer: its camera and picking geometry (headless), and `weft view` end to end under Xvfb —
// an unattended run with the validation layer writes a screenshot with the cloth where the camera
// looks, and without a display the command says so in one sentence and exits 1. The Xvfb tests are
// skipped where xvfb-run is not installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "demos/render/camera.h"
#include "demos/render/palette.h"
#include "demos/render/scene_drawer.h"
#include "demos/view/orbit_camera.h"
#include "demos/view/view_command.h"
#include "solver/io/recording.h"
#include "tests/view_run.h"

namespace weft {
namespace {

using namespace view_test;
using ::testing::HasSubstr;
using ::testing::Not;

// ---- camera and picking, no window needed ----

TEST(OrbitCamera, StartsWhereTheSceneCameraIsAndOrbitKeepsTheDistance) {
  CameraDesc start;
  start.eye = {1.f, 2.f, 3.f};
  start.target = {0.f, 0.5f, 0.f};
  OrbitCamera camera(start);
  EXPECT_LT(glm::distance(camera.desc().eye, start.eye), 1e-5f);
  float distance = glm::distance(start.eye, start.target);
  camera.orbit({120.f, -40.f});
  EXPECT_NEAR(glm::distance(camera.desc().eye, camera.desc().target), distance, 1e-4f);
  EXPECT_GT(glm::distance(camera.desc().eye, start.eye), 0.1f);
  camera.zoom(2.f);
  EXPECT_NEAR(glm::distance(camera.desc().eye, camera.desc().target), distance * 0.81f, 1e-4f);
}

TEST(OrbitCamera, PanMovesTheTargetAcrossTheView) {
  OrbitCamera camera(CameraDesc{});
  glm::vec3 before = camera.desc().target;
  camera.pan({100.f, 0.f}, 720.f);  // drag right: the scene follows the mouse, the target moves left
  CameraDesc after = camera.desc();
  glm::vec3 right = glm::normalize(glm::cross(after.target - after.eye, glm::vec3(0.f, 1.f, 0.f)));
  EXPECT_LT(glm::dot(after.target - before, right), -0.01f);
}

TEST(Picking, RayThroughAProjectedPointHitsItAndPickPrefersTheNearerParticle) {
  CameraDesc camera;
  const glm::vec2 viewport(640.f, 480.f);
  const glm::vec3 point(0.2f, 0.3f, -0.1f);
  glm::vec4 clip = viewProjection(camera, viewport.x / viewport.y) * glm::vec4(point, 1.f);
  glm::vec2 pixel = (glm::vec2(clip) / clip.w * 0.5f + 0.5f) * viewport;
  Ray ray = pixelRay(camera, viewport, pixel);
  glm::vec3 toPoint = point - ray.origin;
  EXPECT_LT(glm::length(toPoint - glm::dot(toPoint, ray.direction) * ray.direction), 1e-4f);

  // A particle behind `point` on the same ray, and one far off: the nearer of the two on the ray wins.
  glm::vec3 behind = point + 0.5f * ray.direction;
  std::vector<glm::vec4> positions = {{behind, 1.f}, {point, 1.f}, {2.f, 2.f, 2.f, 1.f}};
  EXPECT_EQ(pickParticle(positions, camera, viewport, pixel), 1u);
  EXPECT_FALSE(pickParticle(positions, camera, viewport, pixel + glm::vec2(100.f, 0.f)).has_value());

  // Dragging keeps the particle at its depth: the target lies in the plane through it facing the camera.
  glm::vec3 target = dragTarget(camera, pixelRay(camera, viewport, pixel + glm::vec2(40.f, -30.f)), point);
  glm::vec3 forward = glm::normalize(camera.target - camera.eye);
  EXPECT_NEAR(glm::dot(target - point, forward), 0.f, 1e-4f);
  EXPECT_GT(glm::distance(target, point), 0.05f);
}

// ---- weft view end to end ----

// The share of cloth-coloured pixels in the 64 x 64 box centred on (cx, cy).
double clothShare(const unsigned char* pixels, int w, int cx, int cy) {
  int cloth = 0, total = 0;
  for (int y = cy - 32; y < cy + 32; ++y)
    for (int x = cx - 32; x < cx + 32; ++x, ++total) cloth += isCloth(&pixels[(size_t(y) * w + x) * 4]);
  return double(cloth) / total;
}

void expectClothInTheMiddle(const fs::path& png) {
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr) << "cannot read " << png;
  EXPECT_EQ(w, 1280);
  EXPECT_EQ(h, 720);
  EXPECT_GT(clothShare(pixels, w, w / 2, h / 2), 0.9) << "centre pixels are not cloth-coloured";
  // The top-left corner is sky, in the same colour as the offscreen renderer's.
  glm::ivec3 sky = glm::ivec3(glm::round(palette::kSky * 255.f));
  const unsigned char* corner = &pixels[(size_t(4) * w + 4) * 4];
  EXPECT_NEAR(corner[0], sky.r, 2);
  EXPECT_NEAR(corner[1], sky.g, 2);
  EXPECT_NEAR(corner[2], sky.b, 2);
  stbi_image_free(pixels);
}

class ViewUnderXvfb : public ::testing::TestWithParam<const char*> {};

TEST_P(ViewUnderXvfb, UnattendedRunWritesAScreenshotWithTheClothAndNoValidationMessage) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  fs::path png = tempPath(std::string("view_") + GetParam() + ".png");
  fs::remove(png);
  Result r = shell(underXvfb("view " + scene("hanging.json") + " --frames 30 --screenshot " + png.string() +
                             " --validate --backend " + GetParam()));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  expectNoValidationMessage(r);
  ASSERT_TRUE(fs::exists(png)) << r.output;
  expectClothInTheMiddle(png);
}

INSTANTIATE_TEST_SUITE_P(Backends, ViewUnderXvfb, ::testing::Values("gpu", "cpu"));

// A tearing cloth changes its particle count and triangles while the viewer draws it: the drawer and
// the upload buffers are made again, with no validation message, and the torn cloth is drawn.
TEST_P(ViewUnderXvfb, ATearingClothIsDrawnAsItTears) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  // The run's own count of its tears at the same frame: the cloth does tear by then.
  const fs::path stats = tempPath(std::string("tear_") + GetParam() + ".json");
  Result run = shell(std::string(WEFT_BINARY) + " run " + scene("tear.json") + " --frames 60 --quiet --backend " +
                     GetParam() + " --stats " + stats.string());
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_GT(nlohmann::json::parse(std::ifstream(stats))["tearing"]["finalParticles"].get<int>(), 48 * 48) << run.output;
  fs::path png = tempPath(std::string("view_tear_") + GetParam() + ".png");
  fs::remove(png);
  Result r = shell(underXvfb("view " + scene("tear.json") + " --frames 60 --no-panel --screenshot " + png.string() +
                             " --validate --backend " + GetParam()));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  expectNoValidationMessage(r);
  Screenshot shot = loadPng(png);
  ASSERT_TRUE(shot);
  EXPECT_GT(clothShare(shot.pixels(), shot.width, shot.width / 2, shot.height / 2), 0.5);
}


// The pixels of `weft view ARGS --validate --screenshot NAME` under Xvfb; empty (with the failure
// recorded) when the run failed or reported a validation message.
Screenshot viewScreenshot(const std::string& args, const std::string& name) {
  fs::path png = tempPath(name);
  fs::remove(png);
  Result r = shell(underXvfb("view " + args + " --validate --screenshot " + png.string()));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  expectNoValidationMessage(r);
  if (r.exitCode != 0) return {};
  return loadPng(png);
}

// The pixels of `shot` in `colour` within one level: flat colours drawn without multisampling carry
// the palette's values exactly.
int pixelsOfColour(const Screenshot& shot, glm::vec3 colour) {
  const glm::ivec3 c = glm::ivec3(glm::round(colour * 255.f));
  int n = 0;
  for (int i = 0; i < shot.width * shot.height; ++i) {
    const unsigned char* p = shot.pixels() + 4 * i;
    n += std::abs(p[0] - c.r) <= 1 && std::abs(p[1] - c.g) <= 1 && std::abs(p[2] - c.b) <= 1;
  }
  return n;
}

TEST(View, SpringsDrawModeShowsEachFamilyAndTheParticlesInTheirColours) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  Screenshot shot =
      viewScreenshot(scene("hanging.json") + " --draw springs --no-panel --msaa 1 --frames 20", "view_springs.png");
  ASSERT_TRUE(shot);
  const unsigned char* pixels = shot.pixels();
  const int w = shot.width, h = shot.height;
  auto count = [&](glm::vec3 colour) { return pixelsOfColour(shot, colour); };
  EXPECT_GT(count(palette::kStructural), 500);
  EXPECT_GT(count(palette::kShear), 500);
  EXPECT_GT(count(palette::kBend), 100);
  EXPECT_GT(count(palette::kParticle), 500);
  EXPECT_LT(clothShare(pixels, w, w / 2, h / 2), 0.2);  // no shaded surface under the diagram
}

// The contact overlay on the pile: a strip hanging upright has nothing near it in its first frame
// (its grid's own primitives are farther apart than the radius), so no particle is marked; once it
// lies folded on the floor, its layers are marked near and pushed apart.
TEST(View, ContactsDrawModeMarksTheParticlesThatContactTouched) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const std::string args = scene("drop_pile.json") + " --backend cpu --draw contacts --no-panel --msaa 1 --frames ";
  Screenshot hanging = viewScreenshot(args + "1", "view_contacts1.png");
  Screenshot piled = viewScreenshot(args + "90", "view_contacts90.png");
  ASSERT_TRUE(hanging);
  ASSERT_TRUE(piled);
  for (const ContactMarkKey& key : contactMarkKeys()) EXPECT_EQ(pixelsOfColour(hanging, key.color), 0) << key.meaning;
  EXPECT_GT(pixelsOfColour(piled, palette::kContactNear), 500);
  EXPECT_GT(pixelsOfColour(piled, palette::kContactPushed), 100);
}

// Pixels of a one-pixel structural spring over the sky that mix the two colours, a fraction t of
// the spring's: with one sample a pixel is either colour, with 4x its share of covered samples.
int skyBlendedPixels(const Screenshot& shot) {
  const glm::vec3 sky = palette::kSky * 255.f, line = palette::kStructural * 255.f;
  const glm::vec3 span = line - sky;
  int n = 0;
  for (int i = 0; i < shot.width * shot.height; ++i) {
    const unsigned char* p = shot.pixels() + 4 * i;
    glm::vec3 c(p[0], p[1], p[2]);
    float t = glm::dot(c - sky, span) / glm::dot(span, span);
    n += t > 0.2f && t < 0.8f && glm::distance(c, sky + t * span) < 3.f;
  }
  return n;
}

TEST(View, MultisamplingBlendsEdgesWithTheirCoverage) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  // The same deterministic frame drawn with one sample and with four (lavapipe offers 4x).
  const std::string args = scene("hanging.json") + " --draw springs --no-panel --frames 20 --msaa ";
  Screenshot single = viewScreenshot(args + "1", "view_msaa1.png");
  Screenshot four = viewScreenshot(args + "4", "view_msaa4.png");
  ASSERT_TRUE(single);
  ASSERT_TRUE(four);
  const int aliased = skyBlendedPixels(single), smoothed = skyBlendedPixels(four);
  EXPECT_LT(aliased, 20);
  EXPECT_GT(smoothed, 300) << "with one sample: " << aliased;
}

// A compare screenshot: each half is a full view of the scene, the cloth in the middle of both, and
// between the halves, at the bottom, ground rather than cloth.
void expectClothInBothPanes(const Screenshot& shot) {
  const unsigned char* pixels = shot.pixels();
  const int w = shot.width, h = shot.height;
  EXPECT_GT(clothShare(pixels, w, w / 4, h / 2), 0.9);
  EXPECT_GT(clothShare(pixels, w, 3 * w / 4, h / 2), 0.9);
  EXPECT_LT(clothShare(pixels, w, w / 2, h - 40), 0.05);
}

TEST(View, CompareDrawsBothIntegratorsSideBySide) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  Screenshot shot =
      viewScreenshot(std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json --compare verlet,implicit-cg --no-panel --frames 30",
                     "view_compare.png");
  ASSERT_TRUE(shot);
  expectClothInBothPanes(shot);
}

// imex and the co-rotational membrane and quadratic hinges in compare mode: the integrator comes
// from the one name table, the kinds from the scene, and both panes draw the cloth where the
// hanging scene's panes do. imex takes the elastic forces explicitly: at Y = 200 N/m and 4 substeps
// (omega h about 2.5) it blew up; Y = 20 N/m at 16 substeps (omega h about 0.2) holds.
TEST(View, CompareRunsImexWithTheCorotationalAndQuadraticKinds) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  fs::path file = tempPath("compare_kinds.json");
  {
    std::ofstream out(file);
    out << R"({"cloth": {"grid": {"width": 24, "height": 24, "size": [1.0, 1.0], "origin": [-0.5, 1.5, 0.0]},
                         "totalMass": 0.3},
              "material": {"damping": 0.5},
              "membrane": {"model": "corotational", "youngModulus": 20, "poissonRatio": 0.3},
              "bending": {"model": "quadratic", "modulus": 1e-4},
              "pins": {"corners": 2},
              "colliders": [{"type": "plane", "normal": [0, 1, 0], "offset": 0}],
              "solver": {"integrator": "implicit-cg", "dt": 0.0166667, "substeps": 2},
              "camera": {"eye": [1.3, 1.35, 2.0], "target": [0.0, 1.05, 0.2], "fovY": 45}})";
  }
  Screenshot shot = viewScreenshot(file.string() + " --compare imex:16,implicit-cg --no-panel --frames 20", "view_compare_kinds.png");
  ASSERT_TRUE(shot);
  expectClothInBothPanes(shot);
}

TEST(View, RecordNowWritesTheFramesWeftRunComputesBitForBit) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  fs::path viewed = tempPath("viewed.weftrec"), ran = tempPath("ran.weftrec");
  fs::remove(viewed);
  Result v = shell(underXvfb("view " + scene("hanging.json") + " --record-now --record " + viewed.string() +
                             " --frames 12 --validate"));
  ASSERT_EQ(v.exitCode, 0) << v.output;
  expectNoValidationMessage(v);
  Result run = shell(std::string(WEFT_BINARY) + " run " + scene("hanging.json") + " --frames 12 --record " + ran.string());
  ASSERT_EQ(run.exitCode, 0) << run.output;
  RecordingReader a(viewed.string()), b(ran.string());
  ASSERT_EQ(a.header().frameCount, 12u);  // every simulated frame, the last ones collected at exit
  ASSERT_EQ(b.header().frameCount, 13u);  // weft run also keeps the start
  EXPECT_EQ(a.header().particleCount, b.header().particleCount);
  EXPECT_EQ(a.triangles(), b.triangles());
  for (uint32_t k = 0; k < 12; ++k) EXPECT_EQ(a.frame(k), b.frame(k + 1)) << "frame " << k;
}

TEST(View, ReplayPlaysARecordingWithoutASolver) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  fs::path recording = tempPath("replayed.weftrec");
  Result run = shell(std::string(WEFT_BINARY) + " run " + scene("hanging.json") + " --frames 20 --record " +
                     recording.string());
  ASSERT_EQ(run.exitCode, 0) << run.output;
  Screenshot shot = viewScreenshot("--replay " + recording.string() + " --no-panel --frames 6", "view_replay.png");
  ASSERT_TRUE(shot);
  EXPECT_GT(clothShare(shot.pixels(), shot.width, shot.width / 2, shot.height / 2), 0.5);  // framed by the camera
}

// A calibrated scene: the viewer measures grid sizes on this device and simulates the largest whose
// frame fits the budget (a low frame rate here, so lavapipe has sizes on both sides of it).
TEST(View, CalibrationSimulatesTheLargestGridItMeasuredWithinTheBudget) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  fs::path file = tempPath("calibrated.json");
  {
    std::ofstream out(file);
    out << R"({"cloth": {"grid": {"width": 64, "height": 64, "size": [1.0, 1.0], "origin": [-0.5, 1.0, -0.5]},
                         "arealDensity": 0.3},
              "colliders": [{"type": "plane", "normal": [0, 1, 0], "offset": 0}],
              "solver": {"integrator": "verlet", "substeps": 8, "iterations": 10},
              "calibration": {"targetFps": 10, "minGrid": 16, "maxGrid": 512}})";
  }
  Result r = shell(underXvfb("view " + file.string() + " --frames 2 --no-panel --validate"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  expectNoValidationMessage(r);
  const double budget = 1000.0 / 10.0 * 0.8;  // kCalibrationHeadroom of the frame
  std::istringstream lines(r.output);
  std::string line;
  unsigned chosen = 0, largestWithin = 0, n = 0;
  double ms = 0.0;
  int measured = 0;
  while (std::getline(lines, line)) {
    if (std::sscanf(line.c_str(), "weft:   %u x %*u: %lf ms per frame", &n, &ms) == 2) {
      ++measured;
      if (ms <= budget) largestWithin = std::max(largestWithin, n);
    }
    std::sscanf(line.c_str(), "weft: grid %u x", &chosen);
  }
  ASSERT_GT(measured, 0) << r.output;
  EXPECT_LE(measured, 12);
  EXPECT_EQ(chosen, largestWithin == 0 ? 16u : largestWithin) << r.output;
  EXPECT_EQ(chosen % 8, 0u);
}

TEST(View, BadCompareAndReplayArgumentsAreOneSentenceAndExitOne) {
  Result r = shell("env -u DISPLAY " + std::string(WEFT_BINARY) + " view " + scene("hanging.json") + " --compare verlet");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("--compare takes two integrators"));
  r = shell("env -u DISPLAY " + std::string(WEFT_BINARY) + " view " + scene("hanging.json") + " --compare verlet,leapfrog");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("leapfrog"));
  r = shell("env -u DISPLAY " + std::string(WEFT_BINARY) + " view " + scene("hanging.json") +
            " --compare explicit-euler:0,implicit-cg");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("number of substeps from 1 to 4096"));
  r = shell("env -u DISPLAY " + std::string(WEFT_BINARY) + " view --replay " + tempPath("absent.weftrec").string());
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("absent.weftrec"));
  r = shell("env -u DISPLAY " + std::string(WEFT_BINARY) + " view --replay x.weftrec --compare verlet,rk4");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("--replay plays a recording back"));
  r = shell("env -u DISPLAY " + std::string(WEFT_BINARY) + " view " + scene("hanging.json") + " --msaa 3");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("--msaa takes 1 (off), 2, 4 or 8 samples per pixel (got 3)"));
}

TEST(View, WireframeDrawsTheEdgesWithTheSkyBetweenThem) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  Screenshot shot = viewScreenshot(scene("hanging.json") + " --frames 30 --wireframe --no-panel", "view_wire.png");
  ASSERT_TRUE(shot);
  // Where the shaded cloth covers the centre entirely (expectClothInTheMiddle), its edges cover part
  // of it: the 48 x 48 grid's cells are several pixels wide there.
  const double share = clothShare(shot.pixels(), shot.width, shot.width / 2, shot.height / 2);
  EXPECT_GT(share, 0.1);
  EXPECT_LT(share, 0.7);
}

TEST(View, WithoutADisplayItSaysSoAndExitsOne) {
  Result r = shell("env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(WEFT_BINARY) + " view " + scene("hanging.json"));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.output, std::string(kNoDisplayMessage) + "\n");
}

TEST(View, BadInputIsReportedBeforeLookingForADisplay) {
  Result r = shell("env -u DISPLAY " + std::string(WEFT_BINARY) + " view " + scene("missing.json"));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("missing.json"));
}

}  // namespace
}  // namespace weft
