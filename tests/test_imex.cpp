// imex (Bridson, Marino & Fedkiw 2003: elastic forces explicit by central differencing, damping
// implicit in each velocity half step) against closed forms, on both backends: free fall, an
// overdamped spring at a step where explicit damping diverges, the decay rate of a lightly damped
// spring, and the two backends agreeing on a damped cloth.
#include <cmath>
#include <limits>

#include "test_support.h"

namespace weft::test {
namespace {

class ImexTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

TEST_P(ImexTest, FreeFallIsExactForConstantGravity) {
  // Kick h/2, drift h, kick h/2 integrates a constant acceleration exactly:
  // x_n = x0 + v0 t + g t^2 / 2 and v_n = v0 + g t at t = n h, whatever h. (Implicit Euler, by
  // contrast, is off by n h^2 g / 2.) Only float rounding separates the result from the closed form.
  const glm::vec3 g(0.f, -9.81f, 0.f), x0(0.1f, 2.f, -0.3f), v0(0.5f, 1.5f, 0.f);
  const float h = 1.f / 60.f;
  const int n = 60;
  ClothModel model = freeParticles({x0}, 0.01f);
  model.velocities[0] = v0;
  SolverParams params;
  params.integrator = Integrator::Imex;
  params.environment.gravity = g;
  params.maxIterations = 4;  // M dv = h/2 M g: diagonal, exact in one iteration
  auto solver = makeTestSolver(model, params, GetParam());
  solver->advance(h * n, n);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  const double t = double(n) * h;
  const glm::dvec3 expectedX = glm::dvec3(x0) + t * glm::dvec3(v0) + 0.5 * t * t * glm::dvec3(g);
  const glm::dvec3 expectedV = glm::dvec3(v0) + t * glm::dvec3(g);
  // An ulp per step at most, carried forward over n steps: |x| ~ 2 m, |v| ~ 10 m/s.
  const double eps = std::numeric_limits<float>::epsilon();
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(x[0][k], expectedX[k], n * 2.0 * eps) << "axis " << k;
    EXPECT_NEAR(v[0][k], expectedV[k], n * 10.0 * eps) << "axis " << k;
  }
  std::printf("[ info ] imex free fall after %d steps: |x - x_exact| = %.3g m, |v - v_exact| = %.3g m/s\n", n,
              glm::length(glm::dvec3(glm::vec3(x[0])) - expectedX), glm::length(glm::dvec3(glm::vec3(v[0])) - expectedV));
}

TEST_P(ImexTest, StiffDampingIsStableWhereExplicitEulerBlowsUp) {
  // imex's elastic forces are explicit, so its own step limit is the elastic one (omega h < 2); what
  // it removes is the damping's. Here the spring is soft (omega h = sqrt(k/m) h = 0.17) and its
  // damping stiff: h c/m = 10, five times explicit Euler's damping limit of 2, so explicit Euler
  // multiplies the extension by about -9 per step. The system is heavily overdamped (zeta = 30): it
  // creeps back at the slow root of m s^2 + c s + k, and imex must follow that closed form.
  const float mass = 0.01f, stiffness = 1.f, damping = 6.f, rest = 0.2f, stretch = 0.05f;
  const float h = 1.f / 60.f;
  const int steps = 120;
  auto extensionAfter = [&](Integrator integrator, std::vector<double>& history) {
    SolverParams params;
    params.integrator = integrator;
    params.environment.gravity = glm::vec3(0.f);
    params.tolerance = 1e-6f;
    auto solver = makeTestSolver(pinnedSpring(mass, stiffness, rest, stretch, damping), params, GetParam());
    std::vector<glm::vec4> x, v;
    for (int s = 0; s < steps; s += 10) {
      solver->advance(10 * h, 10);
      solver->readState(x, v);
      history.push_back(double(x[1].x) - rest);
    }
    return history.back();
  };
  std::vector<double> explicitHistory, imexHistory;
  const double explicitEnd = extensionAfter(Integrator::ExplicitEuler, explicitHistory);
  EXPECT_TRUE(!std::isfinite(explicitEnd) || std::abs(explicitEnd) > 1.0)
      << "explicit Euler should have blown up, extension " << explicitEnd << " m";
  extensionAfter(Integrator::Imex, imexHistory);
  // x(t) = x0 (s_f e^(-s_s t) - s_s e^(-s_f t)) / (s_f - s_s), released from rest.
  const double root = std::sqrt(double(damping) * damping - 4.0 * mass * stiffness);
  const double slow = (damping - root) / (2.0 * mass), fast = (damping + root) / (2.0 * mass);
  double worst = 0;
  for (size_t k = 0; k < imexHistory.size(); ++k) {
    const double t = double(h) * 10 * (k + 1);
    const double exact = stretch * (fast * std::exp(-slow * t) - slow * std::exp(-fast * t)) / (fast - slow);
    ASSERT_TRUE(std::isfinite(imexHistory[k]));
    EXPECT_LE(std::abs(imexHistory[k]), stretch) << "bounded by the initial stretch, t = " << t;
    worst = std::max(worst, std::abs(imexHistory[k] / exact - 1.0));
  }
  EXPECT_LT(worst, 0.01) << "relative error of the overdamped creep";
  std::printf("[ info ] imex at h c/m = 10: overdamped creep within %.3g %% of the closed form over 2 s; "
              "explicit Euler's extension %.3g m\n",
              100 * worst, explicitEnd);
}

TEST_P(ImexTest, DampedSpringDecaysAtTheClosedFormRate) {
  // m x'' = -k x - c x': x = A e^(-gamma t) cos(omega_d t + phi) with gamma = c / 2m. Successive
  // maxima of x are one damped period apart and their ratio is exactly e^(-gamma T_d), so the rate
  // fitted through the peaks is gamma. Backward Euler on the damping in each half step gets it to
  // first order in h c/m: gamma (1 - h c / 4m) here, 0.4 % low.
  const float mass = 0.1f, stiffness = 40.f, damping = 0.4f, rest = 0.2f, stretch = 0.05f;
  const double gamma = damping / (2.0 * mass);  // 2 /s; omega_0 = 20 rad/s, zeta = 0.1
  const float h = 1.f / 240.f;                  // omega h = 0.083, h c/m = 0.017
  const int stride = 2, samples = 240;          // 2 s, a sample every 0.17 rad of phase
  SolverParams params;
  params.integrator = Integrator::Imex;
  params.environment.gravity = glm::vec3(0.f);
  params.tolerance = 1e-6f;
  auto solver = makeTestSolver(pinnedSpring(mass, stiffness, rest, stretch, damping), params, GetParam());
  std::vector<double> extension;
  std::vector<glm::vec4> x, v;
  for (int s = 0; s <= samples; ++s) {
    if (s > 0) solver->advance(h * stride, stride);
    solver->readState(x, v);
    extension.push_back(double(x[1].x) - rest);
  }
  // Peaks by a parabola through each sample larger than its neighbours (the first sample, the
  // release from rest, is a peak the fit cannot centre, so it is left out).
  const double dt = double(h) * stride;
  std::vector<double> peakTimes, peakValues;
  for (size_t k = 1; k + 1 < extension.size(); ++k) {
    const double a = extension[k - 1], b = extension[k], c = extension[k + 1];
    if (b > a && b >= c && b > 0) {
      const double offset = 0.5 * (a - c) / (a - 2 * b + c);
      peakTimes.push_back(dt * (double(k) + offset));
      peakValues.push_back(b - 0.25 * (a - c) * offset);
    }
  }
  ASSERT_GE(peakTimes.size(), 5u);
  const double measured = std::log(peakValues.front() / peakValues.back()) / (peakTimes.back() - peakTimes.front());
  EXPECT_NEAR(measured, gamma, 0.02 * gamma);
  std::printf("[ info ] imex damped spring: decay rate %.4f /s over %zu peaks, closed form %.4f /s (%+.2f %%)\n",
              measured, peakTimes.size(), gamma, 100 * (measured / gamma - 1));
}

class ImexAgreeTest : public ValidatedTest {};

TEST_F(ImexAgreeTest, GpuMatchesCpuOnADampedCloth) {
  // A 12 x 12 cloth hanging from two corners onto the ground, its springs damped hard enough that
  // h c/m ~ 1 (the damping solves take several iterations): the GPU passes must compute what the
  // CPU loop computes.
  GridSpec grid;
  grid.width = grid.height = 12;
  grid.origin = glm::vec3(-0.5f, 0.6f, 0.f);
  grid.totalMass = 1.f;
  ClothModel model = buildGrid(grid, Material{50.f, 10.f, 2.f, 2.f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  SolverParams params;
  params.integrator = Integrator::Imex;
  params.tolerance = 1e-5f;
  params.environment.airDrag = 1e-3f;
  params.colliders = {ColliderDesc{}};  // the ground, y = 0
  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  for (int frame = 0; frame < 30; ++frame) {
    cpu->advance(1.f / 60.f, 4);
    gpu->advance(1.f / 60.f, 4);
  }
  std::vector<glm::vec4> xc, vc, xg, vg;
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  const float worst = maxPositionDifference(xc, xg);
  // Both solve to a relative residual of 1e-5 but sum their dot products in different orders, so
  // they differ at the tolerance's level: far below 0.1 mm over 120 damped steps.
  EXPECT_LT(worst, 1e-4f);
  for (const SolveStats& s : gpu->lastSolveStats()) EXPECT_TRUE(s.converged);
  float lowest = xc[0].y;
  for (const glm::vec4& p : xc) {
    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
    lowest = std::min(lowest, p.y);
  }
  EXPECT_LT(lowest, 0.3f) << "the free corners fell";
  std::printf("[ info ] imex: max |x_gpu - x_cpu| = %.3g m after 120 steps\n", worst);
}

TEST_F(ImexAgreeTest, EmbeddedRecordingMatchesChunkedAdvance) {
  // advance() submits each half step's solve in chunks and stops after convergence; recordAdvance()
  // (a host application's command buffer) records both solves' whole caps with no host in the
  // loop. The iterations past convergence are empty dispatches, so the results are identical.
  ClothModel model = stiffHangingCloth();
  SolverParams params;
  params.integrator = Integrator::Imex;
  params.maxIterations = 12;
  expectRecordingMatchesAdvance(model, params, 32);  // 2000 N/m springs of 1.2 g: omega h ~ 0.2 at 1/1920 s
}

INSTANTIATE_TEST_SUITE_P(Backends, ImexTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
