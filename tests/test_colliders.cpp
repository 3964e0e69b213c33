// Colliders as world state: colliders moved between frames take effect without rebuilding the
// solver. (That every integrator keeps the cloth out of every collider shape is in
// test_integrator_invariants.cpp.)
#include <algorithm>
#include <cmath>

#include "shaders/physics.h"
#include "solver/model/spring_table.h"
#include "test_support.h"

namespace weft::test {
namespace {

class MovingColliderTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

TEST_P(MovingColliderTest, ASphereMovedBetweenFramesPushesTheParticleAlong) {
  // A free particle at rest on no gravity; a sphere set round it each frame, a little further on,
  // carries it: the solver reads the collider from world state every step, no rebuild.
  ClothModel model = freeParticles({glm::vec3(0.f)}, 0.01f);
  SolverParams params;
  params.integrator = Integrator::SymplecticEuler;
  params.environment.gravity = glm::vec3(0.f);
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.radius = 0.1f;
  sphere.margin = 0.f;
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x, v;
  for (int frame = 1; frame <= 10; ++frame) {
    // The sphere's centre is placed 0.05 m behind the particle: it is pushed out to the surface.
    solver->readState(x, v);
    sphere.center = gpu::xyz(x[0]) - glm::vec3(0.05f, 0.f, 0.f);
    SolverParams moved = solver->params();
    moved.colliders = {sphere};
    solver->setParams(moved);
    solver->advance(1.f / 60.f, 1);
  }
  solver->readState(x, v);
  // Each frame moves it 0.05 m along +x (out to the radius): ten frames, half a metre.
  EXPECT_NEAR(x[0].x, 0.5f, 1e-4f);
}

TEST_P(MovingColliderTest, AColliderOfAKindTheSolverHadNotMetIsMetFromTheNextStep) {
  // The GPU kernels that collide are built for the collider kinds the scene has
  // (WEFT_SPEC_COLLIDER_KINDS): a frame with a floor alone builds them for planes, so a sphere or a
  // box added later must build them again, or the particle inside it would stay where it is.
  for (ColliderDesc::Kind kind : {ColliderDesc::Kind::Sphere, ColliderDesc::Kind::Box}) {
    ClothModel model = freeParticles({glm::vec3(0.f)}, 0.01f);
    SolverParams params;
    params.integrator = Integrator::SymplecticEuler;
    params.environment.gravity = glm::vec3(0.f);
    ColliderDesc floor;  // far below: never touched
    floor.offset = -10.f;
    params.colliders = {floor};
    auto solver = makeTestSolver(model, params, GetParam());
    solver->advance(1.f / 60.f, 1);
    ColliderDesc body;
    body.kind = kind;
    body.radius = 0.1f;                    // the sphere
    body.halfExtents = glm::vec3(0.1f);    // the box: its +x face is the nearest to the particle
    body.center = glm::vec3(-0.05f, 0.f, 0.f);
    body.margin = 0.f;
    SolverParams added = solver->params();
    added.colliders = {floor, body};
    solver->setParams(added);
    solver->advance(1.f / 60.f, 1);
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    // Pushed out to the surface, 0.05 m along +x.
    EXPECT_NEAR(x[0].x, 0.05f, 1e-5f) << (kind == ColliderDesc::Kind::Sphere ? "sphere" : "box");
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, MovingColliderTest, ::testing::ValuesIn(allBackends()), backendParamName);

// A sheet laid at rest on a plane tilted by theta, for 1 s, with sliding coefficient mu_k = 0.3:
// its mean move down the slope, in m. Coulomb's law: it sticks while tan theta <= mu_s, and once it
// slides it accelerates at g (sin theta - mu_k cos theta).
float slideOnSlope(Backend backend, float degrees, float staticFriction) {
  const float theta = glm::radians(degrees);
  const glm::vec3 normal(-std::sin(theta), std::cos(theta), 0.f), downhill(-std::cos(theta), -std::sin(theta), 0.f);
  ColliderDesc slope;  // through the origin
  slope.normal = normal;
  slope.friction = 0.3f;
  slope.staticFriction = staticFriction;
  ClothModel model = testSheet(6, 0.1f, {-0.05f, slope.margin, -0.05f}, 200.f);
  for (glm::vec3& x : model.positions) x = glm::vec3(x.x * std::cos(theta) - x.y * std::sin(theta), x.x * std::sin(theta) + x.y * std::cos(theta), x.z);
  SolverParams params;
  params.integrator = Integrator::Xpbd;
  params.iterations = 2;
  params.environment.airDrag = 0.f;
  params.colliders = {slope};
  auto solver = makeTestSolver(model, params, backend);
  std::vector<glm::vec4> x0, v0, x, v;
  solver->readState(x0, v0);
  for (int f = 0; f < 60; ++f) solver->advance(1.f / 60.f, 8);
  solver->readState(x, v);
  glm::vec3 moved(0.f);
  for (size_t i = 0; i < x.size(); ++i) moved += gpu::xyz(x[i] - x0[i]) / float(x.size());
  return glm::dot(moved, downhill);
}

class SlopeFrictionTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// At 25 degrees (between atan 0.3 = 16.7 and atan 0.6 = 31.0) the sheet holds with mu_s = 0.6 and
// slides by the kinetic law with mu_s = mu_k = 0.3; at 35 degrees it slides by the kinetic law
// with either (static friction only decides whether it starts).
TEST_P(SlopeFrictionTest, StaticFrictionHoldsBelowItsAngleAndKineticFrictionRulesTheSlide) {
  const float g = 9.81f;
  auto coulomb = [&](float degrees) {
    const float theta = glm::radians(degrees);
    return 0.5f * g * (std::sin(theta) - 0.3f * std::cos(theta));  // over 1 s
  };
  EXPECT_LT(std::abs(slideOnSlope(GetParam(), 25.f, 0.6f)), 0.005f) << "held by static friction";
  EXPECT_NEAR(slideOnSlope(GetParam(), 25.f, 0.3f), coulomb(25.f), 0.02f * coulomb(25.f));
  EXPECT_NEAR(slideOnSlope(GetParam(), 35.f, 0.6f), coulomb(35.f), 0.02f * coulomb(35.f));
}

INSTANTIATE_TEST_SUITE_P(Backends, SlopeFrictionTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
