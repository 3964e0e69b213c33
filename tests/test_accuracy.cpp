// Convergence order: as the step shrinks, each integrator approaches a small-step RK4 reference
// at its theoretical rate (1 for the implicit Euler methods, 4 for RK4, 2 for imex's central
// differencing: its backward-Euler damping is first order in h c/m, but the chain's damping,
// c/m = 0.2 /s, keeps that term far below the elastic one at these steps). The measured orders are
// printed and asserted within a band. nonlinear-cg is not here: it chooses its own (shorter)
// steps, so the requested step is not the one whose error this would measure.
#include <cmath>

#include "test_support.h"

namespace weft::test {
namespace {

// A swinging three-link chain: pinned at one end, released horizontally under gravity, with
// springs stiff enough to stretch noticeably: non-linear, smooth, and cheap.
ClothModel swingingChain() {
  ClothModel m = freeParticles({glm::vec3(0.f), glm::vec3(0.3f, 0.f, 0.f), glm::vec3(0.6f, 0.f, 0.f),
                                glm::vec3(0.9f, 0.f, 0.f)},
                               0.1f);
  m.pinned[0] = 1;
  for (uint32_t i = 0; i < 3; ++i) m.springs.push_back({i, i + 1, 0.3f, 60.f, 0.02f, SpringKind::Structural});
  return m;
}

std::vector<glm::vec4> simulate(Integrator integrator, Backend backend, float duration, int steps) {
  SolverParams params;
  params.integrator = integrator;
  params.tolerance = 1e-7f;  // solve errors far below the truncation errors being measured
  params.maxIterations = 100;
  params.newtonIterations = 4;  // enough Newton steps that the nonlinear solve error stays below truncation
  auto solver = makeTestSolver(swingingChain(), params, backend);
  // One step per advance() keeps each step's size exactly duration / steps.
  for (int s = 0; s < steps; ++s) solver->advance(duration / steps, 1);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  return x;
}

double maxError(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, double(glm::distance(glm::vec3(a[i]), glm::vec3(b[i]))));
  return worst;
}

struct OrderCase {
  Integrator integrator;
  std::vector<int> steps;  // doubling step counts, in the range where truncation error dominates rounding
  double expectedOrder;
};

class AccuracyTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

TEST_P(AccuracyTest, ErrorShrinksAtEachIntegratorsOrder) {
  const float duration = 0.4f;
  const std::vector<glm::vec4> reference = simulate(Integrator::Rk4, Backend::Cpu, duration, 4096);
  const OrderCase cases[] = {
      {Integrator::Rk4, {10, 20, 40}, 4.0},
      {Integrator::ImplicitCg, {40, 80, 160}, 1.0},
      {Integrator::NewtonChebyshev, {40, 80, 160}, 1.0},
      {Integrator::Imex, {40, 80, 160}, 2.0},
  };
  for (const OrderCase& c : cases) {
    std::vector<double> errors;
    for (int n : c.steps) errors.push_back(maxError(simulate(c.integrator, GetParam(), duration, n), reference));
    std::string report;
    for (size_t k = 1; k < errors.size(); ++k) {
      double order = std::log2(errors[k - 1] / errors[k]);
      char text[32];
      std::snprintf(text, sizeof text, " %.2f", order);
      report += text;
      EXPECT_NEAR(order, c.expectedOrder, 0.35 * c.expectedOrder)
          << integratorName(c.integrator) << " errors " << errors[k - 1] << " -> " << errors[k];
    }
    std::printf("[ info ] %s: errors %.3g %.3g %.3g, measured orders%s\n", integratorName(c.integrator), errors[0],
                errors[1], errors[2], report.c_str());
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, AccuracyTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
