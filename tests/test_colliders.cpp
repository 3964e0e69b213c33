// Colliders as world state: colliders moved between frames take effect without rebuilding the
// solver. (That every integrator keeps the cloth out of every collider shape is in
// test_integrator_invariants.cpp.)
#include <algorithm>
#include <cmath>

#include "shaders/physics.h"
#include "solver/spring_table.h"
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

INSTANTIATE_TEST_SUITE_P(Backends, MovingColliderTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
