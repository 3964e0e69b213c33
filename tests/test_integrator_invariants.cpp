// What every integrator must keep, on both backends, whatever its method: free fall along its own
// closed form, pins that never move, nothing inside a collider (ground, sphere, capsule), and the
// GPU passes computing what the CPU loop computes. One suite over the registry's integrators
// instead of a copy per integrator: a new integrator is checked by adding it to kIntegrators.
#include <algorithm>
#include <cmath>

#include "shaders/physics.h"
#include "solver/integrators/integrator_unit.h"
#include "test_support.h"

namespace weft::test {
namespace {

constexpr Integrator kIntegrators[] = {Integrator::ExplicitEuler, Integrator::SymplecticEuler, Integrator::Verlet,
                                       Integrator::Rk4,           Integrator::ImplicitCg,      Integrator::NonlinearCg,
                                       Integrator::NewtonChebyshev, Integrator::Imex, Integrator::Xpbd};

struct InvariantCase {
  Integrator integrator;
  Backend backend;
};

std::string caseName(const ::testing::TestParamInfo<InvariantCase>& info) {
  std::string name = integratorName(info.param.integrator);
  std::erase(name, '-');
  return name + (info.param.backend == Backend::Gpu ? "_gpu" : "_cpu");
}

std::vector<InvariantCase> everyIntegratorOnBothBackends() {
  std::vector<InvariantCase> cases;
  for (Integrator integrator : kIntegrators)
    for (Backend backend : allBackends()) cases.push_back({integrator, backend});
  return cases;
}

class IntegratorInvariantsTest : public ValidatedTest, public ::testing::WithParamInterface<InvariantCase> {
 protected:
  Integrator integrator() const { return GetParam().integrator; }
  // Explicit methods are stable only for omega h below a limit: they take small steps.
  int substepsPerFrame(int explicitSubsteps, int implicitSubsteps) const {
    return integrators::integratorUnit(integrator()).explicitForces() ? explicitSubsteps : implicitSubsteps;
  }
};

// Displacement after n steps of h from rest velocity v0 under g, in units of g h^2: explicit Euler
// n(n-1)/2 (the position uses the old velocity), RK4 and imex n^2/2 (exact for constant
// acceleration: imex kicks h/2, drifts h and kicks h/2, each kick solved exactly), the
// others n(n+1)/2 like symplectic Euler (Verlet's recurrence; implicit Euler, whose system for free
// particles is M dv = h M g, solved exactly in one iteration or, by nonlinear-cg, to its precision).
double gravityTerm(Integrator integrator, double n) {
  if (integrator == Integrator::ExplicitEuler) return n * (n - 1) / 2;
  if (integrator == Integrator::Rk4 || integrator == Integrator::Imex) return n * n / 2;
  return n * (n + 1) / 2;
}

TEST_P(IntegratorInvariantsTest, FreeFallFollowsTheIntegratorsClosedForm) {
  const glm::vec3 g(0.f, -9.81f, 0.f), x0(0.1f, 2.f, -0.3f), v0(0.5f, 1.5f, 0.f);
  const float h = 1.f / 240.f;
  const int n = 120;
  ClothModel model = freeParticles({x0}, 0.01f);
  model.velocities[0] = v0;
  SolverParams params;
  params.integrator = integrator();
  params.environment.gravity = g;
  // Free particles: the implicit solves are exact after their first iteration (a diagonal system);
  // the GPU records every step's iterations up to the cap, so keep it small.
  params.maxIterations = 16;
  auto solver = makeTestSolver(model, params, GetParam().backend);
  solver->advance(h * n, n);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  const glm::dvec3 expectedX =
      glm::dvec3(x0) + double(n) * h * glm::dvec3(v0) + gravityTerm(integrator(), n) * h * h * glm::dvec3(g);
  const glm::dvec3 expectedV = glm::dvec3(v0) + double(n) * h * glm::dvec3(g);
  // Rounding bounds: every integrator carries v and x forward (Verlet and Newton-Chebyshev carry the
  // step's velocity beside the positions rather than deriving it from them), a few ulps per step.
  double xTolerance = 2e-5;
  double vTolerance = 2e-4;
  if (integrator() == Integrator::NonlinearCg) {
    // Each accepted step leaves a residual below its reported one, R (m/s): for free fall that is
    // a velocity error r_v / k <= R and a position error h R + r_p <= (h + k) R. Over n steps these
    // add up to n R in velocity and n(n+1)/2 h R + n (h + k) R in position, on top of the rounding
    // the other integrators are allowed. (The residual is linear here, so the secant search lands
    // on the solution at once and R is rounding-sized: 1 iteration a step.)
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
    EXPECT_NEAR(x[0][k], expectedX[k], xTolerance) << "axis " << k;
    EXPECT_NEAR(v[0][k], expectedV[k], vTolerance) << "axis " << k;
  }
}

// A cloth 100 m from the origin falls as a point does, within 1e-4 m after 1 s. At 100 m a float
// position is good to 7.6e-6 m: integrators that derived v = (x - x_prev) / h from positions lost
// that over h at every step and were centimetres off after a second; velocities carried beside the
// positions keep the error to the positions' own rounding.
TEST_P(IntegratorInvariantsTest, ClothFarFromTheOriginFallsAsTheClosedForm) {
  GridSpec grid;
  grid.width = grid.height = 8;
  grid.sizeX = grid.sizeY = 0.5f;
  grid.origin = glm::vec3(100.f, 100.f, 100.f);
  grid.totalMass = 0.2f;
  const ClothModel model = buildGrid(grid, Material{50.f, 10.f, 2.f, 0.1f});
  SolverParams params;
  params.integrator = integrator();
  params.environment.gravity = glm::vec3(0.f, -9.81f, 0.f);
  params.maxIterations = 16;
  auto solver = makeTestSolver(model, params, GetParam().backend);
  const int frames = 60, substeps = 4, n = frames * substeps;
  const double h = 1.0 / (60.0 * substeps);
  for (int frame = 0; frame < frames; ++frame) solver->advance(1.f / 60.f, substeps);
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const glm::dvec3 expected = glm::dvec3(model.positions[i]) + gravityTerm(integrator(), n) * h * h * glm::dvec3(params.environment.gravity);
    worst = std::max(worst, glm::length(glm::dvec3(gpu::xyz(x[i])) - expected));
  }
  EXPECT_LT(worst, 1e-4) << "worst particle off its closed form by " << worst << " m";
}

TEST_P(IntegratorInvariantsTest, PinsNeverMoveAndTheRestFalls) {
  GridSpec grid;
  grid.width = 12;
  grid.height = 12;
  grid.totalMass = 1.f;
  // Soft and damped enough that explicit Euler stays stable at its step (omega h ~ 0.05).
  ClothModel model = buildGrid(grid, Material{50.f, 10.f, 2.f, 0.1f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  SolverParams params;
  params.integrator = integrator();
  auto solver = makeTestSolver(model, params, GetParam().backend);
  const int substeps = substepsPerFrame(64, 4);
  std::vector<glm::vec4> x, v;
  for (int frame = 0; frame < 60; ++frame) {  // 1 s
    solver->advance(1.f / 60.f, substeps);
    solver->readState(x, v);
    for (size_t i = 0; i < x.size(); ++i)
      if (model.pinned[i]) {
        ASSERT_EQ(glm::vec3(x[i]), model.positions[i]) << "frame " << frame << " particle " << i;
        ASSERT_EQ(glm::vec3(v[i]), glm::vec3(0.f)) << "frame " << frame << " particle " << i;
      }
  }
  EXPECT_EQ(std::count(model.pinned.begin(), model.pinned.end(), true), 2);
  // and the rest moved: the cloth's free corners swing down from the pins' height (a 1 m cloth;
  // Verlet's 4 substeps of 10 iterations swing slowest, 16 cm in the second).
  float lowest = x[0].y;
  for (const auto& p : x) lowest = std::min(lowest, p.y);
  EXPECT_LT(lowest, model.positions[0].y - 0.1f);
}

// Distance from x to the segment ab.
float segmentDistance(glm::vec3 x, glm::vec3 a, glm::vec3 b) {
  const glm::vec3 ab = b - a;
  const float t = std::clamp(glm::dot(x - a, ab) / glm::dot(ab, ab), 0.f, 1.f);
  return glm::length(x - (a + t * ab));
}

// A cloth dropped across a sphere and a capsule, whose free ends fall to the ground; `limit`: its
// material's strain limit (the projection after each step must leave the colliders the last word).
void dropOnColliders(Integrator integrator, Backend backend, int substeps, const StrainLimitSpec& limit) {
  GridSpec grid;
  grid.width = grid.height = 16;
  grid.sizeX = grid.sizeY = 0.8f;
  grid.origin = glm::vec3(-0.4f, 0.35f, -0.4f);
  grid.totalMass = 0.3f;
  Material material{60.f, 15.f, 3.f, 0.05f};
  material.strainLimit = limit;
  const ClothModel model = buildGrid(grid, material);
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = glm::vec3(-0.2f, 0.12f, 0.f);
  sphere.radius = 0.12f;
  ColliderDesc capsule;
  capsule.kind = ColliderDesc::Kind::Capsule;
  capsule.center = glm::vec3(0.15f, 0.06f, -0.3f);
  capsule.end = glm::vec3(0.2f, 0.06f, 0.3f);
  capsule.radius = 0.06f;
  ColliderDesc ground;  // y = 0
  SolverParams params;
  params.integrator = integrator;
  params.colliders = {sphere, capsule, ground};
  auto solver = makeTestSolver(model, params, backend);
  std::vector<glm::vec4> x, v;
  float lowest = 1e9f, closestToSphere = 1e9f, closestToCapsule = 1e9f;
  for (int frame = 0; frame < 45; ++frame) {  // 0.75 s: it lands on both and its edges reach the ground
    solver->advance(1.f / 60.f, substeps);
    solver->readState(x, v);
    for (const glm::vec4& p : x) {
      ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) << "frame " << frame;
      lowest = std::min(lowest, p.y);
      closestToSphere = std::min(closestToSphere, glm::distance(gpu::xyz(p), sphere.center));
      closestToCapsule = std::min(closestToCapsule, segmentDistance(gpu::xyz(p), capsule.center, capsule.end));
    }
  }
  // Colliders run last in every step, so the stored state is always outside, at the margin.
  EXPECT_GE(lowest, ground.margin - 1e-5f);
  EXPECT_GE(closestToSphere, sphere.radius + sphere.margin - 1e-5f);
  EXPECT_GE(closestToCapsule, capsule.radius + capsule.margin - 1e-5f);
  // and the cloth met all three: each within two margins of its surface at some frame.
  EXPECT_LT(lowest, 2 * ground.margin) << "the cloth never reached the ground";
  EXPECT_LT(closestToSphere, sphere.radius + 2 * sphere.margin) << "the cloth never reached the sphere";
  EXPECT_LT(closestToCapsule, capsule.radius + 2 * capsule.margin) << "the cloth never reached the capsule";
}

TEST_P(IntegratorInvariantsTest, NothingEntersTheGroundTheSphereOrTheCapsule) {
  dropOnColliders(integrator(), GetParam().backend, substepsPerFrame(40, 4), {});
}

TEST_P(IntegratorInvariantsTest, NothingEntersTheCollidersUnderAStrainLimit) {
  dropOnColliders(integrator(), GetParam().backend, substepsPerFrame(40, 4), {0.1f, 0.05f});
}

INSTANTIATE_TEST_SUITE_P(Integrators, IntegratorInvariantsTest, ::testing::ValuesIn(everyIntegratorOnBothBackends()),
                         caseName);

}  // namespace
}  // namespace weft::test
