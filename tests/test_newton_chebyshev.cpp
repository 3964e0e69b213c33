// Newton-Chebyshev implicit Euler: stable and at rest at frame-rate steps, every solve reaching
// its tolerance, Chebyshev and Nesterov beating plain Jacobi on the same system, and the two
// backends agreeing; with either accelerator.
#include <cmath>

#include "shaders/newton.h"
#include "demos/common/demo_scene.h"
#include "solver/integrators/newton_chebyshev/newton_chebyshev.h"
#include "solver/model/scene.h"
#include "test_support.h"

namespace weft::test {
namespace {

class NewtonChebyshevTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// The spectral radius of the stiff cloth's block-Jacobi iteration at h = 1/60 s, measured as in
// ChebyshevNeedsFewerIterationsThanPlainJacobi (0.998); iteration counts are lowest there.
constexpr float kStiffClothRho = 0.998f;

SolverParams newtonParams(float tolerance, int maxIterations, float rho,
                          Acceleration acceleration = Acceleration::Chebyshev) {
  SolverParams params;
  params.integrator = Integrator::NewtonChebyshev;
  params.tolerance = tolerance;
  params.maxIterations = maxIterations;
  params.chebyshevRho = rho;
  params.acceleration = acceleration;
  return params;
}

const char* accelerationName(Acceleration a) {
  return a == Acceleration::Chebyshev ? "chebyshev" : a == Acceleration::Nesterov ? "nesterov" : "none";
}

class ChebyshevWeightsTest : public ValidatedTest {};

TEST_F(ChebyshevWeightsTest, StartAtOneAndTendToTheOptimalOverRelaxation) {
  const std::vector<float> plain = integrators::chebyshevWeights(0.f, 8);
  for (float w : plain) EXPECT_EQ(w, 1.f);
  const float rho = 0.99f;
  const std::vector<float> w = integrators::chebyshevWeights(rho, 400);
  EXPECT_EQ(w[0], 1.f);
  EXPECT_FLOAT_EQ(w[1], 2.f / (2.f - rho * rho));
  // The recurrence's fixed point: 2 / (1 + sqrt(1 - rho^2)), Young's optimal SOR factor.
  EXPECT_NEAR(w.back(), 2.0 / (1.0 + std::sqrt(1.0 - double(rho) * rho)), 1e-5);
}

TEST_F(ChebyshevWeightsTest, NesterovMomentaFollowTheScheduleOrStayFixed) {
  EXPECT_EQ(gpu::nesterovMomentum(0, kMomentumSchedule), 0.f);
  EXPECT_EQ(gpu::nesterovMomentum(0, 0.9f), 0.f);  // no earlier iterate to extrapolate from
  for (uint32_t pass = 1; pass < 50; ++pass) {
    const uint32_t k = pass + 1;  // the iterate x_k the pass makes
    EXPECT_FLOAT_EQ(gpu::nesterovMomentum(pass, kMomentumSchedule), float(k - 1) / float(k + 2)) << pass;
    EXPECT_EQ(gpu::nesterovMomentum(pass, 0.9f), 0.9f);
  }
  integrators::NewtonSettings settings{1e-3f, 40, 1, 0.99f, Acceleration::Nesterov, kMomentumSchedule};
  const std::vector<float> momenta = integrators::sweepWeights(settings, 40);
  EXPECT_EQ(momenta[0], 0.f);
  EXPECT_FLOAT_EQ(momenta[1], 0.25f);
  EXPECT_FLOAT_EQ(momenta[39], 39.f / 42.f);
  settings.acceleration = Acceleration::None;
  for (float w : integrators::sweepWeights(settings, 8)) EXPECT_EQ(w, 1.f);
  // y = x_(k+1) + beta (x_(k+1) - x_k); beta = 0 is the plain iterate whatever x_k holds.
  const glm::vec3 jacobi(1.f, 2.f, 3.f), last(0.5f, 2.5f, 3.f), beforeLast(9.f);
  EXPECT_EQ(gpu::accelerate(jacobi, beforeLast, last, 0.5f, true), glm::vec3(1.25f, 1.75f, 3.f));
  EXPECT_EQ(gpu::accelerate(jacobi, beforeLast, glm::vec3(NAN), 0.f, true), jacobi);
  EXPECT_EQ(gpu::accelerate(jacobi, beforeLast, last, 1.5f, false), gpu::chebyshevBlend(jacobi, beforeLast, 1.5f));
}

class NewtonCouplingTest : public ValidatedTest {};

TEST_F(NewtonCouplingTest, CompactBlockEqualsStiffnessPlusDampingOverH) {
  const float h = 1.f / 60.f;
  const gpu::SpringEntry spring{1, 0.1f, 2000.f, 0.5f};
  const glm::vec3 xi(0.01f, 0.02f, -0.03f);
  // stretched (transverse term kept), compressed (dropped), along a skew axis
  for (float length : {0.13f, 0.07f}) {
    const glm::vec3 xj = xi - length * glm::normalize(glm::vec3(1.f, -2.f, 0.5f));
    const glm::mat3 expected = gpu::newtonSpringBlock(xi, xj, spring, gpu::StrainLimit{0.f, 0.f}, h);
    const glm::mat3 compact = gpu::systemBlockMatrix(gpu::newtonCoupling(xi, xj, spring, gpu::StrainLimit{0.f, 0.f}, h));
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) EXPECT_NEAR(compact[c][r], expected[c][r], 1e-5f * 2000.f) << length;
  }
}

void expectStiffClothComesToRest(Backend backend, Acceleration acceleration, int maxIterations) {
  ClothModel model = stiffHangingCloth();
  SolverParams params = newtonParams(1e-3f, maxIterations, kStiffClothRho, acceleration);
  // Implicit Euler damps the stiff modes at once but barely the slow pendulum swing; air drag
  // (decay rate c/m ~ 3/s here) brings the cloth to rest, as in test_implicit.cpp.
  params.environment.airDrag = 4e-3f;
  auto solver = makeTestSolver(model, params, backend);
  std::vector<glm::vec4> x, v;
  double lastSecondMax = 0;
  int worst = 0;
  for (int frame = 0; frame < 300; ++frame) {  // 5 s, one step per frame
    solver->advance(1.f / 60.f, 1);
    for (const SolveStats& s : solver->lastSolveStats()) worst = std::max(worst, s.iterations);
    if (frame >= 240) {
      solver->readState(x, v);
      lastSecondMax = std::max(lastSecondMax, kineticEnergy(model, v));
    }
  }
  solver->readState(x, v);
  for (size_t i = 0; i < x.size(); ++i) {
    const glm::vec4& p = x[i];
    ASSERT_TRUE(std::isfinite(p.x + p.y + p.z));
    // bounded: hanging from pins at y = 1.5, a 1 m cloth stays within its own size of them
    EXPECT_GT(p.y, 1.5f - 1.5f);
    EXPECT_LT(p.y, 1.5f + 0.01f);
    if (model.pinned[i]) {
      EXPECT_EQ(glm::vec3(p), model.positions[i]) << "pinned particle " << i;
    }
  }
  // At rest and staying there: the whole last second under a micro-joule.
  EXPECT_LT(lastSecondMax, 1e-6) << "kinetic energy in the last second";
  std::printf("[ info ] newton-chebyshev (%s), stiff 16x16 at 60 Hz: at most %d Jacobi iterations a step, "
              "last-second KE %.2g J\n", accelerationName(acceleration), worst, lastSecondMax);
}

TEST_P(NewtonChebyshevTest, StiffClothAtSixtyHertzStaysBoundedAndComesToRest) {
  // The cap is per linear solve; the first, from rest, needs 120 (ChebyshevNeedsFewerIterations...).
  expectStiffClothComesToRest(GetParam(), Acceleration::Chebyshev, 192);
}

TEST_P(NewtonChebyshevTest, NesterovStiffClothAtSixtyHertzStaysBoundedAndComesToRest) {
  // The same tolerance; Nesterov's first solve needs about as many sweeps (NesterovNeedsFewer...).
  expectStiffClothComesToRest(GetParam(), Acceleration::Nesterov, 256);
}

// Runs 10 frames of hanging_verlet.json, every step's solves to `tolerance` within the cap; returns the positions.
std::vector<glm::vec4> expectEveryStepConverges(Backend backend, Acceleration acceleration, int maxIterations,
                                                float tolerance = 1e-3f) {
  Scene scene = loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json").scene;
  SolverParams params = solverParams(scene);
  params.integrator = Integrator::NewtonChebyshev;
  params.tolerance = tolerance;
  params.maxIterations = maxIterations;
  params.newtonIterations = 2;
  params.chebyshevRho = 0.9993f;  // measured for this cloth at h = 1/120 s (docs/scene-format.md)
  params.acceleration = acceleration;
  auto solver = makeTestSolver(scene.cloth, params, backend);
  int worst = 0, steps = 0;
  for (int frame = 0; frame < 10; ++frame) {
    solver->advance(scene.solver.dt, 2);
    for (const SolveStats& s : solver->lastSolveStats()) {
      ++steps;
      worst = std::max(worst, s.iterations);
      EXPECT_TRUE(s.converged) << "frame " << frame << ": residual " << s.residual << " after " << s.iterations;
      EXPECT_LE(s.residual, params.tolerance);
      EXPECT_FLOAT_EQ(s.dt, scene.solver.dt / 2);
    }
  }
  EXPECT_EQ(steps, 20);
  EXPECT_LT(worst, params.newtonIterations * params.maxIterations);
  std::printf("[ info ] newton-chebyshev (%s) on hanging.json (48x48, h = 1/120 s, 2 Newton iterations): "
              "at most %d Jacobi iterations a step to %g\n", accelerationName(acceleration), worst, tolerance);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  return x;
}

TEST_P(NewtonChebyshevTest, EveryStepReachesItsToleranceWithinTheCap) {
  // per linear solve; the first of a step needs the most, under 300
  expectEveryStepConverges(GetParam(), Acceleration::Chebyshev, 320);
}

TEST_P(NewtonChebyshevTest, NesterovReachesTheSameToleranceAndTheSameImplicitEulerState) {
  // The reference: the same implicit Euler steps solved ten times tighter (CPU, Chebyshev; 1e-5
  // meets the float floor of a 48x48 solve at 2.7e-5).
  const std::vector<glm::vec4> reference =
      expectEveryStepConverges(Backend::Cpu, Acceleration::Chebyshev, 2000, 1e-4f);
  const std::vector<glm::vec4> chebyshev = expectEveryStepConverges(GetParam(), Acceleration::Chebyshev, 320);
  const std::vector<glm::vec4> nesterov =
      expectEveryStepConverges(GetParam(), Acceleration::Nesterov, 480);
  // A solve stopped at 1e-3 of the step's right-hand side leaves an error in its slowest modes;
  // the two accelerators leave different ones but of the same size, so Nesterov's distance from
  // the reference is within twice Chebyshev's.
  const float chebyshevError = maxPositionDifference(chebyshev, reference);
  const float nesterovError = maxPositionDifference(nesterov, reference);
  EXPECT_LT(nesterovError, 2.f * chebyshevError);
  EXPECT_LT(chebyshevError, 5e-3f);
  std::printf("[ info ] hanging.json after 10 frames, max distance from the 1e-4 solution: Chebyshev %.3g m, "
              "Nesterov %.3g m\n", chebyshevError, nesterovError);
}

// Iterations of the first step's single linear solve (one Newton iteration: the same system
// whatever the solver), from rest.
int firstSolveIterations(Backend backend, float tolerance, float rho,
                         Acceleration acceleration = Acceleration::Chebyshev) {
  SolverParams params = newtonParams(tolerance, 4000, rho, acceleration);
  params.newtonIterations = 1;
  auto solver = makeTestSolver(stiffHangingCloth(), params, backend);
  solver->advance(1.f / 60.f, 1);
  const SolveStats s = solver->lastSolveStats().at(0);
  EXPECT_TRUE(s.converged) << "rho " << rho << ": residual " << s.residual;
  return s.iterations;
}

TEST_P(NewtonChebyshevTest, ChebyshevNeedsFewerIterationsThanPlainJacobi) {
  const int jacobiCoarse = firstSolveIterations(GetParam(), 1e-2f, 0.f);
  const int jacobi = firstSolveIterations(GetParam(), 1e-3f, 0.f);
  // Plain Jacobi's error falls by its spectral radius per iteration once the fast modes are gone:
  // a tenth between the two tolerances gives the estimate.
  const float rho = std::pow(0.1f, 1.f / float(jacobi - jacobiCoarse));
  const int chebyshev = firstSolveIterations(GetParam(), 1e-3f, rho);
  std::printf("[ info ] stiff 16x16 at 60 Hz, one solve to 1e-3: plain Jacobi %d iterations, measured "
              "rho %.4f, Chebyshev %d iterations (%.1fx fewer)\n",
              jacobi, rho, chebyshev, double(jacobi) / chebyshev);
  EXPECT_GT(rho, 0.99f);
  EXPECT_LT(rho, 1.f);
  // Chebyshev's rate is about 1 - sqrt(2 (1 - rho)) against Jacobi's rho: for rho = 0.998,
  // 0.063 against 0.002 per iteration in the exponent; the first iterations, where Jacobi also
  // removes the fast modes quickly, narrow the gap. At least 5x fewer.
  EXPECT_LE(chebyshev * 5, jacobi);
}

TEST_P(NewtonChebyshevTest, NesterovNeedsFewerIterationsThanPlainJacobi) {
  const int jacobi = firstSolveIterations(GetParam(), 1e-3f, 0.f, Acceleration::None);
  const int nesterov = firstSolveIterations(GetParam(), 1e-3f, 0.f, Acceleration::Nesterov);
  const int chebyshev = firstSolveIterations(GetParam(), 1e-3f, kStiffClothRho);
  std::printf("[ info ] stiff 16x16 at 60 Hz, one solve to 1e-3: plain Jacobi %d iterations, Nesterov "
              "(schedule, half steps) %d, Chebyshev (rho %.3f) %d\n", jacobi, nesterov, kStiffClothRho, chebyshev);
  // Nesterov's error falls about 1 - sqrt(lambda_min / 2) per iteration against Jacobi's
  // 1 - lambda_min, lambda_min ~ 0.002 here: 0.03 against 0.002 in the exponent. At least 5x
  // fewer, as for Chebyshev (measured: 13.7x); without momentum its half steps would need twice
  // plain Jacobi's count.
  EXPECT_LE(nesterov * 5, jacobi);
}

INSTANTIATE_TEST_SUITE_P(Backends, NewtonChebyshevTest, ::testing::ValuesIn(allBackends()), backendParamName);

class NewtonChebyshevAgreeTest : public ValidatedTest {};

void expectGpuMatchesCpu(Acceleration acceleration, int maxIterations) {
  ClothModel model = stiffHangingCloth();
  SolverParams params = newtonParams(1e-5f, maxIterations, kStiffClothRho, acceleration);
  ColliderDesc ground;
  params.colliders = {ground};
  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  int sameCounts = 0;
  for (int frame = 0; frame < 30; ++frame) {
    cpu->advance(1.f / 60.f, 1);
    gpu->advance(1.f / 60.f, 1);
    sameCounts += cpu->lastSolveStats().at(0).iterations == gpu->lastSolveStats().at(0).iterations;
  }
  std::vector<glm::vec4> xc, vc, xg, vg;
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  float worst = maxPositionDifference(xc, xg);
  // The same passes in the same order, differing only in how the residual norms are summed (the
  // GPU's workgroup tree in float, the CPU's chunks in double) and in rounding of the 3x3
  // inverses: a check can fall on the other side of the tolerance and stop a solve one interval
  // earlier or later. Both solve each step to 1e-5 of its right-hand side, so the states differ
  // at that level: 1e-5 of a ~1 cm step, over 30 steps of a strongly damped system, is far below
  // 0.1 mm.
  EXPECT_LT(worst, 1e-4f);
  EXPECT_GE(sameCounts, 20) << "steps with equal iteration counts on both backends, of 30";
  std::printf("[ info ] newton-chebyshev (%s): max |x_gpu - x_cpu| = %.3g m after 30 steps; equal iteration "
              "counts in %d of 30 steps\n", accelerationName(acceleration), worst, sameCounts);
}

TEST_F(NewtonChebyshevAgreeTest, GpuMatchesCpuOverAShortHorizon) { expectGpuMatchesCpu(Acceleration::Chebyshev, 480); }

TEST_F(NewtonChebyshevAgreeTest, NesterovGpuMatchesCpuOverAShortHorizon) {
  expectGpuMatchesCpu(Acceleration::Nesterov, 640);
}

}  // namespace
}  // namespace weft::test
