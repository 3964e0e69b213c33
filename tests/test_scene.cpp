// Scene files: defaults, every field read back, every impossible value and typo reported as an
// InputError naming the file and key, and the shipped demo scenes parsing to the expected cloths.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "engine/error.h"
#include "input_error.h"
#include "scene_helpers.h"
#include "solver/io/scene_reader.h"
#include "solver/model/scene.h"
#include "solver/io/scene_json.h"
#include "solver/backend/solver.h"
#include "solver/model/settings_check.h"

namespace weft {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

using test::inputErrorOf;

Scene parse(const std::string& json) { return test::parseInline(json); }
using test::pinnedCount;

TEST(Integrators, NamesRoundTrip) {
  const std::vector<std::string> names = integratorNames();
  ASSERT_EQ(names.size(), 9u);
  EXPECT_EQ(names[0], "explicit-euler");
  for (const std::string& name : names) EXPECT_EQ(integratorName(parseIntegrator(name)), name);
  EXPECT_EQ(parseIntegrator("symplectic-euler"), Integrator::SymplecticEuler);
  EXPECT_EQ(parseIntegrator("verlet"), Integrator::Verlet);
  EXPECT_EQ(parseIntegrator("rk4"), Integrator::Rk4);
  EXPECT_EQ(parseIntegrator("implicit-cg"), Integrator::ImplicitCg);
  EXPECT_EQ(parseIntegrator("nonlinear-cg"), Integrator::NonlinearCg);
  EXPECT_EQ(parseIntegrator("newton-chebyshev"), Integrator::NewtonChebyshev);
  EXPECT_EQ(parseIntegrator("imex"), Integrator::Imex);
  EXPECT_EQ(parseIntegrator("xpbd"), Integrator::Xpbd);
  EXPECT_THAT(inputErrorOf([] { parseIntegrator("leapfrog"); }),
              AllOf(HasSubstr("unknown integrator 'leapfrog'"),
                    HasSubstr("(known: explicit-euler, symplectic-euler, verlet, rk4, implicit-cg, "
                              "nonlinear-cg, newton-chebyshev, imex, xpbd)")));
}

// One check holds the ranges of how a cloth steps (solver/model/settings_check.h): the scene reader
// says its problem with the file and the key, and the solver refuses the same value made in code.
TEST(SettingsCheck, OneRangeForTheSceneFileAndTheSolver) {
  EXPECT_FALSE(settingsProblem(SolverSettings{}).has_value()) << "the defaults are in range";
  const struct {
    const char* json;     // the "solver" section's member
    void (*set)(SolverSettings&);
    const char* key;
    const char* sentence;
  } cases[] = {
      {R"("relaxation": 2)", [](SolverSettings& s) { s.relaxation = 2.f; }, "relaxation", "must be in [1, 2) (got 2)"},
      {R"("chebyshevRho": 1)", [](SolverSettings& s) { s.chebyshevRho = 1.f; }, "chebyshevRho", "must be in [0, 1) (got 1)"},
      {R"("constraintStiffness": 0)", [](SolverSettings& s) { s.constraintStiffness = 0.f; }, "constraintStiffness",
       "must be in (0, 1] (got 0)"},
      {R"("relativeTolerance": 1)", [](SolverSettings& s) { s.relativeTolerance = 1.f; }, "relativeTolerance",
       "must be in [0, 1) (got 1)"},
      {R"("iterations": 10001)", [](SolverSettings& s) { s.iterations = 10001; }, "iterations",
       "must be at most 10000 (got 10001)"},
      {R"("substeps": 0)", [](SolverSettings& s) { s.substeps = 0; }, "substeps", "must be a positive integer (got 0)"},
  };
  for (const auto& c : cases) {
    SolverSettings settings;
    c.set(settings);
    const auto problem = settingsProblem(settings);
    ASSERT_TRUE(problem.has_value()) << c.key;
    EXPECT_EQ(problem->key, c.key);
    EXPECT_EQ(problem->sentence, c.sentence);
    const std::string json = std::string(R"({"cloth": {"grid": {"width": 4, "height": 4, "size": [1, 1]}}, "solver": {)") +
                             c.json + "}}";
    try {
      parseScene(json, "", "test.json");
      ADD_FAILURE() << c.json << " was read";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("test.json: solver.") + c.key + " " + c.sentence);
    }
    SolverParams params;
    static_cast<SolverSettings&>(params) = settings;
    GridSpec grid;
    grid.width = grid.height = 4;
    try {
      makeSolver(buildGrid(grid, Material{}), params, Backend::Cpu);
      ADD_FAILURE() << c.key << " out of range made a solver";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("solver settings: ") + c.key + " " + c.sentence);
    }
  }
}

TEST(SceneParse, MinimalSceneTakesTheHeaderDefaults) {
  const Scene s = parse(R"({"cloth": {"grid": {}}})");
  EXPECT_EQ(s.name, "test");
  EXPECT_EQ(s.cloth.particleCount(), 32u * 32u);
  EXPECT_NEAR(s.cloth.totalMass(), 0.2f, 1e-6f);  // default density over 1 m^2
  EXPECT_EQ(pinnedCount(s.cloth), 0u);
  EXPECT_TRUE(s.colliders.empty());
  EXPECT_EQ(s.environment.gravity, glm::vec3(0.f, -9.81f, 0.f));
  EXPECT_EQ(s.solver.integrator, Integrator::Verlet);
  EXPECT_FLOAT_EQ(s.solver.dt, 1.f / 60.f);
  EXPECT_EQ(s.solver.substeps, 8);
  EXPECT_EQ(s.solver.iterations, 10);
  EXPECT_FLOAT_EQ(s.cloth.springs[0].stiffness, 2000.f);
}

TEST(SceneParse, EveryFieldIsRead) {
  const Scene s = parse(R"({
    "name": "all",
    "cloth": {"grid": {"width": 6, "height": 5, "size": [2.0, 1.0], "origin": [1, 2, 3],
                       "plane": "vertical"},
              "totalMass": 0.75, "velocity": [0.5, 0, 0]},
    "material": {"structuralStiffness": 900, "shearStiffness": 80, "bendStiffness": 7, "damping": 0.2},
    "pins": {"corners": 2, "indices": [7, 0, 29]},
    "environment": {"gravity": [0, -1.6, 0], "wind": [3, 0, 1], "airDrag": 0.02},
    "colliders": [{"type": "plane", "normal": [0, 2, 0], "offset": 0.1, "friction": 0.6, "staticFriction": 0.8, "margin": 0.01},
                  {"type": "sphere", "center": [0, 0.5, 0], "radius": 0.3}],
    "solver": {"integrator": "symplectic-euler", "dt": 0.01, "substeps": 4, "iterations": 0,
               "constraintStiffness": 0.5, "relaxation": 1.0, "velocityScale": 0.05,
               "relativeTolerance": 0.001}
  })");
  EXPECT_EQ(s.name, "all");
  EXPECT_EQ(s.cloth.particleCount(), 30u);
  EXPECT_EQ(s.cloth.gridWidth, 6u);
  EXPECT_EQ(s.cloth.positions[29], glm::vec3(3.f, 1.f, 3.f));  // vertical: row 4 at y = 2 - 1
  EXPECT_NEAR(s.cloth.totalMass(), 0.75f, 1e-6f);
  EXPECT_EQ(s.cloth.velocities[12], glm::vec3(0.5f, 0.f, 0.f));
  EXPECT_FLOAT_EQ(s.cloth.springs[0].stiffness, 900.f);
  EXPECT_FLOAT_EQ(s.cloth.springs[0].damping, 0.2f);
  // Corners 0 and 5 plus indices 7, 0 and 29: four distinct particles.
  EXPECT_EQ(pinnedCount(s.cloth), 4u);
  EXPECT_EQ(s.cloth.pinned[5], 1);
  EXPECT_EQ(s.cloth.pinned[29], 1);
  EXPECT_EQ(s.environment.wind, glm::vec3(3.f, 0.f, 1.f));
  EXPECT_FLOAT_EQ(s.environment.airDrag, 0.02f);
  ASSERT_EQ(s.colliders.size(), 2u);
  EXPECT_EQ(s.colliders[0].kind, ColliderDesc::Kind::Plane);
  EXPECT_EQ(s.colliders[0].normal, glm::vec3(0.f, 1.f, 0.f));  // normalised
  EXPECT_FLOAT_EQ(s.colliders[0].offset, 0.1f);
  EXPECT_FLOAT_EQ(s.colliders[0].friction, 0.6f);
  EXPECT_FLOAT_EQ(s.colliders[0].staticFriction, 0.8f);
  EXPECT_FLOAT_EQ(s.colliders[0].margin, 0.01f);
  EXPECT_EQ(s.colliders[1].kind, ColliderDesc::Kind::Sphere);
  EXPECT_FLOAT_EQ(s.colliders[1].radius, 0.3f);
  EXPECT_FLOAT_EQ(s.colliders[1].friction, 0.3f);  // struct default
  EXPECT_FLOAT_EQ(s.colliders[1].staticFriction, 0.3f);  // the sliding coefficient's
  EXPECT_EQ(s.solver.integrator, Integrator::SymplecticEuler);
  EXPECT_FLOAT_EQ(s.solver.dt, 0.01f);
  EXPECT_EQ(s.solver.substeps, 4);
  EXPECT_EQ(s.solver.iterations, 0);
  EXPECT_FLOAT_EQ(s.solver.constraintStiffness, 0.5f);
  EXPECT_FLOAT_EQ(s.solver.relaxation, 1.f);
  EXPECT_FLOAT_EQ(s.solver.velocityScale, 0.05f);
  EXPECT_FLOAT_EQ(s.solver.relativeTolerance, 0.001f);
}

TEST(SceneParse, LoopCountsUpToTheirBoundsAreAccepted) {
  const Scene s = parse(R"({"cloth": {"grid": {"width": 4, "height": 4}},
    "solver": {"substeps": 10000, "iterations": 10000, "maxIterations": 10000, "newtonIterations": 100}})");
  EXPECT_EQ(s.solver.substeps, kMaxSubsteps);
  EXPECT_EQ(s.solver.iterations, kMaxIterations);
  EXPECT_EQ(s.solver.maxIterations, kMaxIterations);
  EXPECT_EQ(s.solver.newtonIterations, kMaxNewtonIterations);
  EXPECT_EQ(kMaxSubsteps, 10000);  // the numbers docs/scene-format.md gives
  EXPECT_EQ(kMaxIterations, 10000);
  EXPECT_EQ(kMaxNewtonIterations, 100);
}

TEST(SceneParse, ContactIsOffWithoutItsSectionAndReadWithIt) {
  EXPECT_FALSE(parse(R"({"cloth": {"grid": {"width": 4, "height": 4}}})").contact.enabled);
  const Scene s = parse(R"({"cloth": {"grid": {"width": 4, "height": 4}},
                            "contact": {"thickness": 0.003, "radius": 0.01, "friction": 0.2}})");
  EXPECT_TRUE(s.contact.enabled);
  EXPECT_FLOAT_EQ(s.contact.thickness, 0.003f);
  EXPECT_FLOAT_EQ(s.contact.radius, 0.01f);
  EXPECT_FLOAT_EQ(s.contact.friction, 0.2f);
  EXPECT_FLOAT_EQ(s.contact.staticFriction, 0.2f);  // sticking defaults to sliding's coefficient
  const Scene defaults = parse(R"({"cloth": {"grid": {"width": 4, "height": 4}}, "contact": {}})");
  EXPECT_TRUE(defaults.contact.enabled);
  EXPECT_FLOAT_EQ(defaults.contact.thickness, 0.002f);
  EXPECT_FLOAT_EQ(defaults.contact.radius, 0.f);  // half the mean edge, chosen by the solver
}

// An entry of "cloths" may give its own friction against other cloth, over exactly its particles.
TEST(SceneParse, EachClothMayGiveItsOwnContactFriction) {
  const Scene s = parse(R"({"cloths": [{"grid": {"width": 4, "height": 4}},
                                       {"grid": {"width": 3, "height": 5}, "contact": {"friction": 0.1}},
                                       {"grid": {"width": 2, "height": 2}, "contact": {"friction": 0.5, "staticFriction": 0.9}}],
                            "contact": {"friction": 0.3}})");
  ASSERT_EQ(s.contact.clothFriction.size(), 2u);
  EXPECT_EQ(s.contact.clothFriction[0], (ClothFriction{16, 15, 0.1f, 0.1f}));  // sticking defaults to sliding's
  EXPECT_EQ(s.contact.clothFriction[1], (ClothFriction{31, 4, 0.5f, 0.9f}));
  EXPECT_FLOAT_EQ(s.contact.friction, 0.3f);  // the first cloth's, and the default
}

// Handles carry rows or indices along a keyed path; their particles are pinned, their path turns
// about their centroid unless the file names a centre, and a negative row counts from the last.
// A collider's path turns about the collider's own centre unless it names one.
TEST(SceneParse, HandlesAndPathsAreReadAndTheirParticlesPinned) {
  const Scene s = parse(R"({"cloth": {"grid": {"width": 4, "height": 4, "size": [3, 3]}},
                            "handles": [{"rows": [-1], "indices": [5], "path": {"axis": [0, 0, 2], "keys": [
                              {"time": 0}, {"time": 2, "angle": 90, "offset": [0, 0, -1]}]}}],
                            "colliders": [{"type": "sphere", "center": [1, 2, 3], "radius": 0.5,
                              "path": {"keys": [{"time": 0}, {"time": 1, "offset": [1, 0, 0]}]}}]})");
  ASSERT_EQ(s.handles.size(), 1u);
  const std::vector<HandleGroup> groups = handleGroups(s);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].particles, (std::vector<uint32_t>{5, 12, 13, 14, 15}));
  for (uint32_t p : groups[0].particles) EXPECT_TRUE(s.cloth.pinned[p]) << p;
  EXPECT_FALSE(s.cloth.pinned[4]);
  EXPECT_EQ(groups[0].path.axis, glm::vec3(0, 0, 1));
  ASSERT_EQ(groups[0].path.keys.size(), 2u);
  EXPECT_FLOAT_EQ(groups[0].path.keys[1].angle, 3.14159265f / 2.f);
  glm::vec3 centroid(0.f);
  for (uint32_t p : groups[0].particles) centroid += s.cloth.positions[p] / 5.f;
  EXPECT_LT(glm::length(groups[0].path.center - centroid), 1e-6f);
  // Half way: turned by 45 degrees about the centroid and moved by half the offset.
  const RigidPose half = groups[0].path.at(1.0);
  const glm::vec3 moved = half.apply(centroid + glm::vec3(1.f, 0.f, 0.f));
  EXPECT_LT(glm::length(moved - (centroid + glm::vec3(0.70710678f, 0.70710678f, -0.5f))), 1e-5f);
  EXPECT_EQ(s.colliders[0].path.center, glm::vec3(1, 2, 3));
  EXPECT_TRUE(s.colliders[0].path.moves());
}

// A box: centre, half extents, and a turn about an axis through its centre (degrees in the file).
TEST(SceneParse, ABoxColliderIsReadWithItsTurn) {
  const Scene s = parse(R"({"cloth": {"grid": {}}, "colliders": [{"type": "box", "center": [0, 1, 0],
                            "halfExtents": [0.5, 0.0005, 0.25], "axis": [0, 0, 2], "angle": 90, "margin": 0.001}]})");
  ASSERT_EQ(s.colliders.size(), 1u);
  const ColliderDesc& box = s.colliders[0];
  EXPECT_EQ(box.kind, ColliderDesc::Kind::Box);
  EXPECT_EQ(box.center, glm::vec3(0, 1, 0));
  EXPECT_EQ(box.halfExtents, glm::vec3(0.5f, 0.0005f, 0.25f));
  EXPECT_FLOAT_EQ(box.margin, 0.001f);
  // A quarter turn about z takes the box's x axis to the world's y.
  const glm::vec3 turned = box.rotation * glm::vec3(1, 0, 0);
  EXPECT_LT(glm::length(turned - glm::vec3(0, 1, 0)), 1e-6f);
}

TEST(SceneParse, AccelerationAndMomentumAreRead) {
  const Scene defaults = parse(R"({"cloth": {"grid": {"width": 4, "height": 4}}})");
  EXPECT_EQ(defaults.solver.acceleration, Acceleration::Chebyshev);
  EXPECT_EQ(defaults.solver.momentum, kMomentumSchedule);
  const Scene fixed = parse(R"({"cloth": {"grid": {"width": 4, "height": 4}},
    "solver": {"acceleration": "nesterov", "momentum": 0.9}})");
  EXPECT_EQ(fixed.solver.acceleration, Acceleration::Nesterov);
  EXPECT_FLOAT_EQ(fixed.solver.momentum, 0.9f);
  const Scene schedule = parse(R"({"cloth": {"grid": {"width": 4, "height": 4}},
    "solver": {"acceleration": "none", "momentum": "schedule"}})");
  EXPECT_EQ(schedule.solver.acceleration, Acceleration::None);
  EXPECT_EQ(schedule.solver.momentum, kMomentumSchedule);
}

TEST(SceneParse, ThePreconditionerIsReadAndAnUnknownOneNamesTheKnown) {
  EXPECT_EQ(parse(R"({"cloth": {"grid": {"width": 4, "height": 4}}})").solver.preconditioner, Preconditioner::BlockJacobi);
  const Scene twoLevel = parse(R"({"cloth": {"grid": {"width": 4, "height": 4}}, "solver": {"preconditioner": "two-level"}})");
  EXPECT_EQ(twoLevel.solver.preconditioner, Preconditioner::TwoLevel);
  EXPECT_EQ(solverParams(twoLevel).preconditioner, Preconditioner::TwoLevel);
  EXPECT_THAT(inputErrorOf([] { parse(R"({"cloth": {"grid": {}}, "solver": {"preconditioner": "multigrid"}})"); }),
              AllOf(HasSubstr("preconditioner"), HasSubstr("'multigrid'"), HasSubstr("block-jacobi, two-level")));
}

// A program's own keys beside the cloth's (the demos' camera, for one) are refused unless it names
// them, and then left unread; unknown keys are still refused, the program's among the known ones.
TEST(SceneParse, ForeignKeysAreAcceptedUnreadOnlyWhenTheCallerNamesThem) {
  const std::string json = R"({"cloth": {"grid": {}}, "view": {"zoom": 2}, "solver": {"steps": 3, "dt": 0.01}})";
  EXPECT_THAT(inputErrorOf([&] { parse(json); }), HasSubstr("test.json: unknown key 'view'"));
  const Scene s = readScene(parseSceneDocument(json, "", "test.json"), {{"view"}, {"steps"}});
  EXPECT_EQ(s.name, "test");
  EXPECT_FLOAT_EQ(s.solver.dt, 0.01f);
  EXPECT_THAT(inputErrorOf([] {
                readScene(parseSceneDocument(R"({"cloth": {"grid": {}}, "veiw": {}})", "", "test.json"), {{"view"}, {}});
              }),
              HasSubstr("test.json: unknown key 'veiw' (known: name, cloth, cloths, material, membrane, bending, "
                        "tethers, pins, environment, colliders, handles, contact, solver, view)"));
}

TEST(SceneParse, MeshPathResolvesAgainstTheSceneFolder) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "weft_scene_test";
  fs::create_directories(dir / "meshes");
  std::ofstream(dir / "meshes" / "quad.obj")
      << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n";
  std::ofstream(dir / "quad.json") << R"({"cloth": {"mesh": {"path": "meshes/quad.obj",
      "scale": 0.5, "offset": [0, 1, 0]}, "arealDensity": 4.0}, "pins": {"indices": [3]}})";
  const Scene s = loadScene((dir / "quad.json").string());
  EXPECT_EQ(s.name, "quad");
  ASSERT_EQ(s.cloth.particleCount(), 4u);
  EXPECT_EQ(s.cloth.positions[2], glm::vec3(0.5f, 1.5f, 0.f));
  EXPECT_NEAR(s.cloth.totalMass(), 1.f, 1e-6f);  // 0.25 m^2 at 4 kg/m^2
  EXPECT_EQ(s.cloth.pinned, (std::vector<uint8_t>{0, 0, 0, 1}));
}

// A mesh collider reads its OBJ against the scene's folder, scaled and moved, with its thickness.
TEST(SceneParse, AMeshColliderReadsItsObjAgainstTheSceneFolder) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "weft_mesh_collider_test";
  fs::create_directories(dir / "bodies");
  std::ofstream(dir / "bodies" / "quad.obj") << "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 4 3\nf 1 3 2\n";
  std::ofstream(dir / "body.json") << R"({"cloth": {"grid": {}}, "colliders": [{"type": "mesh",
      "file": "bodies/quad.obj", "scale": 2, "offset": [0, 1, 0], "thickness": 0.004, "margin": 0.001}]})";
  const Scene s = loadScene((dir / "body.json").string());
  ASSERT_EQ(s.colliders.size(), 1u);
  const ColliderDesc& body = s.colliders[0];
  EXPECT_EQ(body.kind, ColliderDesc::Kind::Mesh);
  ASSERT_TRUE(body.mesh);
  EXPECT_EQ(body.mesh->triangles.size(), 2u);
  EXPECT_EQ(body.mesh->vertices[2], glm::vec3(2.f, 1.f, 2.f));
  EXPECT_FLOAT_EQ(body.thickness, 0.004f);
  EXPECT_EQ(colliderReference(body), glm::vec3(1.f, 1.f, 1.f));  // its mean vertex
}

// A mesh collider played from a sequence of OBJs: each read against the scene's folder, scaled
// and moved as the collider says; shapes that are not the same triangles are refused.
TEST(SceneParse, AMeshSequenceReadsEveryShapeAndRefusesOnesThatDiffer) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "weft_mesh_sequence_test";
  fs::create_directories(dir);
  for (int k = 0; k < 3; ++k)
    std::ofstream(dir / ("body_" + std::to_string(k) + ".obj"))
        << "v 0 " << k << " 0\nv 1 " << k << " 0\nv 1 " << k << " 1\nv 0 " << k << " 1\nf 1 4 3\nf 1 3 2\n";
  std::ofstream(dir / "other.obj") << "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 3 2\n";
  std::ofstream(dir / "body.json") << R"({"cloth": {"grid": {}}, "colliders": [{"type": "mesh", "offset": [0, 1, 0],
      "sequence": {"files": ["body_0.obj", "body_1.obj", "body_2.obj"], "rate": 24, "loop": true}}]})";
  const Scene s = loadScene((dir / "body.json").string());
  const ColliderDesc& body = s.colliders[0];
  ASSERT_EQ(body.sequence.size(), 3u);
  EXPECT_FLOAT_EQ(body.sequenceRate, 24.f);
  EXPECT_TRUE(body.sequenceLoops);
  EXPECT_EQ(body.sequence[2]->vertices[1], glm::vec3(1.f, 3.f, 0.f));  // y 2, moved up 1
  EXPECT_EQ(body.mesh, body.sequence[0]);
  std::ofstream(dir / "bad.json") << R"({"cloth": {"grid": {}}, "colliders": [{"type": "mesh",
      "sequence": {"files": ["body_0.obj", "other.obj"], "rate": 24}}]})";
  EXPECT_THAT(inputErrorOf([&] { loadScene((dir / "bad.json").string()); }),
              AllOf(HasSubstr("colliders[0].sequence.files[1]"), HasSubstr("same triangles")));
}

struct BadScene {
  const char* json;
  std::vector<std::string> words;  // all must appear in the message
};

class SceneErrors : public testing::TestWithParam<BadScene> {};

TEST_P(SceneErrors, ThrowInputErrorNamingFileAndKey) {
  const std::string message = inputErrorOf([] { parse(GetParam().json); });
  EXPECT_THAT(message, HasSubstr("test.json: ")) << GetParam().json;
  for (const std::string& word : GetParam().words) {
    EXPECT_THAT(message, HasSubstr(word)) << GetParam().json;
  }
}

#define GRID R"("cloth": {"grid": {"width": 4, "height": 4}})"
INSTANTIATE_TEST_SUITE_P(
    Cases, SceneErrors,
    testing::Values(
        BadScene{R"({"cloth": {"gird": {}}})", {"unknown key 'cloth.gird'", "known: grid, mesh"}},
        BadScene{R"({)" GRID R"(, "colour": 1})", {"unknown key 'colour'"}},
        BadScene{R"({)" GRID R"(, "solver": {"substep": 2}})", {"unknown key 'solver.substep'"}},
        BadScene{R"({"solver": {}})", {"cloth is required"}},
        BadScene{R"({)" GRID R"(, "contact": {"thicknes": 0.01}})", {"unknown key 'contact.thicknes'", "thickness"}},
        BadScene{R"({)" GRID R"(, "contact": {"thickness": 0}})", {"contact.thickness"}},
        BadScene{R"({)" GRID R"(, "contact": {"thickness": 0.004, "radius": 0.003}})", {"contact.radius", "must exceed the thickness"}},
        BadScene{R"({)" GRID R"(, "contact": {"friction": 0.5, "staticFriction": 0.2}})", {"contact.staticFriction", "at least 'friction'"}},
        BadScene{R"({)" GRID R"(, "contact": {"friction": -1}})", {"contact.friction", "got -1"}},
        BadScene{R"({"cloths": [{"grid": {}, "contact": {"friction": 0.2}}]})",
                 {"cloths[0].contact", "needs the scene's 'contact' section"}},
        BadScene{R"({"cloths": [{"grid": {}, "contact": {"friction": 0.5, "staticFriction": 0.2}}], "contact": {}})",
                 {"cloths[0].contact.staticFriction", "at least 'friction'"}},
        BadScene{R"({"cloths": [{"grid": {}, "contact": {"thickness": 0.01}}], "contact": {}})",
                 {"unknown key 'cloths[0].contact.thickness'", "friction, staticFriction"}},
        BadScene{R"({)" GRID R"(, "handles": [{"rows": [4], "path": {"keys": [{"time": 0}]}}]})",
                 {"handles[0].rows[0]", "0 to 3 or -1 (the last) to -4 (got 4)"}},
        BadScene{R"({)" GRID R"(, "handles": [{"rows": [0]}]})", {"handles[0].path is required"}},
        BadScene{R"({)" GRID R"(, "handles": [{"path": {"keys": [{"time": 0}]}}]})", {"handles[0].indices", "must name the particles"}},
        BadScene{R"({)" GRID R"(, "handles": [{"indices": [16], "path": {"keys": [{"time": 0}]}}]})", {"handles[0].indices[0]", "out of range"}},
        BadScene{R"({)" GRID R"(, "handles": [{"rows": [0], "path": {"axis": [0, 0, 0], "keys": [{"time": 0}]}}]})",
                 {"handles[0].path.axis", "must not be zero"}},
        BadScene{R"({)" GRID R"(, "handles": [{"rows": [0], "path": {"keys": [{"time": 1}, {"time": 1}]}}]})",
                 {"handles[0].path.keys[1].time", "later than the key before"}},
        BadScene{R"({)" GRID R"(, "handles": [{"rows": [0], "path": {"keys": [{"angle": 90}]}}]})",
                 {"handles[0].path.keys[0].time is required"}},
        BadScene{R"({)" GRID R"(, "handles": [{"rows": [0], "path": {"keys": []}}]})", {"handles[0].path.keys", "non-empty"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "sphere", "radius": 0.1, "path": {"keys": [{"time": 0, "spin": 1}]}}]})",
                 {"unknown key 'colliders[0].path.keys[0].spin'"}},
        BadScene{R"({)" GRID R"(, "cloths": [{"grid": {}}]})", {"cloths cannot be given with 'cloth'"}},
        BadScene{R"({"cloths": []})", {"cloths must be a non-empty array"}},
        BadScene{R"({"cloths": [{"grid": {}}], "membrane": {"warp": 10}})", {"membrane belongs inside each entry"}},
        BadScene{R"({"cloths": [{"grid": {}}, {"grid": {}, "bending": {"model": "angle"}}]})",
                 {"cloths[1].bending.model", "\"springs\", \"dihedral\""}},
        BadScene{R"({)" GRID R"(, "membrane": {"shear": 10}})", {"membrane", "needs 'warp' or 'weft'"}},
        BadScene{R"({)" GRID R"(, "membrane": {"warp": -1}})", {"membrane.warp", "got -1"}},
        BadScene{R"({)" GRID R"(, "bending": {"model": "dihedral"}})", {"bending.modulus", "is required"}},
        BadScene{R"({)" GRID R"(, "bending": {"model": "plane"}})", {"bending.modulus", "is required for plane"}},
        BadScene{R"({)" GRID R"(, "membrane": {"model": "springs", "warp": 10}})",
                 {"membrane.model", "\"baraff-witkin\", \"trispring\" or \"corotational\""}},
        BadScene{R"({)" GRID R"(, "membrane": {"model": "trispring"}})", {"membrane.youngModulus", "is required"}},
        BadScene{R"({)" GRID R"(, "membrane": {"model": "trispring", "youngModulus": 100, "warp": 10}})",
                 {"unknown key 'membrane.warp'", "youngModulus, poissonRatio"}},
        BadScene{R"({)" GRID R"(, "membrane": {"model": "trispring", "youngModulus": 100, "poissonRatio": 1}})",
                 {"membrane.poissonRatio", "must be < 1"}},
        BadScene{R"({)" GRID R"(, "tethers": {"stiffness": 100}})", {"tethers", "need pinned particles (pins or handles)"}},
        BadScene{R"({)" GRID R"(, "pins": {"corners": 2}, "tethers": {"stiffness": 100, "anchors": 0}})",
                 {"tethers.anchors", "got 0"}},
        BadScene{R"({)" GRID R"(, "pins": {"corners": 2}, "tethers": {"stiffness": 100, "anchors": 9}})",
                 {"tethers.anchors", "got 9"}},
        BadScene{R"({)" GRID R"(, "pins": {"rows": [40]}})", {"pins.rows", "out of range"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "capsule", "ends": [[0, 0, 0]], "radius": 1}]})",
                 {"colliders[0].ends", "two points"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "capsule", "ends": [[0, 0, 0], [1, 0]], "radius": 1}]})",
                 {"colliders[0].ends.b", "3 finite numbers"}},
        BadScene{R"({"cloth": {}})", {"cloth must have exactly one of 'grid' and 'mesh'"}},
        BadScene{R"({"cloth": {"grid": {}, "mesh": {"path": "x.obj"}}})", {"exactly one"}},
        BadScene{R"({"cloth": {"grid": {}, "totalMass": 1, "arealDensity": 1}})", {"not both"}},
        BadScene{R"({"cloth": {"grid": {}, "totalMass": -1}})", {"cloth.totalMass", "got -1"}},
        BadScene{R"({"cloth": {"grid": {}, "arealDensity": 0}})",
                 {"cloth.arealDensity", "positive"}},
        BadScene{R"({"cloth": {"grid": {"width": 1}}})", {"cloth.grid.width", ">= 2", "got 1"}},
        BadScene{R"({"cloth": {"grid": {"width": 0, "height": 0}}})",
                 {"cloth.grid.width", "got 0"}},
        BadScene{R"({"cloth": {"grid": {"width": "ten"}}})", {"cloth.grid.width", "\"ten\""}},
        BadScene{R"({"cloth": {"grid": {"size": [0, 1]}}})",
                 {"cloth.grid.size", "2 positive numbers"}},
        BadScene{R"({"cloth": {"grid": {"origin": [0, 1]}}})",
                 {"cloth.grid.origin", "3 finite numbers"}},
        BadScene{R"({"cloth": {"grid": {"plane": "diagonal"}}})", {"cloth.grid.plane", "diagonal"}},
        BadScene{R"({"cloth": {"grid": {"width": 5000, "height": 5000}}})",
                 {"cloth.grid", "limit"}},
        BadScene{R"({"cloth": {"mesh": {"scale": 2}}})", {"cloth.mesh.path", "required"}},
        BadScene{R"({"cloth": {"mesh": {"path": "/nonexistent/weft.obj"}}})",
                 {"cloth.mesh", "cannot read mesh '/nonexistent/weft.obj'", "No such file"}},
        BadScene{R"({"cloth": {"grid": {}, "velocity": "fast"}})", {"cloth.velocity", "3 finite"}},
        BadScene{R"({)" GRID R"(, "material": {"structuralStiffness": -1}})",
                 {"material.structuralStiffness", ">= 0", "got -1"}},
        BadScene{R"({)" GRID R"(, "material": {"damping": -0.5}})", {"material.damping"}},
        BadScene{R"({)" GRID R"(, "pins": {"corners": 5}})", {"pins.corners", "0 to 4", "got 5"}},
        BadScene{R"({)" GRID R"(, "pins": {"indices": [1, 16]}})",
                 {"pins.indices[1]", "out of range", "16 particles"}},
        BadScene{R"({)" GRID R"(, "pins": {"indices": [-1]}})", {"pins.indices[0]", "got -1"}},
        BadScene{R"({)" GRID R"(, "pins": {"indices": 3}})", {"pins.indices", "array"}},
        BadScene{R"({)" GRID R"(, "environment": {"airDrag": -1}})",
                 {"environment.airDrag", "got -1"}},
        BadScene{R"({)" GRID R"(, "environment": {"gravity": [0, -9.81]}})",
                 {"environment.gravity"}},
        BadScene{R"({)" GRID R"(, "colliders": {"type": "plane"}})",
                 {"colliders must be an array"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"normal": [0, 1, 0]}]})",
                 {"colliders[0].type", "required"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "plane", "normal": [0, 0, 0]}]})",
                 {"colliders[0].normal", "zero"}},
        BadScene{R"({)" GRID
                 R"(, "colliders": [{"type": "plane"}, {"type": "sphere", "radius": 0}]})",
                 {"colliders[1].radius", "positive", "got 0"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "box"}]})", {"colliders[0].halfExtents", "is required"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "box", "halfExtents": [1, 0, 1]}]})",
                 {"colliders[0].halfExtents", "positive"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "box", "halfExtents": [1, 1, 1], "axis": [0, 0, 0]}]})",
                 {"colliders[0].axis", "zero"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "box", "halfExtents": [1, 1, 1], "radius": 1}]})",
                 {"unknown key 'colliders[0].radius'"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "cube"}]})", {"colliders[0].type", "\"box\"", "\"cube\""}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "mesh"}]})", {"colliders[0]", "exactly one of 'file'"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "mesh", "file": "a.obj", "sequence": {}}]})",
                 {"colliders[0]", "exactly one of 'file'"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "mesh", "sequence": {"files": ["a.obj"], "rate": 24}}]})",
                 {"colliders[0].sequence.files", "2 to 10000"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "mesh", "sequence": {"files": ["a.obj", "b.obj"]}}]})",
                 {"colliders[0].sequence.rate", "is required"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "mesh", "sequence": {"files": ["a.obj", "b.obj"], "rate": 2, "loop": 1}}]})",
                 {"colliders[0].sequence.loop", "true or false"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "mesh", "file": "/nonexistent/body.obj"}]})",
                 {"colliders[0]", "cannot read mesh '/nonexistent/body.obj'"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "mesh", "file": "x.obj", "thickness": 0}]})",
                 {"colliders[0].thickness", "positive"}},
        BadScene{R"({)" GRID R"(, "colliders": [{"type": "sphere"}]})",
                 {"colliders[0].radius", "required"}},
        BadScene{R"({)" GRID
                 R"(, "colliders": [{"type": "sphere", "radius": 1, "friction": -0.1}]})",
                 {"colliders[0].friction", "got -0.1"}},
        BadScene{R"({)" GRID
                 R"(, "colliders": [{"type": "sphere", "radius": 1, "friction": 0.5, "staticFriction": 0.2}]})",
                 {"colliders[0].staticFriction", "at least 'friction'"}},
        BadScene{R"({)" GRID
                 R"(, "colliders": [{"type": "sphere", "radius": 1, "normal": [0, 1, 0]}]})",
                 {"unknown key 'colliders[0].normal'"}},
        BadScene{R"({)" GRID R"(, "solver": {"dt": 0}})", {"solver.dt", "positive", "got 0"}},
        BadScene{R"({)" GRID R"(, "solver": {"dt": 1e39}})", {"solver.dt", "got 1e+39"}},
        BadScene{R"({)" GRID R"(, "solver": {"dt": "fast"}})", {"solver.dt", "number", "\"fast\""}},
        BadScene{R"({)" GRID R"(, "solver": {"substeps": 0}})",
                 {"test.json: solver.substeps must be a positive integer (got 0)"}},
        BadScene{R"({)" GRID R"(, "solver": {"substeps": 2.5}})", {"solver.substeps", "got 2.5"}},
        BadScene{R"({)" GRID R"(, "solver": {"iterations": -1}})", {"solver.iterations", ">= 0"}},
        BadScene{R"({)" GRID R"(, "solver": {"constraintStiffness": 0}})",
                 {"solver.constraintStiffness", "(0, 1]"}},
        BadScene{R"({)" GRID R"(, "solver": {"constraintStiffness": 1.5}})",
                 {"solver.constraintStiffness", "got 1.5"}},
        BadScene{R"({)" GRID R"(, "solver": {"relaxation": 2.0}})",
                 {"solver.relaxation", "[1, 2)"}},
        BadScene{R"({)" GRID R"(, "solver": {"relaxation": 0.9}})",
                 {"solver.relaxation", "got 0.9"}},
        BadScene{R"({)" GRID R"(, "solver": {"tolerance": 0}})", {"solver.tolerance"}},
        BadScene{R"({)" GRID R"(, "solver": {"maxIterations": 0}})", {"solver.maxIterations"}},
        BadScene{R"({)" GRID R"(, "solver": {"integrator": "leapfrog"}})",
                 {"solver.integrator", "unknown integrator 'leapfrog'", "verlet"}},
        BadScene{R"({)" GRID R"(, "solver": {"relaxationRho": 1.0}})", {"solver.relaxationRho", "[0, 1)"}},
        BadScene{R"({)" GRID R"(, "solver": {"chebyshevRho": 1.0}})",
                 {"solver.chebyshevRho", "[0, 1)"}},
        BadScene{R"({)" GRID R"(, "solver": {"acceleration": "momentum"}})",
                 {"solver.acceleration", "\"chebyshev\", \"nesterov\" or \"none\"", "\"momentum\""}},
        BadScene{R"({)" GRID R"(, "solver": {"acceleration": 1}})", {"solver.acceleration", "string"}},
        BadScene{R"({)" GRID R"(, "solver": {"momentum": 1}})",
                 {"solver.momentum must be \"schedule\" or a number in [0, 1) (got 1)"}},
        BadScene{R"({)" GRID R"(, "solver": {"momentum": -0.5}})", {"solver.momentum", "got -0.5"}},
        BadScene{R"({)" GRID R"(, "solver": {"momentum": "adaptive"}})", {"solver.momentum", "\"adaptive\""}},
        BadScene{R"({)" GRID R"(, "solver": {"newtonIterations": 0}})",
                 {"solver.newtonIterations", "positive integer"}},
        // Upper bounds: a typo (80000 for 8) is refused rather than run for hours.
        BadScene{R"({)" GRID R"(, "solver": {"substeps": 10001}})",
                 {"test.json: solver.substeps must be at most 10000 (got 10001)"}},
        BadScene{R"({)" GRID R"(, "solver": {"iterations": 10001}})",
                 {"solver.iterations must be at most 10000 (got 10001)"}},
        BadScene{R"({)" GRID R"(, "solver": {"maxIterations": 10001}})",
                 {"solver.maxIterations must be at most 10000 (got 10001)"}},
        BadScene{R"({)" GRID R"(, "solver": {"newtonIterations": 101}})",
                 {"solver.newtonIterations must be at most 100 (got 101)"}},
        BadScene{R"({)" GRID R"(, "solver": {"velocityScale": 0}})",
                 {"solver.velocityScale", "positive number"}},
        BadScene{R"({)" GRID R"(, "solver": {"relativeTolerance": 1}})",
                 {"solver.relativeTolerance", "must be in [0, 1)"}},
        // Strain limits: finite fractions, stretch > 0, compression in [0, 1), both given.
        BadScene{R"({)" GRID R"(, "material": {"strainLimit": {"stretch": 0, "compression": 0.05}}})",
                 {"material.strainLimit.stretch", "positive number"}},
        BadScene{R"({)" GRID R"(, "material": {"strainLimit": {"stretch": -0.1, "compression": 0.05}}})",
                 {"material.strainLimit.stretch", "positive number"}},
        BadScene{R"({)" GRID R"(, "material": {"strainLimit": {"stretch": 1e39, "compression": 0.05}}})",
                 {"material.strainLimit.stretch", "float range"}},
        BadScene{R"({)" GRID R"(, "material": {"strainLimit": {"stretch": 0.1, "compression": 1}}})",
                 {"material.strainLimit.compression", "must be in [0, 1) (got 1)"}},
        BadScene{R"({)" GRID R"(, "material": {"strainLimit": {"stretch": 0.1, "compression": -0.5}}})",
                 {"material.strainLimit.compression", "number >= 0"}},
        BadScene{R"({)" GRID R"(, "material": {"strainLimit": {"stretch": 0.1}}})",
                 {"material.strainLimit.compression", "is required"}},
        BadScene{R"({)" GRID R"(, "material": {"strainLimit": {"stretch": 0.1, "compression": 0, "bend": 0}}})",
                 {"unknown key 'material.strainLimit.bend'"}},
        BadScene{R"({)" GRID R"(, "material": {"strainLimit": {"stretch": 0.1, "compression": 0, "mode": "clamp"}}})",
                 {"material.strainLimit.mode", "\"projection\", \"force\" or \"both\" (got \"clamp\")"}},
        BadScene{R"({"cloths": [{"grid": {}, "material": {"strainLimit": {"stretch": "10%", "compression": 0}}}]})",
                 {"cloths[0].material.strainLimit.stretch"}},
        BadScene{R"({)" GRID R"(, "solver": {"strainLimitIterations": 0}})",
                 {"solver.strainLimitIterations", "positive integer"}},
        BadScene{R"([1, 2])", {"top level", "object"}},
        BadScene{R"({)" GRID R"(, "solver": {"dt": 1e400}})", {"malformed JSON", "1e400"}},
        BadScene{"{\n  \"cloth\": {\n    \"grid\": {,}\n  }\n}",
                 {"malformed JSON at line 3, column 14"}},
        BadScene{"", {"malformed JSON at line 1, column 1", "end of input"}}));
#undef GRID

TEST(SceneParse, StrainLimitsArePerMaterialOnStructuralAndShearSpringsOnly) {
  const Scene s = parse(R"({"cloths": [
      {"grid": {"width": 3, "height": 3}, "material": {"strainLimit": {"stretch": 0.1, "compression": 0.05}}},
      {"grid": {"width": 3, "height": 3, "origin": [2, 0, 0]}}],
    "solver": {"strainLimitIterations": 12}})");
  EXPECT_EQ(s.solver.strainLimitIterations, 12);
  EXPECT_EQ(parse(R"({"cloth": {"grid": {}}})").solver.strainLimitIterations, 8);  // the default
  size_t limited = 0;
  for (const Spring& spring : s.cloth.springs) {
    const bool first = spring.a < 9;
    const bool expected = first && spring.kind != SpringKind::Bend;
    EXPECT_EQ(spring.stretchLimit, expected ? 0.1f : 0.f);
    EXPECT_EQ(spring.compressionLimit, expected ? 0.05f : 0.f);
    limited += expected;
  }
  EXPECT_EQ(limited, 12u + 8u);  // a 3x3 grid's 12 structural and 8 shear springs
}

TEST(SceneParse, StrainLimitModeSaysProjectionForceOrBoth) {
  auto modeOf = [](const std::string& limit) {
    const Scene s = parse(R"({"cloth": {"grid": {"width": 3, "height": 3}}, "material": {"strainLimit": )" + limit + "}}");
    return s.cloth.springs.front().limitMode;
  };
  EXPECT_EQ(modeOf(R"({"stretch": 0.1, "compression": 0.1})"), StrainLimitMode::Projection);  // the default
  EXPECT_EQ(modeOf(R"({"stretch": 0.1, "compression": 0.1, "mode": "projection"})"), StrainLimitMode::Projection);
  EXPECT_EQ(modeOf(R"({"stretch": 0.1, "compression": 0.1, "mode": "force"})"), StrainLimitMode::Force);
  EXPECT_EQ(modeOf(R"({"stretch": 0.1, "compression": 0.1, "mode": "both"})"), StrainLimitMode::Both);
}

TEST(SceneParse, SeveralClothsAreParticleRangesOfOneModelEachWithItsOwnRecipe) {
  const Scene s = parse(R"({"cloths": [
      {"name": "a", "grid": {"width": 3, "height": 3}, "pins": {"corners": 1},
       "membrane": {"warp": 100}, "tethers": {"stiffness": 50}},
      {"name": "b", "grid": {"width": 2, "height": 4, "origin": [2, 0, 0]},
       "material": {"structuralStiffness": 7}, "bending": {"model": "dihedral", "modulus": 0.01}}],
    "environment": {"aerodynamics": {"drag": 1.2}}})");
  ASSERT_EQ(s.parts.size(), 2u);
  EXPECT_EQ(s.parts[0].name, "a");
  EXPECT_EQ(s.parts[1].firstParticle, 9u);
  EXPECT_EQ(s.parts[1].particleCount, 8u);
  EXPECT_EQ(s.parts[1].firstTriangle, 8u);
  EXPECT_EQ(s.cloth.particleCount(), 17u);
  EXPECT_EQ(pinnedCount(s.cloth), 1u);  // cloth a's corner only
  EXPECT_EQ(s.cloth.positions[9], glm::vec3(2.f, 0.f, 0.f));
  // Each cloth's own springs and elements, with b's indices shifted past a's particles.
  size_t aMembranes = 0, aTethers = 0, bHinges = 0, aero = 0;
  for (const gpu::Element& e : s.cloth.elements) {
    const bool inB = e.nodes.x >= 9;
    aMembranes += !inB && e.kind == WEFT_ELEMENT_MEMBRANE;
    aTethers += !inB && e.kind == WEFT_ELEMENT_TETHER;
    bHinges += inB && e.kind == WEFT_ELEMENT_HINGE;
    aero += e.kind == WEFT_ELEMENT_AERO;
    if (inB) {
      EXPECT_GE(std::min({e.nodes.x, e.nodes.y, e.nodes.z, e.nodes.w}), 9u);
    }
  }
  EXPECT_EQ(aMembranes, 8u);
  EXPECT_EQ(aTethers, 8u);     // every free particle of a
  EXPECT_EQ(bHinges, 5u);      // interior edges of a 2 x 4 grid: 3 cell diagonals and 2 rungs between cells
  EXPECT_EQ(aero, 8u + 6u);    // the environment's aerodynamics on every triangle of both
  size_t bStructural = 0;
  for (const Spring& sp : s.cloth.springs) bStructural += sp.a >= 9 && sp.kind == SpringKind::Structural && sp.stiffness == 7.f;
  EXPECT_EQ(bStructural, 10u);  // b keeps its springs at its own stiffness; a's membrane replaced its own
}

TEST(SceneParse, TrispringAndPlaneBendingReplaceTheirSpringsWithElementsOfTheirModuli) {
  const Scene s = parse(R"({"cloth": {"grid": {"width": 4, "height": 3}},
      "membrane": {"model": "trispring", "youngModulus": 140, "poissonRatio": 0.4, "damping": 0.002},
      "bending": {"model": "plane", "modulus": 0.003}})");
  size_t trisprings = 0, planeHinges = 0;
  for (const gpu::Element& e : s.cloth.elements) {
    if (e.kind == WEFT_ELEMENT_TRISPRING) {
      ++trisprings;
      EXPECT_FLOAT_EQ(e.stiffness0, 140.f / (2 * (1 - 0.4f)));  // lambda + mu
      EXPECT_FLOAT_EQ(e.stiffness1, 140.f / (2 * (1 + 0.4f)));  // mu
      EXPECT_EQ(e.damping, 0.002f);
    }
    if (e.kind == WEFT_ELEMENT_PLANE_BEND) {
      ++planeHinges;
      EXPECT_EQ(e.stiffness0, 0.003f);
    }
  }
  EXPECT_EQ(trisprings, 12u);     // two per cell of 3 x 2
  EXPECT_EQ(planeHinges, 13u);    // 6 cell diagonals, 4 rungs between columns, 3 between rows
  EXPECT_TRUE(s.cloth.springs.empty());  // structural, shear and bend springs all replaced
  // A membrane without a model is Baraff and Witkin's.
  const Scene bw = parse(R"({"cloth": {"grid": {"width": 2, "height": 2}}, "membrane": {"warp": 10}})");
  ASSERT_EQ(bw.cloth.elements.size(), 2u);
  EXPECT_EQ(bw.cloth.elements[0].kind, WEFT_ELEMENT_MEMBRANE);
}

TEST(SceneParse, QuadraticBendingReplacesTheBendSpringsWithHingesOfTheModulus) {
  const Scene s = parse(R"({"cloth": {"grid": {"width": 4, "height": 3}},
      "bending": {"model": "quadratic", "modulus": 0.003, "damping": 0.01}})");
  size_t hinges = 0;
  for (const gpu::Element& e : s.cloth.elements) {
    ASSERT_EQ(e.kind, WEFT_ELEMENT_QUADRATIC_BEND);
    ++hinges;
    EXPECT_EQ(e.damping, 0.01f);
  }
  EXPECT_EQ(hinges, 13u);  // as the plane hinges above
  EXPECT_EQ(s.cloth.springCount(SpringKind::Bend), 0u);
  EXPECT_GT(s.cloth.springCount(SpringKind::Structural), 0u);
}

TEST(SceneErrors, CornerPinsOnAMeshAreAnError) {
  namespace fs = std::filesystem;
  const fs::path obj = fs::path(testing::TempDir()) / "weft_pin_tri.obj";
  std::ofstream(obj) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  const std::string json =
      R"({"cloth": {"mesh": {"path": "weft_pin_tri.obj"}}, "pins": {"corners": 1}})";
  EXPECT_THAT(inputErrorOf([&] { parseScene(json, testing::TempDir(), "pins.json"); }),
              AllOf(HasSubstr("pins.json: pins.corners"), HasSubstr("grid")));
  EXPECT_EQ(
      parseScene(R"({"cloth": {"mesh": {"path": "weft_pin_tri.obj"}}, "pins": {"corners": 0}})",
                 testing::TempDir(), "pins.json")
          .cloth.particleCount(),
      3u);
}

TEST(SceneErrors, MissingFile) {
  const std::string path = testing::TempDir() + "/weft_missing_scene.json";
  EXPECT_THAT(inputErrorOf([&] { loadScene(path); }),
              HasSubstr("cannot open scene file '" + path + "': No such file or directory"));
  EXPECT_THAT(inputErrorOf([&] { loadScene(testing::TempDir()); }),
              HasSubstr("cannot open scene file"));
}

TEST(SceneErrors, MalformedFileNamesTheFileAndLine) {
  const std::string path = testing::TempDir() + "/weft_broken.json";
  std::ofstream(path) << "{\n  \"cloth\": {\"grid\": {}},\n  \"solver\": {\"dt\": 0.01,}\n}\n";
  EXPECT_THAT(inputErrorOf([&] { loadScene(path); }),
              HasSubstr("weft_broken.json: malformed JSON at line 3, column "));
}

}  // namespace
}  // namespace weft
