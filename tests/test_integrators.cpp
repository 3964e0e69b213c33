// Each integrator against physics: a spring's period, energy behaviour (free fall and pins are in
// test_integrator_invariants.cpp).
// Every test runs on both backends.
#include <cmath>
#include <limits>
#include <numbers>

#include "test_support.h"

namespace weft::test {
namespace {

class IntegratorTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

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

INSTANTIATE_TEST_SUITE_P(Backends, IntegratorTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
