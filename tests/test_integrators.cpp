// Each integrator against physics: closed-form free fall, a spring's period, energy behaviour.
// Every test runs on both backends.
#include <cmath>
#include <limits>
#include <numbers>

#include "test_support.h"

namespace weft::test {
namespace {

class IntegratorTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

struct FreeFallCase {
  Integrator integrator;
  // Displacement after n steps of h from rest velocity v0 under g, in units of g h^2:
  // explicit Euler n(n-1)/2 (the position uses the old velocity), symplectic Euler and Verlet n(n+1)/2,
// RK4 n^2/2 (exact for constant acceleration), implicit Euler n(n+1)/2 like symplectic Euler
// (with no springs the system is M dv = h M g, solved exactly in one CG iteration; the non-linear
// CG solves the same implicit Euler step to its precision, see below).
  double (*gravityTerm)(double n);
};

TEST_P(IntegratorTest, FreeFallMatchesEachClosedForm) {
  const glm::vec3 g(0.f, -9.81f, 0.f), x0(0.1f, 2.f, -0.3f), v0(0.5f, 1.5f, 0.f);
  const float h = 1.f / 240.f;
  const int n = 120;
  const FreeFallCase cases[] = {
      {Integrator::ExplicitEuler, [](double k) { return k * (k - 1) / 2; }},
      {Integrator::SymplecticEuler, [](double k) { return k * (k + 1) / 2; }},
      {Integrator::Verlet, [](double k) { return k * (k + 1) / 2; }},
      {Integrator::Rk4, [](double k) { return k * k / 2; }},
      {Integrator::ImplicitCg, [](double k) { return k * (k + 1) / 2; }},  // backward Euler: v first
      {Integrator::NonlinearCg, [](double k) { return k * (k + 1) / 2; }},
      {Integrator::NewtonChebyshev, [](double k) { return k * (k + 1) / 2; }},  // backward Euler too
  };
  for (const FreeFallCase& c : cases) {
    ClothModel model = freeParticles({x0}, 0.01f);
    model.velocities[0] = v0;
    SolverParams params;
    params.integrator = c.integrator;
    params.environment.gravity = g;
    // Free particles: both implicit solves are exact after their first iteration (a diagonal
    // system); the GPU records every step's iterations up to the cap, so keep it small.
    params.maxIterations = 16;
    auto solver = makeTestSolver(model, params, GetParam());
    solver->advance(h * n, n);
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    glm::dvec3 expectedX = glm::dvec3(x0) + double(n) * h * glm::dvec3(v0) + c.gravityTerm(n) * h * h * glm::dvec3(g);
    glm::dvec3 expectedV = glm::dvec3(v0) + double(n) * h * glm::dvec3(g);
    // Rounding bounds. The Euler methods carry v and x forward: a few ulps per step.
    // Verlet derives v = (x - x_prev) / h, which loses up to ulp(x) / h of velocity per step
    // (cancellation), and those velocity errors integrate into n^2/2 ulp(x) of position.
    // Newton-Chebyshev solves for x and derives v = (x - x0) / h the same way.
    const double ulp = 2.0 * std::numeric_limits<float>::epsilon();  // positions are ~2 m
    const bool derived = c.integrator == Integrator::Verlet || c.integrator == Integrator::NewtonChebyshev;
    double xTolerance = derived ? 0.5 * n * n * ulp : 2e-5;
    double vTolerance = derived ? n * ulp / h : 2e-4;
    if (c.integrator == Integrator::NonlinearCg) {
      // Each accepted step leaves a residual below its reported one, R (m/s): for free fall that
      // is a velocity error r_v / k <= R and a position error h R + r_p <= (h + k) R. Over n
      // steps these add up to n R in velocity and n(n+1)/2 h R + n (h + k) R in position, on top of
      // the rounding the other integrators are allowed. (The residual is linear here, so the
      // secant search lands on the solution at once and R is rounding-sized: 1 iteration a step.)
      const std::vector<SolveStats> stats = solver->lastSolveStats();
      ASSERT_EQ(stats.size(), size_t(n)) << "free fall never needs a shorter step";
      double worst = 0;
      for (int i = 0; i < n; ++i) {
        EXPECT_TRUE(stats[i].converged);
        // The last step lands on the frame, h n in float: off h by its rounding, not by a step.
        if (i + 1 < n) {
          EXPECT_EQ(stats[i].dt, h);
        }
        worst = std::max(worst, double(stats[i].residual));
      }
      EXPECT_NEAR(stats.back().dt, h, 1e-7);
      const double k = params.velocityScale;
      vTolerance += n * worst;
      xTolerance += (0.5 * n * (n + 1) * h + n * (h + k)) * worst;
    }
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(x[0][k], expectedX[k], xTolerance) << integratorName(c.integrator) << " axis " << k;
      EXPECT_NEAR(v[0][k], expectedV[k], vTolerance) << integratorName(c.integrator) << " axis " << k;
    }
  }
}

// Times of upward zero crossings of the spring's extension, sampled every `stride` steps and
// linearly interpolated (a sample every 0.02 rad of phase: interpolation error far below 1 %).
std::vector<double> upwardCrossings(Solver& solver, float h, int samples, int stride, float restLength) {
  std::vector<double> crossings;
  std::vector<glm::vec4> x, v;
  double previous = 0;
  const double dt = double(h) * stride;
  for (int s = 0; s <= samples; ++s) {
    if (s > 0) solver.advance(h * stride, stride);
    solver.readState(x, v);
    double extension = x[1].x - restLength;
    if (s > 0 && previous < 0 && extension >= 0) crossings.push_back(dt * (s - 1 + previous / (previous - extension)));
    previous = extension;
  }
  return crossings;
}

TEST_P(IntegratorTest, SpringPeriodIsTwoPiRootMOverK) {
  // Springs are forces in every integrator but Verlet (which turns them into distance constraints,
  // which have no period).
  const float mass = 0.5f, stiffness = 200.f, rest = 0.2f;
  const double expected = 2 * std::numbers::pi * std::sqrt(mass / stiffness);  // 0.3142 s
  for (Integrator integrator : {Integrator::ExplicitEuler, Integrator::SymplecticEuler, Integrator::Rk4}) {
    SolverParams params;
    params.integrator = integrator;
    params.environment.gravity = glm::vec3(0.f);
    auto solver = makeTestSolver(pinnedSpring(mass, stiffness, rest, 0.02f), params, GetParam());
    const float h = 1e-4f;  // omega h = 2e-3: the small-dt regime
    const int stride = 10;
    std::vector<double> crossings =
        upwardCrossings(*solver, h, static_cast<int>(3.2 * expected / (h * stride)), stride, rest);
    ASSERT_GE(crossings.size(), 3u) << integratorName(integrator);
    double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    EXPECT_NEAR(period, expected, 0.01 * expected) << integratorName(integrator);
  }
}

TEST_P(IntegratorTest, SymplecticEulerEnergyStaysBoundedExplicitEulerGrows) {
  const float mass = 1.f, stiffness = 100.f, rest = 0.5f, h = 0.002f;  // omega h = 0.02
  auto run = [&](Integrator integrator, double& maxDeviation) {
    ClothModel model = pinnedSpring(mass, stiffness, rest, 0.1f);
    SolverParams params;
    params.integrator = integrator;
    params.environment.gravity = glm::vec3(0.f);
    auto solver = makeTestSolver(model, params, GetParam());
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    const double e0 = mechanicalEnergy(model, x, v);
    maxDeviation = 0;
    for (int chunk = 0; chunk < 100; ++chunk) {  // 10^4 steps as 100 frames of 100: one submission each
      solver->advance(h * 100, 100);
      solver->readState(x, v);
      maxDeviation = std::max(maxDeviation, std::abs(mechanicalEnergy(model, x, v) - e0) / e0);
    }
    return mechanicalEnergy(model, x, v) / e0;
  };
  double symplecticDeviation = 0, explicitDeviation = 0;
  double symplecticRatio = run(Integrator::SymplecticEuler, symplecticDeviation);
  double explicitRatio = run(Integrator::ExplicitEuler, explicitDeviation);
  // Symplectic Euler conserves a shadow energy within O(omega h) = 2 % of the true one.
  EXPECT_LT(symplecticDeviation, 0.03) << "final ratio " << symplecticRatio;
  // Explicit Euler multiplies the energy by (1 + (omega h)^2) per step: (1.0004)^10000 = e^4 = 55.
  EXPECT_GT(explicitRatio, 40.0);
  EXPECT_LT(explicitRatio, 70.0);
}

TEST_P(IntegratorTest, PinnedParticlesNeverMove) {
  GridSpec grid;
  grid.width = 12;
  grid.height = 12;
  grid.totalMass = 1.f;
  // Soft and damped enough that explicit Euler stays stable at this step (omega h ~ 0.05).
  ClothModel model = buildGrid(grid, Material{50.f, 10.f, 2.f, 0.1f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  for (Integrator integrator :
       {Integrator::ExplicitEuler, Integrator::SymplecticEuler, Integrator::Verlet, Integrator::Rk4}) {
    SolverParams params;
    params.integrator = integrator;
    auto solver = makeTestSolver(model, params, GetParam());
    solver->advance(1.f / 60.f * 20, 20 * 64);
    std::vector<glm::vec4> x, v;
    solver->readState(x, v);
    size_t pinnedSeen = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (model.pinned[i]) {
        ++pinnedSeen;
        EXPECT_EQ(glm::vec3(x[i]), model.positions[i]) << integratorName(integrator) << " particle " << i;
        EXPECT_EQ(glm::vec3(v[i]), glm::vec3(0.f));
      }
    EXPECT_EQ(pinnedSeen, 2u);
    // and the rest fell: the cloth's lowest point is well below the pins
    float lowest = x[0].y;
    for (const auto& p : x) lowest = std::min(lowest, p.y);
    EXPECT_LT(lowest, model.positions[0].y - 0.3f) << integratorName(integrator);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, IntegratorTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
