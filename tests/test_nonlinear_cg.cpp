// SimCloth3's non-linear CG (seed 000): stable at frame-rate requests where explicit Euler blows
// up, every accepted step at its precision, diverged steps retried at half the step and easy ones
// growing it back, and the two backends agreeing.
//
// The method converges only while h omega < ~1 for the stiffest spring mode (see
// solver/integrators/nonlinear_cg/nonlinear_cg.h), so the adaptive step takes about 1 / omega_max whatever is
// requested, and on lavapipe every GPU step is a submission of ~0.5-1 ms: the cloths here are
// chosen so that each test stays within a few thousand steps.
#include <cmath>
#include <cstdio>

#include <stdexcept>

#include "engine/error.h"
#include "solver/gpu/gpu_solver.h"
#include "demos/common/demo_scene.h"
#include "solver/model/scene.h"
#include "test_support.h"

namespace weft::test {
namespace {

class NonlinearCgTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

constexpr float kFrame = 1.f / 60.f;

SolverParams nlcgParams(float tolerance) {
  SolverParams params;
  params.integrator = Integrator::NonlinearCg;
  params.tolerance = tolerance;
  return params;
}

// An 8x8 cloth hanging in its own vertical plane from its top corners (so that it comes to rest
// without a long swing). omega_max is about sqrt(4 (800 + 200) N/m / 4.7 g) ~ 900/s, so h omega
// ~ 15 at 1/60 s: far past explicit Euler's limit (2), yet the ~17 steps per frame the non-linear
// CG needs keep the GPU run short; stiffHangingCloth() (16x16 at 2000 N/m) needs ~56.
ClothModel stiffVerticalCloth() {
  GridSpec grid;
  grid.width = 8;
  grid.height = 8;
  grid.origin = glm::vec3(-0.5f, 1.5f, 0.f);
  grid.plane = GridPlane::Vertical;
  grid.totalMass = 0.3f;
  ClothModel model = buildGrid(grid, Material{800.f, 200.f, 20.f, 0.5f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  return model;
}

double frameTime(const std::vector<SolveStats>& stats) {
  double t = 0;
  for (const SolveStats& s : stats) t += s.dt;
  return t;
}

TEST_P(NonlinearCgTest, StiffClothAtSixtyHertzStaysBoundedAndComesToRest) {
  const ClothModel model = stiffVerticalCloth();
  {
    SolverParams params;
    params.integrator = Integrator::ExplicitEuler;
    auto solver = makeTestSolver(model, params, GetParam());
    for (int frame = 0; frame < 10; ++frame) solver->advance(kFrame, 1);
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    const double e = kineticEnergy(model, v);
    EXPECT_TRUE(!std::isfinite(e) || e > 1e6) << "explicit Euler should have blown up, KE = " << e;
  }
  SolverParams params = nlcgParams(3e-4f);
  // Strong drag (c / m ~ 17/s) settles the cloth within half a second; the last second then shows
  // whether the solver keeps it still (a jittering solve would feed it energy every step).
  params.environment.airDrag = 0.08f;
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x, v;
  double lastSecondMax = 0;
  size_t steps = 0;
  const int frames = 90;  // 1.5 s, one requested step per frame
  for (int frame = 0; frame < frames; ++frame) {
    solver->advance(kFrame, 1);
    const std::vector<SolveStats> stats = solver->lastSolveStats();
    steps += stats.size();
    ASSERT_NEAR(frameTime(stats), kFrame, 1e-6 * kFrame) << "frame " << frame;
    for (const SolveStats& s : stats) ASSERT_TRUE(s.converged && s.residual < params.tolerance);
    if (frame >= frames - 60) {
      solver->readState(x, v);
      lastSecondMax = std::max(lastSecondMax, kineticEnergy(model, v));
    }
  }
  solver->readState(x, v);
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_TRUE(std::isfinite(x[i].x + x[i].y + x[i].z));
    if (model.pinned[i]) {
      EXPECT_EQ(glm::vec3(x[i]), model.positions[i]);
    }
    // bounded: a 1 m cloth hanging from pins at y = 1.5 stays within its own length of them
    EXPECT_GT(x[i].y, 1.5f - 1.1f);
    EXPECT_LT(x[i].y, 1.5f + 0.01f);
  }
  // At rest and staying there: the whole last second under a micro-joule.
  EXPECT_LT(lastSecondMax, 1e-6) << "kinetic energy in the last second";
  std::printf("[ info ] nonlinear-cg, 8x8 stiff cloth at 1/60 s: %.1f steps per frame, last-second KE %.3g J\n",
              double(steps) / frames, lastSecondMax);
}

TEST_P(NonlinearCgTest, EveryStepReachesThePrecisionWithinTheCap) {
  Scene scene = loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json").scene;
  // The scene starts flat and at rest, where the explicit prediction alone is within tolerance;
  // a swinging state (springs stretched, 0.5 s in, taken with the scene's own Verlet on the CPU)
  // makes the solver iterate.
  auto cpu = makeTestSolver(scene.cloth, solverParams(scene), Backend::Cpu);
  for (int frame = 0; frame < 30; ++frame) cpu->advance(scene.solver.dt, scene.solver.substeps);
  std::vector<glm::vec4> x, v;
  cpu->readState(x, v);

  SolverParams params = solverParams(scene);
  params.integrator = Integrator::NonlinearCg;
  params.maxIterations = 200;  // the scene's tolerance, 1e-3 m/s (1e-5 m in positions)
  auto solver = makeTestSolver(scene.cloth, params, GetParam());
  solver->writeState(x, v);
  solver->advance(scene.solver.dt / 2, 1);  // one requested step of 1/120 s
  const std::vector<SolveStats> stats = solver->lastSolveStats();
  int worst = 0, iterating = 0;
  for (const SolveStats& s : stats) {
    worst = std::max(worst, s.iterations);
    iterating += s.iterations > 0;
    EXPECT_TRUE(s.converged);
    EXPECT_LT(s.residual, params.tolerance);
  }
  EXPECT_NEAR(frameTime(stats), scene.solver.dt / 2, 1e-6 * scene.solver.dt);
  EXPECT_GT(iterating, 0) << "no step needed an iteration: the test checks nothing";
  EXPECT_LT(worst, params.maxIterations);
  std::printf("[ info ] nonlinear-cg on hanging_verlet.json (48x48, 1/120 s requested): %zu steps, %d iterated, "
              "at most %d iterations to 1e-3 m/s\n", stats.size(), iterating, worst);
}

// The controller's rule, recomputed in float as the solver does: grow x1.25 (capped) after fewer
// than a quarter of the cap, shrink x0.8 after more than three quarters.
float nextStep(float dt, int iterations, int cap, float requested) {
  if (4.0 * iterations < cap) return std::min(dt * 1.25f, requested);
  if (4.0 * iterations > 3.0 * cap) return dt * 0.8f;
  return dt;
}

// How many halvings (retries) turn `from` into `to`, or -1 if none does.
int halvings(float from, float to) {
  for (int j = 0; j < 40; ++j, from *= 0.5f)
    if (from == to) return j;
  return -1;
}

TEST_P(NonlinearCgTest, DivergedStepsAreRetriedAtHalfTheStep) {
  // omega = sqrt(k / m) = 1000/s: the requested 1/60 s is h omega = 17.
  const ClothModel model = pinnedSpring(0.01f, 1e4f, 0.1f, 0.02f);
  SolverParams params = nlcgParams(1e-3f);
  auto solver = makeTestSolver(model, params, GetParam());
  solver->advance(kFrame, 1);
  const std::vector<SolveStats> stats = solver->lastSolveStats();
  ASSERT_GE(stats.size(), 2u);
  EXPECT_NEAR(frameTime(stats), kFrame, 1e-6 * kFrame);
  // The first attempt starts at the requested step; what was taken is that halved j >= 1 times.
  const int firstRetries = halvings(kFrame, stats[0].dt);
  EXPECT_GE(firstRetries, 1) << "dt " << stats[0].dt;
  int retries = firstRetries, grown = 0;
  // Every later step but the frame's last is the rule applied to the one before, then halved once
  // per retry; or, when the attempt was the frame's clamped last one and diverged, what remained
  // of the frame halved (the solver keeps time in double: so does this).
  double elapsed = 0;
  for (size_t i = 0; i + 2 < stats.size(); ++i) {
    elapsed += stats[i].dt;
    const float planned = nextStep(stats[i].dt, stats[i].iterations, params.maxIterations, kFrame);
    int j = halvings(planned, stats[i + 1].dt);
    if (j < 0) j = halvings(static_cast<float>(double(kFrame) - elapsed), stats[i + 1].dt);
    ASSERT_GE(j, 0) << "step " << i + 1 << ": dt " << stats[i + 1].dt << " after " << stats[i].dt;
    retries += j;
    grown += j == 0 && planned > stats[i].dt;
  }
  EXPECT_GT(retries, firstRetries) << "the step grows back into the limit and is retried again";
  EXPECT_GT(grown, 0);
  float smallest = kFrame;
  for (const SolveStats& s : stats) {
    EXPECT_TRUE(s.converged);
    smallest = std::min(smallest, s.dt);
  }
  std::printf("[ info ] nonlinear-cg, h omega = 17 requested: %zu steps, %d retries, first dt = 1/60 / 2^%d, "
              "smallest h omega %.2f\n", stats.size(), retries, firstRetries, smallest * 1000.0);
}

TEST_P(NonlinearCgTest, EasyStepsGrowTheStepBackToTheRequestedOne) {
  ClothModel model = freeParticles({glm::vec3(0.f, 2.f, 0.f)}, 0.01f);
  auto solver = makeTestSolver(model, nlcgParams(1e-3f), GetParam());
  solver->advance(kFrame, 16);  // leaves the adaptive step at 1/60 / 16
  ASSERT_EQ(solver->lastSolveStats().size(), 16u);
  // Every step is easy (free fall: one exact secant step at most), so each grows the next x1.25
  // until it is the requested one; a frame's last step is clamped to land on the frame.
  float dt = kFrame / 16;
  size_t steps = 0;
  int frames = 0;
  while (frames++ < 10) {
    solver->advance(kFrame, 1);
    const std::vector<SolveStats> stats = solver->lastSolveStats();
    EXPECT_NEAR(frameTime(stats), kFrame, 1e-6 * kFrame);
    for (size_t i = 0; i < stats.size(); ++i) {
      EXPECT_LE(stats[i].iterations, 1);
      EXPECT_TRUE(stats[i].converged);
      if (i + 1 < stats.size()) {
        EXPECT_EQ(stats[i].dt, dt) << "frame " << frames << " step " << i;
      }
      dt = std::min(dt * 1.25f, kFrame);
    }
    steps += stats.size();
    if (stats.size() == 1 && stats[0].dt == kFrame) break;
  }
  // 1.25^13 > 16: thirteen growths over three frames; the fourth is one requested step.
  EXPECT_EQ(steps - 1, 13u);
  EXPECT_EQ(frames, 4);
  EXPECT_EQ(dt, kFrame);
  std::printf("[ info ] nonlinear-cg: from 1/16 of the frame back to the requested step in %zu steps, %d frames\n",
              steps - 1, frames);
}

TEST_P(NonlinearCgTest, ANonFiniteStateIsAnErrorNotEndlessRetries) {
  // A spring of 1e38 N/m stretched by 10 cm pulls with more than a float holds, whatever the step
  // (writeState refuses a state that is not finite, so the overflow has to come from the physics).
  const ClothModel model = pinnedSpring(0.01f, 1e38f, 0.1f, 0.1f);
  auto solver = makeTestSolver(model, nlcgParams(1e-3f), GetParam());
  // Every attempt diverges at once; after 20 halvings (a millionth of the step) it gives up.
  EXPECT_THROW(solver->advance(kFrame, 1), SolveError);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  EXPECT_EQ(x[1], glm::vec4(0.2f, 0.f, 0.f, 100.f)) << "the state the frame started from is kept";
}

TEST_P(NonlinearCgTest, SmallOscillationsDecayAsImplicitEulers) {
  // A 1 mm oscillation of a particle on a spring, omega = 10/s, frames of 0.05 s. Whatever steps h
  // the solve takes, implicit Euler multiplies omega^2 x^2 + v^2 by exactly 1 / (1 + omega^2 h^2)
  // a step; explicit Euler, the solve's prediction, by 1 + omega^2 h^2. With only the absolute
  // tolerance (1e-3 m/s) a prediction of so small a motion passes nearly unchecked (0.099 of the
  // energy left where implicit Euler leaves 0.062); the relative tolerance resolves it.
  const float mass = 0.1f, stiffness = 10.f, amplitude = 1e-3f, rest = 0.1f;
  const double omega2 = stiffness / mass;
  const ClothModel model = pinnedSpring(mass, stiffness, rest, amplitude);
  SolverParams params = nlcgParams(1e-3f);
  params.environment.gravity = glm::vec3(0.f);
  params.environment.airDrag = 0.f;
  params.relativeTolerance = 1e-3f;
  auto solver = makeTestSolver(model, params, GetParam());
  double implicitEuler = 1.0;
  for (int frame = 0; frame < 20; ++frame) {
    solver->advance(0.05f, 1);
    for (const SolveStats& s : solver->lastSolveStats()) implicitEuler /= 1.0 + omega2 * double(s.dt) * s.dt;
  }
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  const double stretch = double(glm::length(glm::vec3(x[1] - x[0]))) - rest;
  const double measure = omega2 * stretch * stretch + double(glm::dot(glm::vec3(v[1]), glm::vec3(v[1])));
  const double ratio = measure / (omega2 * amplitude * amplitude);
  EXPECT_NEAR(ratio, implicitEuler, 0.05 * implicitEuler) << "the steps taken damp it to " << implicitEuler;
}

INSTANTIATE_TEST_SUITE_P(Backends, NonlinearCgTest, ::testing::ValuesIn(allBackends()), backendParamName);

class NonlinearCgAgreeTest : public ValidatedTest {};

TEST_F(NonlinearCgAgreeTest, RecordingAFrameIntoAHostCommandBufferIsRefused) {
  // The host decides after each step whether to retry it: no single command buffer holds a frame.
  auto solver = makeTestSolver(freeParticles({glm::vec3(0.f)}, 0.01f), nlcgParams(1e-3f), Backend::Gpu);
  auto* gpu = dynamic_cast<GpuSolver*>(solver.get());
  ASSERT_NE(gpu, nullptr);
  EXPECT_THROW(gpu->recordAdvance(VK_NULL_HANDLE, kFrame, 1), std::logic_error);
}

TEST_F(NonlinearCgAgreeTest, GpuMatchesCpuOverAShortHorizon) {
  // Requested steps below the divergence limit (h omega ~ 0.4): both backends take the same
  // steps, so only the solves' own tolerances separate them. The cloth starts horizontal, so it
  // swings and stretches its springs, and the solves iterate.
  ClothModel model = stiffVerticalCloth();
  {
    GridSpec grid;
    grid.width = 8;
    grid.height = 8;
    grid.origin = glm::vec3(-0.5f, 1.5f, 0.f);
    grid.totalMass = 0.3f;
    model = buildGrid(grid, Material{800.f, 200.f, 20.f, 0.5f});
    pinParticles(model, gridCorners(model, CornerPreset::Two));
  }
  SolverParams params = nlcgParams(1e-4f);
  params.colliders = {ColliderDesc{}};  // the ground, as the implicit-cg agreement test has
  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  const int substeps = 40, frames = 3;
  int iterations = 0;
  for (int frame = 0; frame < frames; ++frame) {
    cpu->advance(kFrame, substeps);
    gpu->advance(kFrame, substeps);
    const std::vector<SolveStats> c = cpu->lastSolveStats(), g = gpu->lastSolveStats();
    ASSERT_EQ(c.size(), size_t(substeps));
    ASSERT_EQ(g.size(), size_t(substeps));
    for (int s = 0; s < substeps; ++s) {
      EXPECT_EQ(c[s].dt, g[s].dt);
      iterations += c[s].iterations;
    }
  }
  EXPECT_GT(iterations, 0) << "no step iterated: the comparison would only cover the prediction";
  std::vector<glm::vec4> xc, vc, xg, vg;
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  float worst = maxPositionDifference(xc, xg);
  // Each backend's accepted step is within its tolerance of the exact implicit Euler step: a
  // velocity error below tol and a position error below (h + k) tol. Two backends differ by at
  // most twice that per step, and implicit Euler on this damped cloth does not amplify a
  // difference from one step to the next, so N steps stay within 2 N (h + k) tol.
  const double h = kFrame / substeps, n = double(substeps) * frames;
  const double bound = 2 * n * (h + params.velocityScale) * params.tolerance;
  EXPECT_LT(worst, bound);
  std::printf("[ info ] nonlinear-cg: max |x_gpu - x_cpu| = %.3g m after %d steps (bound %.3g m)\n", worst,
              substeps * frames, bound);
}

}  // namespace
}  // namespace weft::test
