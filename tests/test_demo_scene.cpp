// The demos' keys of a scene file (camera, solver.frames, calibration): defaults, values read back,
// impossible values reported as an InputError naming the file and key, the cloth's reader still
// refusing unknown keys among them; and the shipped demo scenes parsing to the expected cloths.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "demos/common/demo_scene.h"
#include "engine/error.h"
#include "input_error.h"
#include "scene_helpers.h"

#ifndef WEFT_SOURCE_DIR
#error "WEFT_SOURCE_DIR must name the repository root"
#endif

namespace weft {
namespace {

using ::testing::HasSubstr;

using test::inputErrorOf;
using test::pinnedCount;

DemoScene parse(const std::string& json) { return parseDemoScene(json, "", "test.json"); }

std::string sceneDir() { return std::string(WEFT_SOURCE_DIR) + "/demos/scenes"; }

TEST(DemoSceneParse, MinimalSceneTakesTheHeaderDefaults) {
  const DemoScene s = parse(R"({"cloth": {"grid": {}}})");
  EXPECT_EQ(s.scene.cloth.particleCount(), 32u * 32u);
  EXPECT_EQ(s.frames, 120);
  EXPECT_FLOAT_EQ(s.camera.fovYDegrees, 45.f);
}

TEST(DemoSceneParse, EveryFieldIsReadBesideTheCloths) {
  const DemoScene s = parse(R"({
    "cloth": {"grid": {"width": 6, "height": 5}},
    "solver": {"integrator": "symplectic-euler", "substeps": 4, "frames": 30},
    "camera": {"eye": [0, 1, 4], "target": [0, 1, 0], "fovY": 60}
  })");
  EXPECT_EQ(s.scene.cloth.particleCount(), 30u);
  EXPECT_EQ(s.scene.solver.integrator, Integrator::SymplecticEuler);
  EXPECT_EQ(s.scene.solver.substeps, 4);
  EXPECT_EQ(s.frames, 30);
  EXPECT_EQ(s.camera.eye, glm::vec3(0.f, 1.f, 4.f));
  EXPECT_FLOAT_EQ(s.camera.fovYDegrees, 60.f);
}

TEST(DemoSceneParse, FramesUpToTheirBoundAreAccepted) {
  const DemoScene s = parse(R"({"cloth": {"grid": {"width": 4, "height": 4}}, "solver": {"frames": 1000000}})");
  EXPECT_EQ(s.frames, kMaxFrames);
  EXPECT_EQ(kMaxFrames, 1000000);  // the number docs/scene-format.md gives
}

TEST(DemoSceneParse, CalibrationIsOptionalAndTakesTheHeaderDefaults) {
  EXPECT_FALSE(parse(R"({"cloth": {"grid": {}}})").calibration.has_value());
  const DemoScene defaults = parse(R"({"cloth": {"grid": {}}, "calibration": {}})");
  ASSERT_TRUE(defaults.calibration.has_value());
  EXPECT_FLOAT_EQ(defaults.calibration->targetFps, 60.f);
  EXPECT_EQ(defaults.calibration->minGrid, 32u);
  EXPECT_EQ(defaults.calibration->maxGrid, 2048u);
  const DemoScene s = parse(
      R"({"cloth": {"grid": {}}, "calibration": {"targetFps": 30, "minGrid": 2, "maxGrid": 4096}})");
  EXPECT_FLOAT_EQ(s.calibration->targetFps, 30.f);
  EXPECT_EQ(s.calibration->minGrid, 2u);
  EXPECT_EQ(s.calibration->maxGrid, 4096u);
}

// The cloth's reader knows nothing of these keys: alone it refuses them, like any unknown key.
TEST(DemoSceneParse, TheClothReaderAloneRefusesTheDemoKeys) {
  EXPECT_THAT(inputErrorOf([] { test::parseInline(R"({"cloth": {"grid": {}}, "camera": {}})"); }),
              HasSubstr("test.json: unknown key 'camera'"));
  EXPECT_THAT(inputErrorOf([] { test::parseInline(R"({"cloth": {"grid": {}}, "solver": {"frames": 3}})"); }),
              HasSubstr("test.json: unknown key 'solver.frames'"));
}

struct BadScene {
  const char* json;
  std::vector<std::string> words;  // all must appear in the message
};

class DemoSceneErrors : public testing::TestWithParam<BadScene> {};

TEST_P(DemoSceneErrors, ThrowInputErrorNamingFileAndKey) {
  const std::string message = inputErrorOf([] { parse(GetParam().json); });
  EXPECT_THAT(message, HasSubstr("test.json: ")) << GetParam().json;
  for (const std::string& word : GetParam().words) {
    EXPECT_THAT(message, HasSubstr(word)) << GetParam().json;
  }
}

#define GRID R"("cloth": {"grid": {"width": 4, "height": 4}})"
INSTANTIATE_TEST_SUITE_P(
    Cases, DemoSceneErrors,
    testing::Values(
        // Unknown keys are named with the demos' among the known ones, as when one reader read all.
        BadScene{R"({)" GRID R"(, "colour": 1})",
                 {"test.json: unknown key 'colour' (known: name, cloth, cloths, material, membrane, bending, tethers, "
                  "pins, environment, colliders, handles, contact, solver, camera, calibration)"}},
        BadScene{R"({)" GRID R"(, "solver": {"frmaes": 2}})", {"unknown key 'solver.frmaes' (did you mean 'frames'?)"}},
        BadScene{R"({)" GRID R"(, "solver": {"substep": 2}})", {"unknown key 'solver.substep'"}},
        // The cloth's mistakes come first, as before.
        BadScene{R"({)" GRID R"(, "solver": {"dt": 0, "frames": 0}, "camera": {"fovY": 0}})", {"solver.dt", "got 0"}},
        BadScene{R"({)" GRID R"(, "solver": {"frames": 0}})",
                 {"solver.frames", "positive integer"}},
        BadScene{R"({)" GRID R"(, "solver": {"frames": 1000001}})",
                 {"solver.frames must be at most 1000000 (got 1000001)"}},
        BadScene{R"({)" GRID R"(, "solver": {"frames": 1e300}})", {"solver.frames must be at most 1000000 (got 1e+300)"}},
        BadScene{R"({)" GRID R"(, "camera": {"fovY": 0}})", {"camera.fovY", "180"}},
        BadScene{R"({)" GRID R"(, "camera": {"eye": [1, 1, 1], "target": [1, 1, 1]}})",
                 {"camera", "differ"}},
        BadScene{R"({)" GRID R"(, "camera": {"up": [0, 1, 0]}})", {"unknown key 'camera.up'"}},
        BadScene{R"({)" GRID R"(, "calibration": {"targetFps": 0}})",
                 {"calibration.targetFps", "positive", "got 0"}},
        BadScene{R"({)" GRID R"(, "calibration": {"minGrid": 1}})", {"calibration.minGrid", ">= 2", "got 1"}},
        BadScene{R"({)" GRID R"(, "calibration": {"maxGrid": 5000}})",
                 {"calibration.maxGrid", "at most 4096", "got 5000"}},
        BadScene{R"({)" GRID R"(, "calibration": {"minGrid": 64, "maxGrid": 32}})",
                 {"calibration.minGrid", "must not exceed maxGrid", "64 > 32"}},
        BadScene{R"({)" GRID R"(, "calibration": {"fps": 60}})", {"unknown key 'calibration.fps'"}}));
#undef GRID

TEST(DemoSceneErrors, CalibrationOfAMeshIsAnError) {
  const std::filesystem::path obj = std::filesystem::path(testing::TempDir()) / "weft_calib_tri.obj";
  std::ofstream(obj) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  EXPECT_THAT(inputErrorOf([&] {
                parseDemoScene(R"({"cloth": {"mesh": {"path": "weft_calib_tri.obj"}}, "calibration": {}})",
                               testing::TempDir(), "calib.json");
              }),
              HasSubstr("calib.json: calibration needs a grid cloth (this one is a mesh)"));
}

TEST(DemoSceneErrors, MissingFile) {
  const std::string path = testing::TempDir() + "/weft_missing_scene.json";
  EXPECT_THAT(inputErrorOf([&] { loadDemoScene(path); }),
              HasSubstr("cannot open scene file '" + path + "': No such file or directory"));
}

// ---- The shipped scenes ----

TEST(ShippedScenes, Hanging) {
  const Scene s = loadDemoScene(sceneDir() + "/hanging.json").scene;
  EXPECT_EQ(s.name, "hanging");
  EXPECT_EQ(s.cloth.particleCount(), 48u * 48u);
  EXPECT_EQ(s.cloth.springCount(SpringKind::Structural), 2u * 48u * 47u);
  EXPECT_EQ(pinnedCount(s.cloth), 2u);
  EXPECT_EQ(s.cloth.pinned[0], 1);
  EXPECT_EQ(s.cloth.pinned[47], 1);
  EXPECT_FLOAT_EQ(s.cloth.positions[0].y, 1.5f);
  EXPECT_EQ(s.cloth.positions[0].x, -s.cloth.positions[47].x);  // centred on x
  // The main job's scene (scripts/run.sh): xpbd with tethers to the pins, which holds the cloth
  // within 10 % at its worst frame (Cli.TheMainJobsClothHoldsWithinTenPercentAtItsWorstFrame).
  EXPECT_EQ(s.solver.integrator, Integrator::Xpbd);
  EXPECT_EQ(s.solver.substeps, 20);
  EXPECT_TRUE(s.forces.tethers.has_value());
  ASSERT_EQ(s.colliders.size(), 1u);
  EXPECT_EQ(s.colliders[0].kind, ColliderDesc::Kind::Plane);
}

TEST(ShippedScenes, SphereDrape) {
  const Scene s = loadDemoScene(sceneDir() + "/sphere_drape.json").scene;
  EXPECT_EQ(s.cloth.particleCount(), 48u * 48u);
  EXPECT_EQ(pinnedCount(s.cloth), 0u);
  ASSERT_EQ(s.colliders.size(), 2u);
  EXPECT_EQ(s.colliders[1].kind, ColliderDesc::Kind::Sphere);
  EXPECT_FLOAT_EQ(s.colliders[1].radius, 0.35f);
  EXPECT_FLOAT_EQ(s.colliders[1].center.y, 0.5f);
  // The cloth starts above the top of the sphere.
  EXPECT_GT(s.cloth.positions[0].y, s.colliders[1].center.y + s.colliders[1].radius);
}

TEST(ShippedScenes, MeshFlag) {
  const Scene s = loadDemoScene(sceneDir() + "/mesh_flag.json").scene;
  EXPECT_EQ(s.cloth.particleCount(), 80u);
  EXPECT_EQ(s.cloth.triangles.size(), 126u);
  EXPECT_EQ(s.cloth.gridWidth, 0u);
  EXPECT_EQ(pinnedCount(s.cloth), 8u);
  for (uint32_t row = 0; row < 8; ++row) EXPECT_EQ(s.cloth.pinned[row * 10], 1);
  EXPECT_GT(glm::length(s.environment.wind), 0.f);
  EXPECT_GT(s.environment.airDrag, 0.f);
  EXPECT_NEAR(s.cloth.totalMass(), 0.3f, 1e-6f);
}

TEST(ShippedScenes, LargeGrid) {
  const DemoScene demo = loadDemoScene(sceneDir() + "/large_grid.json");
  const Scene& s = demo.scene;
  EXPECT_EQ(s.cloth.particleCount(), 256u * 256u);
  EXPECT_EQ(pinnedCount(s.cloth), 0u);  // it falls freely onto its colliders
  EXPECT_FLOAT_EQ(s.cloth.positions[255].x - s.cloth.positions[0].x, 2.4f);  // 2.4 m wide
  EXPECT_NEAR(s.cloth.totalMass(), 0.3f * 2.4f * 2.4f, 1e-4f);                // 0.3 kg/m^2
  EXPECT_EQ(s.solver.integrator, Integrator::Verlet);
  EXPECT_FLOAT_EQ(s.solver.relaxationRho, 0.95f);
  ASSERT_EQ(s.colliders.size(), 3u);
  EXPECT_EQ(s.colliders[0].kind, ColliderDesc::Kind::Plane);
  EXPECT_EQ(s.colliders[1].kind, ColliderDesc::Kind::Sphere);
  // The cloth starts above both spheres.
  for (size_t c = 1; c < 3; ++c) EXPECT_GT(s.cloth.positions[0].y, s.colliders[c].center.y + s.colliders[c].radius);
  ASSERT_TRUE(demo.calibration.has_value());
  EXPECT_FLOAT_EQ(demo.calibration->targetFps, 60.f);
  EXPECT_EQ(demo.calibration->minGrid, 32u);
  EXPECT_EQ(demo.calibration->maxGrid, 2048u);
}

TEST(ShippedScenes, EverySceneInTheFolderParses) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(sceneDir())) {
    if (entry.path().extension() != ".json") continue;
    ++count;
    EXPECT_NO_THROW({
      const Scene s = loadDemoScene(entry.path().string()).scene;
      EXPECT_GT(s.cloth.particleCount(), 0u);
    }) << entry.path();
  }
  EXPECT_GE(count, 4u);
}

}  // namespace
}  // namespace weft
