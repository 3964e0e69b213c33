// The implicit integrators: stable at frame-rate steps where explicit Euler blows up, at rest
// without jitter, each solve reaching its tolerance, and the two backends agreeing.
#include <cmath>

#include "demos/common/demo_scene.h"
#include "solver/model/scene.h"
#include "test_support.h"

namespace weft::test {
namespace {

class ImplicitTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

TEST_P(ImplicitTest, StiffClothAtSixtyHertzBlowsUpExplicitlyAndRestsImplicitly) {
  ClothModel model = stiffHangingCloth();
  const float dt = 1.f / 60.f;
  {
    SolverParams params;
    params.integrator = Integrator::ExplicitEuler;
    auto solver = makeTestSolver(model, params, GetParam());
    for (int frame = 0; frame < 10; ++frame) solver->advance(dt, 1);
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    double e = kineticEnergy(model, v);
    EXPECT_TRUE(!std::isfinite(e) || e > 1e6) << "explicit Euler should have blown up, KE = " << e;
  }
  SolverParams params;
  params.integrator = Integrator::ImplicitCg;
  params.tolerance = 1e-4f;
  params.maxIterations = 100;
  // Implicit Euler damps the stiff modes at once but barely touches the slow pendulum swing
  // (omega h ~ 0.06); air drag (decay rate c/m ~ 3/s here) is what brings a real cloth to rest.
  params.environment.airDrag = 4e-3f;
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x, v;
  double lastSecondMax = 0;
  for (int frame = 0; frame < 300; ++frame) {  // 5 s, one step per frame
    solver->advance(dt, 1);
    if (frame >= 240) {
      solver->readState(x, v);
      lastSecondMax = std::max(lastSecondMax, kineticEnergy(model, v));
    }
  }
  solver->readState(x, v);
  for (const auto& p : x) {
    ASSERT_TRUE(std::isfinite(p.x + p.y + p.z));
    // bounded: hanging from pins at y = 1.5, a 1 m cloth stays within its own size of them
    EXPECT_GT(p.y, 1.5f - 1.5f);
    EXPECT_LT(p.y, 1.5f + 0.01f);
  }
  // At rest and staying there (no jitter): the whole last second under a micro-joule.
  EXPECT_LT(lastSecondMax, 1e-6) << "kinetic energy in the last second";
}

TEST_P(ImplicitTest, EverySolveReachesItsToleranceWithinTheCap) {
  Scene scene = loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json").scene;
  SolverParams params = solverParams(scene);
  params.integrator = Integrator::ImplicitCg;
  params.tolerance = 1e-3f;
  params.maxIterations = 200;
  auto solver = makeTestSolver(scene.cloth, params, GetParam());
  int worst = 0, steps = 0;
  for (int frame = 0; frame < 20; ++frame) {
    solver->advance(scene.solver.dt, 2);
    for (const SolveStats& s : solver->lastSolveStats()) {
      ++steps;
      worst = std::max(worst, s.iterations);
      EXPECT_TRUE(s.converged) << "frame " << frame << ": residual " << s.residual << " after " << s.iterations;
      EXPECT_LE(s.residual, params.tolerance);
    }
  }
  EXPECT_EQ(steps, 40);
  EXPECT_LT(worst, params.maxIterations);
  std::printf("[ info ] implicit-cg on hanging_verlet.json (48x48, h = 1/120 s): at most %d iterations to 1e-3\n", worst);
}

class ImplicitAgreeTest : public ValidatedTest {};

TEST_F(ImplicitAgreeTest, GpuMatchesCpuOverAShortHorizon) {
  ClothModel model = stiffHangingCloth();
  SolverParams params;
  params.integrator = Integrator::ImplicitCg;
  params.tolerance = 1e-5f;
  ColliderDesc ground;
  params.colliders = {ground};
  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  for (int frame = 0; frame < 30; ++frame) {
    cpu->advance(1.f / 60.f, 1);
    gpu->advance(1.f / 60.f, 1);
  }
  std::vector<glm::vec4> xc, vc, xg, vg;
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  float worst = maxPositionDifference(xc, xg);
  // Both solve each step to a relative residual of 1e-5 but sum their dot products in different
  // orders (the GPU's workgroup tree in float, the CPU's chunks in double), so the iterates differ
  // at the tolerance's level: 1e-5 of a ~1 cm velocity change per step, over 30 steps of a
  // strongly damped system, is far below 0.1 mm.
  EXPECT_LT(worst, 1e-4f);
  std::printf("[ info ] implicit-cg: max |x_gpu - x_cpu| = %.3g m after 30 steps\n", worst);
}

TEST_F(ImplicitAgreeTest, EmbeddedRecordingMatchesChunkedAdvance) {
  // advance() submits CG in chunks and stops after convergence; recordAdvance() (a host
  // application's command buffer) records the whole cap with no host in the loop. Same result.
  ClothModel model = stiffHangingCloth();
  SolverParams params;
  params.integrator = Integrator::ImplicitCg;
  params.maxIterations = 60;
  expectRecordingMatchesAdvance(model, params, 2);
}

// The largest relative stretch of any structural spring.
double worstStructuralStretch(const ClothModel& model, const std::vector<glm::vec4>& x) {
  double worst = 0;
  for (const Spring& s : model.springs)
    if (s.kind == SpringKind::Structural)
      worst = std::max(worst, double(glm::distance(glm::vec3(x[s.a]), glm::vec3(x[s.b]))) / s.restLength - 1.0);
  return worst;
}

TEST_P(ImplicitTest, GramClothAtATenthOfASecondHoldsItsShape) {
  // A 1 g cloth hanging from two corners, one 0.1 s step a frame: h^2 k / m ~ 1e7, so in float32
  // the mass term of A = M + h D + h^2 K is at the edge of vanishing beside the stiffness; the solve
  // must still keep it (the cloth's weight, m g / k ~ 1e-6 of a spring, is all that stretches it).
  // It hangs in the plane it falls in. Started flat instead, any mass stretches by 78 % in the
  // first step and more in the second: a spring at its rest length has no stiffness across its axis,
  // so the linearised step lets the whole cloth fall h g beside its pins (docs/integrators.md).
  GridSpec grid;
  grid.width = grid.height = 16;
  grid.totalMass = 1e-3f;
  grid.plane = GridPlane::Vertical;
  ClothModel model = buildGrid(grid, Material{2000.f, 500.f, 50.f, 0.5f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  SolverParams params;
  params.integrator = Integrator::ImplicitCg;
  params.maxIterations = 400;
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x, v;
  double worst = 0;
  for (int frame = 0; frame < 30; ++frame) {  // 3 s
    solver->advance(0.1f, 1);
    solver->readState(x, v);
    worst = std::max(worst, worstStructuralStretch(model, x));
  }
  EXPECT_LT(worst, 0.01) << "a structural spring stretched by " << 100 * worst << " %";
  // and its free bottom edge hangs a cloth's length below the pins.
  float lowest = 1e9f;
  for (const glm::vec4& p : x) lowest = std::min(lowest, p.y);
  EXPECT_NEAR(lowest, model.positions[gridCorners(model, CornerPreset::Two)[0]].y - 1.f, 0.01f);
}

INSTANTIATE_TEST_SUITE_P(Backends, ImplicitTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
