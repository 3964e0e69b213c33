// The explicit integrators' stable steps (solver/model/stability.h) against a chain of springs, whose
// modes are known in closed form, and against the steps themselves on both backends.
#include <cmath>
#include <numbers>

#include "solver/integrators/integrator_unit.h"
#include "solver/model/stability.h"
#include "test_support.h"

namespace weft::test {
namespace {

constexpr int kLinks = 32;
constexpr float kMass = 0.01f, kStiffness = 100.f, kDamping = 0.01f, kSpacing = 0.1f;

// kLinks equal particles along x joined by equal springs at rest, free at both ends: its axial
// modes have omega^2 = (4 k / m) sin^2(pi j / 2n), j < n, the fastest (j = n - 1) alternating
// from particle to particle. The damping is proportional (c / k the same on every spring), so
// each mode's damping rate is (c / k) omega^2.
ClothModel chain(float damping = kDamping) {
  std::vector<glm::vec3> x;
  for (int i = 0; i < kLinks; ++i) x.emplace_back(kSpacing * float(i), 0.f, 0.f);
  ClothModel m = freeParticles(x, kMass);
  for (uint32_t i = 0; i + 1 < kLinks; ++i) m.springs.push_back({i, i + 1, kSpacing, kStiffness, damping, SpringKind::Structural});
  return m;
}
// Damping 100 times the chain's: the fastest mode's omega c / k is 2, where imex's implicit
// damping lets its step run 2.15 times past 2 / omega.
constexpr float kHeavyDamping = 100 * kDamping;

// imex's stability polynomial at a mode (omega, gamma = q omega) and step h: s a (1 + a) over
// 2 (1 + a^2), which is below 1 exactly while the step holds the mode (imex.cpp).
double imexMargin(double h, double omega, double q) {
  const double x = h * omega, a = 1.0 / (1.0 + 0.5 * q * x), s = 0.5 * x * x;
  return s * a * (1.0 + a) / (2.0 * (1.0 + a * a));
}

double fastestOmega2() {
  const double s = std::sin(std::numbers::pi * (kLinks - 1) / (2.0 * kLinks));
  return 4.0 * kStiffness / kMass * s * s;
}

TEST(StableStep, AChainsBoundsHoldItsFastestModeWithinAPerCent) {
  const ModeBounds b = springModeBounds(chain(), 0.f);
  const double omega2 = fastestOmega2(), gamma = kDamping / kStiffness * omega2;
  EXPECT_GE(b.omega * b.omega, omega2 * (1 - 1e-9));
  EXPECT_LE(b.omega * b.omega, omega2 * 1.01);
  EXPECT_GE(b.gamma, gamma * (1 - 1e-9));
  EXPECT_LE(b.gamma, gamma * 1.01);
  EXPECT_DOUBLE_EQ(b.dampingPerStiffness, double(kDamping) / double(kStiffness));
  EXPECT_EQ(b.elements, 0u);
  // The air's drag adds c_air / m to every mode's damping rate.
  EXPECT_NEAR(springModeBounds(chain(), 0.02f).gamma, b.gamma + 0.02 / kMass, 0.011 * (b.gamma + 2.0));
}

TEST(StableStep, EachIntegratorsLimitIsItsStabilityRegionsAtTheChainsFastestMode) {
  const ModeBounds b = springModeBounds(chain(), 0.f);
  const double w = b.omega, g = b.gamma;
  auto step = [&](Integrator i) { return integrators::integratorUnit(i).stableStep(b); };
  // Symplectic Euler: h^2 omega^2 + 2 h gamma = 4 at its limit.
  const double hs = step(Integrator::SymplecticEuler);
  EXPECT_NEAR(hs * hs * w * w + 2 * hs * g, 4.0, 1e-9);
  EXPECT_NEAR(step(Integrator::ExplicitEuler), std::min(double(kDamping) / kStiffness, 2.0 / std::max(w, g)), 1e-15);
  EXPECT_NEAR(step(Integrator::Rk4), 2.6156 / std::max(w, g), 1e-12);
  // imex: on its polynomial's boundary at the fastest mode's least damping; 2 / omega and more.
  const double q = w * double(kDamping) / kStiffness;
  EXPECT_NEAR(imexMargin(step(Integrator::Imex), w, q), 1.0, 1e-9);
  EXPECT_GT(step(Integrator::Imex), 2.0 / w);
  const ModeBounds heavy = springModeBounds(chain(kHeavyDamping), 0.f);
  const double hHeavy = integrators::integratorUnit(Integrator::Imex).stableStep(heavy);
  EXPECT_NEAR(imexMargin(hHeavy, heavy.omega, heavy.omega * heavy.dampingPerStiffness), 1.0, 1e-9);
  EXPECT_NEAR(hHeavy * heavy.omega, 4.2958, 1e-3) << "x at q = 2";
  for (Integrator implicit : {Integrator::Verlet, Integrator::Xpbd, Integrator::ImplicitCg, Integrator::NonlinearCg,
                              Integrator::NewtonChebyshev})
    EXPECT_TRUE(std::isinf(step(implicit))) << integratorName(implicit);
  // Undamped springs: explicit Euler has no stable step; the others' limits stay finite.
  ClothModel undamped = chain();
  for (Spring& s : undamped.springs) s.damping = 0.f;
  const ModeBounds u = springModeBounds(undamped, 0.f);
  EXPECT_EQ(integrators::integratorUnit(Integrator::ExplicitEuler).stableStep(u), 0.0);
  EXPECT_NEAR(integrators::integratorUnit(Integrator::SymplecticEuler).stableStep(u), 2.0 / u.omega, 1e-12);
  EXPECT_NEAR(integrators::integratorUnit(Integrator::Imex).stableStep(u), 2.0 / u.omega, 1e-12);
}

class StableStepRun : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// The chain started in its fastest mode (alternate particles 1 mm apart along x), run 300 steps:
// the largest displacement from rest over the run, relative to the start's.
double growth(Integrator integrator, double h, Backend backend, float damping = kDamping) {
  ClothModel model = chain(damping);
  for (int i = 0; i < kLinks; ++i) model.positions[i].x += (i % 2 == 0 ? 1e-3f : -1e-3f);
  SolverParams params;
  params.integrator = integrator;
  params.environment.gravity = glm::vec3(0.f);
  auto solver = makeTestSolver(model, params, backend);
  std::vector<glm::vec4> x, v;
  double largest = 0;
  for (int chunk = 0; chunk < 30; ++chunk) {
    solver->advance(float(10 * h), 10);
    solver->readState(x, v);
    for (int i = 0; i < kLinks; ++i) {
      const double d = std::abs(double(x[i].x) - kSpacing * i);
      largest = std::isfinite(d) ? std::max(largest, d) : 1e30;
    }
  }
  return largest / 1e-3;
}

// Within the limit a mode keeps to its ellipse, whose widest displacement near omega h = 2 is the
// start's over sqrt(1 - (omega h / 2)^2): about 4 times at 0.97 of the limit. Past it the fastest
// mode's root leaves the unit circle, by about 1.6 a step at 1.03 of the limit.
TEST_P(StableStepRun, SymplecticEulerHoldsTheChainJustWithinItsStableStepAndNotJustPast) {
  const double h = integrators::integratorUnit(Integrator::SymplecticEuler).stableStep(springModeBounds(chain(), 0.f));
  EXPECT_LT(growth(Integrator::SymplecticEuler, 0.97 * h, GetParam()), 5.0);
  EXPECT_GT(growth(Integrator::SymplecticEuler, 1.03 * h, GetParam()), 1e6);
}

TEST_P(StableStepRun, Rk4AndImexHoldTheChainWithinTheirs) {
  const ModeBounds b = springModeBounds(chain(), 0.f);
  for (Integrator integrator : {Integrator::Rk4, Integrator::Imex})
    EXPECT_LT(growth(integrator, 0.97 * integrators::integratorUnit(integrator).stableStep(b), GetParam()), 5.0)
        << integratorName(integrator);
}

// The heavily damped chain: imex holds it at 0.97 of its limit, 2.15 times 2 / omega, and not at
// 1.03, where the fastest mode's root is about -1.07. The run's growth stops near 2,000 times the
// start's (particles metres apart, where the springs' forces no longer grow with it): 1,784 at
// 1.01 of the limit, 2,684 at 1.03, 0.78 at the limit itself.
TEST_P(StableStepRun, ImexHoldsAHeavilyDampedChainJustWithinItsStableStepAndNotJustPast) {
  const double h = integrators::integratorUnit(Integrator::Imex).stableStep(springModeBounds(chain(kHeavyDamping), 0.f));
  EXPECT_LT(growth(Integrator::Imex, 0.97 * h, GetParam(), kHeavyDamping), 5.0);
  EXPECT_GT(growth(Integrator::Imex, 1.03 * h, GetParam(), kHeavyDamping), 100.0);
}

INSTANTIATE_TEST_SUITE_P(Backends, StableStepRun, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
