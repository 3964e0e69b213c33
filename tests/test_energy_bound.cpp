// The energy a scene can supply (solver/model/energy_bound.h): exact motion stays within it, a state
// with a few times the energy of that motion leaves it.
#include <gtest/gtest.h>

#include "solver/model/energy_bound.h"

namespace weft {
namespace {

Scene fallingGrid() {
  Scene scene;
  GridSpec grid;
  grid.width = grid.height = 8;
  grid.totalMass = 0.5f;
  grid.origin = glm::vec3(0.f, 2.f, 0.f);
  scene.cloth = buildGrid(grid, Material{});
  scene.solver.dt = 1.f / 60.f;
  scene.solver.substeps = 1;
  return scene;
}

std::vector<glm::vec4> packed(const std::vector<glm::vec3>& v) {
  std::vector<glm::vec4> out;
  for (const glm::vec3& x : v) out.emplace_back(x, 0.f);
  return out;
}

// Free fall from v0: x = x0 + v0 t + g t^2 / 2, v = v0 + g t, every particle alike.
void freeFall(const Scene& scene, glm::vec3 v0, float t, std::vector<glm::vec4>& x, std::vector<glm::vec4>& v) {
  const glm::vec3 g = scene.environment.gravity;
  x = packed(scene.cloth.positions);
  v.assign(x.size(), glm::vec4(v0 + g * t, 0.f));
  for (glm::vec4& p : x) p += glm::vec4(v0 * t + 0.5f * g * t * t, 0.f);
}

TEST(EnergyBound, ExactFreeFallStaysWithinItAndThreeTimesItsSpeedDoesNot) {
  const Scene scene = fallingGrid();
  const glm::vec3 v0(0.3f, 1.f, 0.f);
  std::vector<glm::vec4> x, v;
  freeFall(scene, v0, 0.f, x, v);
  const EnergyBound bound(scene, x, v);
  ASSERT_TRUE(bound.bounded());
  const double ke0 = 0.5 * 0.5 * glm::dot(v0, v0);
  for (float t : {0.5f, 2.f, 10.f}) {
    freeFall(scene, v0, t, x, v);
    // Q = KE - released gravitational energy = KE0 exactly for free fall.
    EXPECT_NEAR(bound.excess(x, v), ke0, 1e-3 * ke0 + 1e-4) << "t = " << t;
    EXPECT_FALSE(bound.exceeded(x, v, t)) << "t = " << t;
    for (glm::vec4& u : v) u *= 3.f;  // 9x the kinetic energy: more than gravity released
    EXPECT_TRUE(bound.exceeded(x, v, t)) << "t = " << t;
  }
}

TEST(EnergyBound, AStretchedSpringsEnergyCountsAsSupply) {
  Scene scene = fallingGrid();
  scene.environment.gravity = glm::vec3(0.f);
  std::vector<glm::vec4> x = packed(scene.cloth.positions), v(x.size(), glm::vec4(0.f));
  for (glm::vec4& p : x) p.x *= 1.1f;  // stretched 10 % along x
  const EnergyBound bound(scene, x, v);
  double stored = 0;
  for (const Spring& s : scene.cloth.springs) {
    const double l = glm::distance(glm::vec3(x[s.a]), glm::vec3(x[s.b])) - s.restLength;
    stored += 0.5 * s.stiffness * l * l;
  }
  ASSERT_GT(stored, 1e-3);
  // All of it released as kinetic energy (twice: the slack for symplectic oscillation) passes;
  // three times it does not.
  const float perParticle = float(std::sqrt(2 * 2 * stored / 0.5));  // KE = 2 x stored
  std::vector<glm::vec4> moving(x.size(), glm::vec4(perParticle, 0.f, 0.f, 0.f));
  EXPECT_FALSE(bound.exceeded(x, moving, 1.0));
  for (glm::vec4& u : moving) u *= std::sqrt(1.5f);  // 3 x stored
  EXPECT_TRUE(bound.exceeded(x, moving, 1.0));
}

TEST(EnergyBound, WindOnAerodynamicTrianglesHasNoBound) {
  Scene scene = fallingGrid();
  std::vector<glm::vec4> x = packed(scene.cloth.positions), v(x.size(), glm::vec4(0.f));
  scene.forces.aerodynamics = AeroSpec{};
  EXPECT_TRUE(EnergyBound(scene, x, v).bounded());  // no wind: drag only takes energy out
  scene.environment.wind = glm::vec3(5.f, 0.f, 0.f);
  EXPECT_FALSE(EnergyBound(scene, x, v).bounded());
}

}  // namespace
}  // namespace weft
