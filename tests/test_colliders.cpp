// Colliders as world state: every integrator on both backends keeps the cloth out of a capsule it
// falls onto (and rests on it), and colliders moved between frames take effect without rebuilding
// the solver.
#include <algorithm>
#include <cmath>

#include "shaders/physics.h"
#include "solver/spring_table.h"
#include "test_support.h"

namespace weft::test {
namespace {

struct CapsuleCase {
  Integrator integrator;
  Backend backend;
};

std::string capsuleCaseName(const ::testing::TestParamInfo<CapsuleCase>& info) {
  std::string name = integratorName(info.param.integrator);
  std::erase(name, '-');
  return name + (info.param.backend == Backend::Gpu ? "_gpu" : "_cpu");
}

class CapsuleTest : public ValidatedTest, public ::testing::WithParamInterface<CapsuleCase> {};

// Distance from x to the segment ab.
float segmentDistance(glm::vec3 x, glm::vec3 a, glm::vec3 b) {
  const glm::vec3 ab = b - a;
  const float t = std::clamp(glm::dot(x - a, ab) / glm::dot(ab, ab), 0.f, 1.f);
  return glm::length(x - (a + t * ab));
}

TEST_P(CapsuleTest, ClothFallingOntoACapsuleStaysOutsideAndRestsOnIt) {
  GridSpec grid;
  grid.width = grid.height = 16;
  grid.sizeX = grid.sizeY = 0.6f;
  grid.origin = glm::vec3(-0.3f, 0.45f, -0.3f);
  grid.totalMass = 0.2f;
  const ClothModel model = buildGrid(grid, Material{200.f, 50.f, 5.f, 0.2f});
  SolverParams params;
  params.integrator = GetParam().integrator;
  params.iterations = 10;
  ColliderDesc capsule;
  capsule.kind = ColliderDesc::Kind::Capsule;
  capsule.center = glm::vec3(-0.4f, 0.3f, 0.05f);
  capsule.end = glm::vec3(0.4f, 0.3f, -0.05f);
  capsule.radius = 0.08f;
  params.colliders = {capsule, ColliderDesc{}};
  auto solver = makeTestSolver(model, params, GetParam().backend);
  const bool explicitMethod = params.integrator == Integrator::ExplicitEuler ||
                              params.integrator == Integrator::SymplecticEuler || params.integrator == Integrator::Rk4;
  const int substeps = explicitMethod ? 48 : 4;
  float closest = 1e9f;
  std::vector<glm::vec4> x, v;
  for (int frame = 0; frame < 20; ++frame) {
    solver->advance(1.f / 60.f, substeps);
    solver->readState(x, v);
    for (const glm::vec4& p : x) {
      ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) << "frame " << frame;
      const float d = segmentDistance(gpu::xyz(p), capsule.center, capsule.end);
      ASSERT_GE(d, capsule.radius - 1e-5f) << "frame " << frame << ": a particle is inside the capsule";
      closest = std::min(closest, d);
    }
  }
  // It fell 7 cm onto the capsule and lies on it: some particle within a margin of the surface.
  EXPECT_LT(closest, capsule.radius + 2.f * capsule.margin);
}

std::vector<CapsuleCase> everyIntegratorOnBothBackends() {
  std::vector<CapsuleCase> cases;
  for (Integrator integrator : {Integrator::ExplicitEuler, Integrator::SymplecticEuler, Integrator::Verlet,
                                Integrator::Rk4, Integrator::ImplicitCg, Integrator::NonlinearCg,
                                Integrator::NewtonChebyshev})
    for (Backend backend : allBackends()) cases.push_back({integrator, backend});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Integrators, CapsuleTest, ::testing::ValuesIn(everyIntegratorOnBothBackends()),
                         capsuleCaseName);

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
