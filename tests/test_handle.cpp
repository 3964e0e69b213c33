// The moving pin behind the viewer's mouse grab, driven through the API as an injected drag: the
// grabbed particle goes to each target and stays, its neighbours follow, and after release it falls
// again with its own inverse mass. Both backends, every integrator family that pins by inverse mass.
#include <cmath>

#include "test_support.h"

namespace weft::test {
namespace {

class HandleTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// A 12 x 12 cloth hanging in the XY plane from its two top corners.
ClothModel hangingCloth() {
  GridSpec grid;
  grid.width = grid.height = 12;
  grid.plane = GridPlane::Vertical;
  grid.origin = {-0.5f, 1.5f, 0.f};
  ClothModel model = buildGrid(grid, Material{});
  model.pinned[0] = model.pinned[grid.width - 1] = 1;
  return model;
}

glm::vec4 particle(const Solver& solver, uint32_t index) {
  std::vector<glm::vec4> positions, velocities;
  solver.readState(positions, velocities);
  return positions[index];
}

TEST_P(HandleTest, DragMovesTheParticleAndReleaseLetsItFall) {
  for (Integrator integrator : {Integrator::Verlet, Integrator::SymplecticEuler, Integrator::Rk4,
                                Integrator::ImplicitCg, Integrator::NonlinearCg, Integrator::NewtonChebyshev,
                                Integrator::Imex}) {
    SCOPED_TRACE(integratorName(integrator));
    // Two free particles: the grabbed one, and a witness that must keep falling meanwhile.
    ClothModel model = freeParticles({{0.f, 1.f, 0.f}, {0.5f, 1.f, 0.f}}, 0.01f);
    SolverParams params;
    params.integrator = integrator;
    auto solver = makeTestSolver(model, params, GetParam());

    // An injected drag: three targets, a few frames at each, as a mouse would move it.
    const glm::vec3 targets[] = {{0.1f, 1.2f, 0.2f}, {0.2f, 1.3f, 0.4f}, {0.3f, 1.4f, 0.5f}};
    for (glm::vec3 target : targets) {
      solver->setHandle(0, target);
      for (int frame = 0; frame < 3; ++frame) solver->advance(1.f / 60.f, 4);
      glm::vec4 p = particle(*solver, 0);
      EXPECT_NEAR(p.x, target.x, 1e-6f);
      EXPECT_NEAR(p.y, target.y, 1e-6f);
      EXPECT_NEAR(p.z, target.z, 1e-6f);
      EXPECT_EQ(p.w, 0.f);  // held: inverse mass 0
    }
    ASSERT_TRUE(solver->handle().has_value());
    EXPECT_EQ(*solver->handle(), 0u);
    EXPECT_NEAR(particle(*solver, 1).y, 1.f - 0.110f, 0.01f);  // 0.15 s of free fall: 0.110 m

    solver->clearHandle();
    EXPECT_FALSE(solver->handle().has_value());
    for (int frame = 0; frame < 10; ++frame) solver->advance(1.f / 60.f, 4);
    glm::vec4 released = particle(*solver, 0);
    EXPECT_FLOAT_EQ(released.w, model.inverseMass(0));  // its own mass back
    // Falling again from rest: g t^2 / 2 = 0.136 m after 1/6 s.
    EXPECT_NEAR(released.y, targets[2].y - 0.136f, 0.02f);
    EXPECT_NEAR(released.x, targets[2].x, 1e-5f);  // released at rest: no velocity left from the drag
  }
}

TEST_P(HandleTest, TheClothFollowsADraggedParticle) {
  ClothModel model = hangingCloth();
  auto solver = makeTestSolver(model, SolverParams{}, GetParam());
  const uint32_t grabbed = 12 * 11 + 6;  // middle of the bottom row
  const glm::vec3 target(0.f, 0.6f, 0.3f);  // pulled out of the cloth's plane
  for (int frame = 0; frame < 30; ++frame) {
    solver->setHandle(grabbed, target);
    solver->advance(1.f / 60.f, 8);
  }
  glm::vec4 above = particle(*solver, grabbed - 12);
  EXPECT_GT(above.z, 0.15f);  // the row above follows towards +z
  solver->clearHandle();
  for (int frame = 0; frame < 5; ++frame) solver->advance(1.f / 60.f, 8);
  glm::vec4 released = particle(*solver, grabbed);
  EXPECT_TRUE(std::isfinite(released.y));
  EXPECT_GT(glm::distance(glm::vec3(released), target), 0.02f);  // free again: the cloth swings it back
}

TEST_P(HandleTest, GrabbingAnotherParticleReleasesTheFirst) {
  ClothModel model = hangingCloth();
  auto solver = makeTestSolver(model, SolverParams{}, GetParam());
  solver->setHandle(100, {0.f, 0.5f, 0.f});
  solver->advance(1.f / 60.f, 2);
  solver->setHandle(101, {0.2f, 0.5f, 0.f});
  solver->advance(1.f / 60.f, 2);
  EXPECT_FLOAT_EQ(particle(*solver, 100).w, model.inverseMass(100));
  EXPECT_EQ(particle(*solver, 101).w, 0.f);
  EXPECT_THROW(solver->setHandle(uint32_t(model.particleCount()), glm::vec3(0.f)), std::out_of_range);
}

INSTANTIATE_TEST_SUITE_P(Backends, HandleTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
