// What moves by prescription (solver/model/kinematics.h), on both backends:
//  - handles carry their particles exactly along their path with every integrator, and the cloth
//    follows them;
//  - a spinning sphere turns the cloth resting on it through friction (and does not without it);
//  - a sphere rising through a cloth never has a particle inside it;
//  - a pose set through the API moves a collider over the frame in a straight line;
//  - a path that would carry a collider through the cloth is refused with nothing changed;
//  - the twist scene crosses itself without contact (its zero with contact is in test_contact.cpp);
//  - tethers hang from a handle's particles as from pins, and xpbd keeps them while it moves.
#include <cmath>

#include "crossing_counter.h"
#include "demos/common/demo_scene.h"
#include "engine/error.h"
#include "solver/io/scene_reader.h"
#include "solver/model/grid_resize.h"
#include "solver/model/kinematics.h"
#include "test_support.h"

#include <gmock/gmock.h>

namespace weft::test {
namespace {

constexpr float kPi = 3.14159265f;

RigidPath turningPath(glm::vec3 center, glm::vec3 axis, double seconds, float radians, glm::vec3 offset = glm::vec3(0.f)) {
  RigidPath path;
  path.center = center;
  path.axis = glm::normalize(axis);
  path.keys = {PathKey{0.0, 0.f, glm::vec3(0.f)}, PathKey{seconds, radians, offset}};
  return path;
}

struct KinematicsCase {
  Backend backend;
  Integrator integrator;
};

class PathHandleTest : public ValidatedTest, public ::testing::WithParamInterface<KinematicsCase> {};

// A 6 x 6 sheet pinned along its first row; its last row is a handle that turns a quarter turn
// about the sheet's long axis and comes 5 cm nearer, over half a second. After every frame each of
// the handle's particles is exactly where the path's pose takes its rest position, whatever the
// integrator; and the cloth follows: the row next to the handle is within an edge and a half of it.
TEST_P(PathHandleTest, CarriesItsParticlesAlongThePathAndTheClothFollows) {
  const auto [backend, integrator] = GetParam();
  ClothModel model = testSheet(6, 0.25f, {-0.125f, 1.f, -0.125f});
  pinParticles(model, gridRows(model, {0}));
  HandleGroup handle;
  handle.particles = gridRows(model, {5});
  pinParticles(model, handle.particles);
  handle.path = turningPath({0.f, 1.f, 0.125f}, {0, 0, 1}, 0.5, 0.5f * kPi, {0.f, 0.f, -0.05f});
  SolverParams params;
  params.integrator = integrator;
  params.environment.gravity = glm::vec3(0.f);
  params.handles = {handle};
  auto solver = makeTestSolver(model, params, backend);
  std::vector<glm::vec4> x, v;
  const float edge = 0.25f / 5.f;
  for (int frame = 1; frame <= 40; ++frame) {
    solver->advance(1.f / 60.f, 16);  // within the explicit integrators' stability limit
    solver->readState(x, v);
    const RigidPose pose = handle.path.at(frame / 60.0);
    for (uint32_t p : handle.particles) {
      const glm::vec3 expected = pose.apply(model.positions[p]);
      ASSERT_LT(glm::length(glm::vec3(x[p]) - expected), 1e-5f) << "particle " << p << ", frame " << frame;
      ASSERT_EQ(x[p].w, 0.f);
    }
    for (uint32_t c = 0; c < 6; ++c)
      ASSERT_LT(glm::length(glm::vec3(x[4 * 6 + c]) - glm::vec3(x[5 * 6 + c])), 1.5f * edge) << "frame " << frame;
  }
  EXPECT_NEAR(solver->time(), 40.0 / 60.0, 1e-6);  // frames of a float 1/60 s
  // The handle's corner has turned a quarter turn: from (+x) to (+y) of the axis.
  const glm::vec3 corner(x[5 * 6 + 5]);
  EXPECT_NEAR(corner.x, 0.f, 1e-4f);
  EXPECT_NEAR(corner.y, 1.125f, 1e-4f);
  EXPECT_NEAR(corner.z, 0.075f, 1e-4f);
}

std::vector<KinematicsCase> handleCases() {
  std::vector<KinematicsCase> cases;
  for (Backend b : allBackends())
    for (Integrator i : allIntegrators()) cases.push_back({b, i});
  return cases;
}

std::string caseName(const ::testing::TestParamInfo<KinematicsCase>& info) {
  return integratorCaseName(info.param.integrator, info.param.backend);
}

INSTANTIATE_TEST_SUITE_P(Integrators, PathHandleTest, ::testing::ValuesIn(handleCases()), caseName);

// What a recording's frame is drawn with (collidersAtTime, no solver) is where a solver's colliders
// were after as many frames: a box turning and gliding on its path, and a sphere rising on its own,
// match the CPU solver's after 40 frames (0.67 s) to float rounding, and both have moved well away
// from where they started.
TEST(CollidersAtTime, AreWhereTheSolversWereAfterAsManyFrames) {
  ColliderDesc box;
  box.kind = ColliderDesc::Kind::Box;
  box.center = glm::vec3(0.f, 0.3f, 0.f);
  box.halfExtents = glm::vec3(0.2f, 0.05f, 0.1f);
  box.path = turningPath(box.center, {0, 1, 0}, 1.0, 1.5f, {0.4f, 0.f, 0.f});
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = glm::vec3(1.f, 0.f, 0.f);
  sphere.radius = 0.3f;
  sphere.path.center = sphere.center;
  sphere.path.keys = {PathKey{0.0, 0.f, glm::vec3(0.f)}, PathKey{2.0, 0.f, glm::vec3(0.f, 1.f, 0.f)}};
  SolverParams params;
  params.integrator = Integrator::SymplecticEuler;
  params.colliders = {ColliderDesc{}, box, sphere};
  auto solver = makeTestSolver(testSheet(4, 0.1f, {-0.05f, 1.f, -0.05f}), params, Backend::Cpu);
  const int frames = 40;
  const float frameDt = 1.f / 60.f;
  for (int f = 0; f < frames; ++f) solver->advance(frameDt, 2);
  const std::vector<ColliderDesc> solved = solver->kinematics().collidersNow();
  const std::vector<ColliderDesc> drawn = collidersAtTime(params.colliders, frames * double(frameDt));
  ASSERT_EQ(drawn.size(), solved.size());
  for (size_t c = 0; c < drawn.size(); ++c) {
    EXPECT_LT(glm::length(drawn[c].center - solved[c].center), 1e-5f) << "collider " << c;
    EXPECT_GT(std::abs(glm::dot(drawn[c].rotation, solved[c].rotation)), 1.f - 1e-6f) << "collider " << c;
  }
  EXPECT_GT(glm::length(drawn[1].center - box.center), 0.2f) << "the box should have glided";
  EXPECT_LT(std::abs(glm::dot(drawn[1].rotation, box.rotation)), 0.9f) << "and turned";
  EXPECT_GT(drawn[2].center.y - sphere.center.y, 0.3f) << "the sphere should have risen";
}

class PathColliderTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// A small sheet lies on top of a sphere that spins about the vertical at 2 rad/s. Friction (mu 1)
// drags it round: after 2 s the sheet turns with the sphere, its angular momentum about the axis
// over its moment of inertia (its mean angular velocity) 2 rad/s within 10 %. Without friction the
// sphere's pushes all point through its centre, on the axis, so they cannot turn the sheet at all:
// less than 0.02 rad/s.
TEST_P(PathColliderTest, ASpinningSphereTurnsTheClothOnItThroughFriction) {
  for (float friction : {1.f, 0.f}) {
    ClothModel model = testSheet(7, 0.12f, {-0.06f, 0.212f, -0.06f});
    SolverParams params;
    params.integrator = Integrator::Xpbd;
    params.iterations = 2;
    ColliderDesc sphere;
    sphere.kind = ColliderDesc::Kind::Sphere;
    sphere.center = glm::vec3(0.f);
    sphere.radius = 0.2f;
    sphere.friction = friction;
    sphere.path = turningPath(sphere.center, {0, 1, 0}, 10.0, 20.f);
    params.colliders = {sphere};
    auto solver = makeTestSolver(model, params, GetParam());
    for (int f = 0; f < 120; ++f) solver->advance(1.f / 60.f, 8);
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    double momentum = 0.0, inertia = 0.0;
    for (size_t p = 0; p < x.size(); ++p) {
      const double m = 1.0 / x[p].w;
      momentum += m * (double(x[p].z) * v[p].x - double(x[p].x) * v[p].z);
      inertia += m * (double(x[p].x) * x[p].x + double(x[p].z) * x[p].z);
    }
    if (friction > 0.f) EXPECT_NEAR(momentum / inertia, 2.0, 0.2) << "friction " << friction;
    else EXPECT_LT(std::abs(momentum / inertia), 0.02) << "friction " << friction;
    for (const glm::vec4& p : x) ASSERT_GT(glm::length(glm::vec3(p)), 0.2f + 0.005f - 1e-4f);
  }
}

// A sphere rises at 1 m/s through a sheet held at its four corners: after every frame no particle
// is nearer its centre than its radius plus margin (less 0.1 mm), and the sheet has been lifted.
TEST_P(PathColliderTest, ASphereRisingThroughAClothNeverHasAParticleInside) {
  ClothModel model = testSheet(12, 0.6f, {-0.3f, 0.f, -0.3f});
  pinParticles(model, gridCorners(model, CornerPreset::Four));
  SolverParams params;
  params.integrator = Integrator::Verlet;
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = glm::vec3(0.f, -0.2f, 0.f);
  sphere.radius = 0.1f;
  sphere.friction = 0.2f;
  sphere.path.center = sphere.center;
  sphere.path.keys = {PathKey{0.0, 0.f, glm::vec3(0.f)}, PathKey{0.5, 0.f, glm::vec3(0.f, 0.5f, 0.f)}};
  params.colliders = {sphere};
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x, v;
  float highest = 0.f;
  for (int f = 1; f <= 30; ++f) {
    solver->advance(1.f / 60.f, 8);
    solver->readState(x, v);
    const glm::vec3 center = sphere.path.at(f / 60.0).apply(sphere.center);
    for (size_t p = 0; p < x.size(); ++p) {
      ASSERT_GT(glm::length(glm::vec3(x[p]) - center), 0.1f + 0.005f - 1e-4f) << "particle " << p << ", frame " << f;
      highest = std::max(highest, x[p].y);
    }
  }
  EXPECT_GT(highest, 0.15f);  // the top of the sphere, at 0.2 m, lifted the middle of the sheet
}

// The host poses the floor 10 cm higher for the next frame: a particle resting on it is carried up
// with it over the frame's steps, and ends on it. The pose is then the collider's.
TEST_P(PathColliderTest, APoseSetThroughTheApiCarriesTheClothOverTheFrame) {
  ClothModel model = freeParticles({{0.f, 0.005f, 0.f}}, 0.01f);
  SolverParams params;
  params.integrator = Integrator::SymplecticEuler;
  params.colliders = {ColliderDesc{}};  // the floor through the origin, margin 5 mm
  auto solver = makeTestSolver(model, params, GetParam());
  RigidPose raised;
  raised.translation = glm::vec3(0.f, 0.1f, 0.f);
  solver->setColliderPose(0, raised);
  solver->advance(1.f / 60.f, 10);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  EXPECT_NEAR(x[0].y, 0.105f, 1e-4f);
  EXPECT_NEAR(v[0].y, 0.1f * 60.f, 0.5f);  // it moves with the floor, 6 m/s
  EXPECT_EQ(solver->kinematics().colliderPose(0).translation, raised.translation);
  EXPECT_THROW(solver->setColliderPose(1, raised), std::out_of_range);
}

// A sphere of 5 cm radius on a path at 10 m/s moves 17 cm in one 1/60 s step: refused in one
// sentence, with the state and the clock as they were.
TEST_P(PathColliderTest, APathTooFastForItsRadiusIsRefusedWithNothingChanged) {
  ClothModel model = testSheet(4, 0.1f, {-0.05f, 0.2f, -0.05f});
  SolverParams params;
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.radius = 0.05f;
  sphere.path.keys = {PathKey{0.0, 0.f, glm::vec3(0.f)}, PathKey{1.0, 0.f, glm::vec3(10.f, 0.f, 0.f)}};
  params.colliders = {sphere};
  auto solver = makeTestSolver(model, params, GetParam());
  expectAdvanceRefusedWithNothingChanged(*solver, 1.f / 60.f, 1, "more than half its radius");
  EXPECT_NO_THROW(solver->advance(1.f / 60.f, 8));  // 2.1 cm per step: under half the radius
}

INSTANTIATE_TEST_SUITE_P(Backends, PathColliderTest, ::testing::ValuesIn(allBackends()), backendParamName);

// A sheet held by a handle alone, its first row, which yanks it 0.75 m up in a quarter second
// (3 m/s), with tethers of no slack (one to each free particle's nearest handle particle).
std::string yankedSheet(bool tethers) {
  return std::string(R"({"cloth": {"grid": {"width": 8, "height": 8, "size": [0.35, 0.35]}},)") +
         (tethers ? R"("tethers": {"stiffness": 100000, "maxStretch": 0, "anchors": 1},)" : "") +
         R"("handles": [{"rows": [0], "path": {"keys": [{"time": 0}, {"time": 0.25, "offset": [0, 0.75, 0]}]}}],
            "solver": {"integrator": "xpbd", "dt": 0.0166667, "substeps": 8}})";
}

// The tethers' largest distance to their anchors over their rest lengths, after each of the 15
// frames of the yank.
std::vector<float> tetherStretchPerFrame(const Scene& scene, const std::vector<gpu::Element>& tethers, Backend backend) {
  auto solver = makeTestSolver(scene.cloth, solverParams(scene), backend);
  std::vector<glm::vec4> x, v;
  std::vector<float> worst;
  for (int frame = 0; frame < 15; ++frame) {
    solver->advance(scene.solver.dt, scene.solver.substeps);
    solver->readState(x, v);
    float w = 0.f;
    for (const gpu::Element& e : tethers)
      w = std::max(w, glm::length(glm::vec3(x[e.nodes.x]) - glm::vec3(x[e.nodes.y])) / e.rest.x);
    worst.push_back(w);
  }
  return worst;
}

class HandleTetherTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// A scene read at its own size ties each free particle to the handle particle nearest it, as the
// same scene rebuilt at that size by --grid does (before, only `pins` anchored tethers, and a
// cloth held by handles alone could not have any). Under xpbd a tether this stiff takes all but
// 1/(1 + w k h²) of its violation in each projection (w k h² ≈ 2,000 here), so no particle ends a
// frame more than 0.1 % past its rest distance from its anchor while the handle yanks the sheet up
// (measured: 0.009 %); the same yank without tethers stretches them 7 % past it.
TEST_P(HandleTetherTest, TethersHangFromAHandlesParticlesAndHoldWhileItMoves) {
  const Scene scene = parseScene(yankedSheet(true), ".", "yank.json");
  std::vector<gpu::Element> tethers;
  for (const gpu::Element& e : scene.cloth.elements)
    if (e.kind == WEFT_ELEMENT_TETHER) tethers.push_back(e);
  ASSERT_EQ(tethers.size(), 8u * 7u);  // every particle but the handle's row
  for (const gpu::Element& e : tethers) {
    EXPECT_LT(e.nodes.y, 8u) << "tether of particle " << e.nodes.x << " hangs from " << e.nodes.y << ", not the handle's row";
    EXPECT_NEAR(e.rest.x, glm::length(scene.cloth.positions[e.nodes.x] - scene.cloth.positions[e.nodes.y]), 1e-6f);
  }
  const Scene resized = withGridSize(scene, 8);
  ASSERT_EQ(resized.cloth.elements.size(), scene.cloth.elements.size());
  for (size_t k = 0; k < scene.cloth.elements.size(); ++k) {
    EXPECT_EQ(resized.cloth.elements[k].nodes, scene.cloth.elements[k].nodes) << k;
    EXPECT_EQ(resized.cloth.elements[k].rest, scene.cloth.elements[k].rest) << k;
  }
  const std::vector<float> held = tetherStretchPerFrame(scene, tethers, GetParam());
  for (size_t f = 0; f < held.size(); ++f) EXPECT_LT(held[f], 1.001f) << "frame " << f + 1;
  const Scene free = parseScene(yankedSheet(false), ".", "yank.json");
  const std::vector<float> loose = tetherStretchPerFrame(free, tethers, GetParam());
  EXPECT_GT(*std::max_element(loose.begin(), loose.end()), 1.03f);
}

INSTANTIATE_TEST_SUITE_P(Backends, HandleTetherTest, ::testing::ValuesIn(allBackends()), backendParamName);

// The twist scene's cloth is twisted and pushed together hard enough to cross itself: without
// contact some frame of its first 150 has crossings (with contact none has: test_contact.cpp).
TEST(TwistScene, CrossesItselfWithoutContact) {
  Scene scene = loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/demos/scenes/twist.json").scene;
  ASSERT_EQ(scene.handles.size(), 2u);
  scene.contact.enabled = false;
  auto solver = makeTestSolver(scene.cloth, solverParams(scene), Backend::Cpu);
  std::vector<glm::vec4> x, v;
  size_t worst = 0;
  for (int f = 0; f < 150; ++f) {
    solver->advance(scene.solver.dt, scene.solver.substeps);
    solver->readState(x, v);
    worst = std::max(worst, countCrossings(x, scene.cloth.triangles));
  }
  EXPECT_GT(worst, 0u);
}

}  // namespace
}  // namespace weft::test
