// Each element kind (shaders/elements/) against its definition: forces are minus the energy
// gradient, the Jacobian blocks are the force derivative where the conditions hold, projections
// reduce the condition, and the kinds' own physics (membrane anisotropy, the hinge's moment and
// its calibration, the plate's drag and lift). The functions are the ones the GPU compiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <random>

#include "engine/error.h"
#include "shaders/physics.h"
#include "solver/model/cloth_model.h"
#include "solver/model/elements.h"

namespace weft {
namespace {

using glm::vec3;

struct Nodes {
  vec3 x[4];
};

double energy(const gpu::Element& e, const Nodes& n) {
  gpu::Conditions c = gpu::elementConditions(e, n.x[0], n.x[1], n.x[2], n.x[3]);
  double sum = 0;
  for (uint32_t k = 0; k < c.count; ++k) sum += 0.5 * c.stiffness[k] * c.value[k] * c.value[k];
  return sum;
}

vec3 force(const gpu::Element& e, const Nodes& n, uint32_t slot) {
  const vec3 zero(0.f);
  return gpu::elementForce(e, slot, n.x[0], n.x[1], n.x[2], n.x[3], zero, zero, zero, zero, zero);
}

// A flat rest triangle pair in the XZ plane (the grid's cell), as a 2 x 2 grid gives it.
ClothModel hingeCell() {
  GridSpec g;
  g.width = g.height = 2;
  g.sizeX = 0.3f;
  g.sizeY = 0.2f;
  return buildGrid(g, Material{});
}

// A few elements of every elastic kind, built from a small grid, and two contact pairs.
std::vector<gpu::Element> sampleElements() {
  GridSpec g;
  g.width = g.height = 3;
  g.sizeX = 0.4f;
  g.sizeY = 0.3f;
  ClothModel c = buildGrid(g, Material{});
  pinParticles(c, {0});
  addMembrane(c, {300.f, 100.f, 40.f, 0.f});
  addDihedralBending(c, {0.02f, 0.f});
  addTethers(c, {500.f, 0.0f});
  addPlaneBending(c, {0.02f, 0.f});
  addQuadraticBending(c, {0.02f, 0.f});
  addTrisprings(c, {400.f, 0.3f, 0.f});
  addCorotational(c, {400.f, 0.3f, 0.f});
  // Contact pairs as contact makes them (vertex 0 over a triangle, an edge over an edge), each kept
  // by a corner other than its first so the swap to node 0 is checked too. A thickness of 0.25 m
  // keeps them active under the tests' few-cm jitter.
  auto at = [&](uint32_t i) { return glm::vec4(c.positions[i], 1.f); };
  const glm::uvec4 vt(0, 4, 5, 8), ee(1, 2, 4, 7);
  c.elements.push_back(gpu::contactPairElement(
      vt, gpu::vertexTriangleWeights(c.positions[0], c.positions[4], c.positions[5], c.positions[8]), at(vt.x), at(vt.y),
      at(vt.z), at(vt.w), 2u, 0.25f, 1.f, 0.05f));
  c.elements.push_back(gpu::contactPairElement(
      ee, gpu::edgeEdgeWeights(c.positions[1], c.positions[2], c.positions[4], c.positions[7]), at(ee.x), at(ee.y),
      at(ee.z), at(ee.w), 3u, 0.25f, 1.f, 0.05f));
  return c.elements;
}

Nodes restNodes(const std::vector<glm::vec3>& positions, const gpu::Element& e) {
  return {{positions[e.nodes.x], positions[e.nodes.y], positions[e.nodes.z], positions[e.nodes.w]}};
}

std::vector<glm::vec3> sampleRest() {
  GridSpec g;
  g.width = g.height = 3;
  g.sizeX = 0.4f;
  g.sizeY = 0.3f;
  return buildGrid(g, Material{}).positions;
}

TEST(Elements, ForceIsMinusTheEnergyGradient) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> jitter(-0.04f, 0.04f);
  const std::vector<glm::vec3> rest = sampleRest();
  int checked = 0;
  uint32_t kinds = 0;  // bit per kind seen
  for (const gpu::Element& e : sampleElements()) {
    kinds |= 1u << e.kind;
    Nodes n = restNodes(rest, e);
    // Deform: every node moves a few cm; tethers are pulled past their limit.
    for (vec3& x : n.x) x += vec3(jitter(rng), jitter(rng), jitter(rng));
    if (e.kind == WEFT_ELEMENT_TETHER) n.x[0] += 0.1f * glm::normalize(n.x[0] - n.x[1]);
    if (elementNodeCount(e.kind) == 3) n.x[3] = n.x[0];
    const uint32_t nodes = elementNodeCount(e.kind);
    for (uint32_t slot = 0; slot < nodes; ++slot) {
      const vec3 f = force(e, n, slot);
      for (int d = 0; d < 3; ++d) {
        const float step = 1e-3f;
        Nodes plus = n, minus = n;
        plus.x[slot][d] += step;
        minus.x[slot][d] -= step;
        if (elementNodeCount(e.kind) == 3) plus.x[3] = plus.x[0], minus.x[3] = minus.x[0];
        const double gradient = (energy(e, plus) - energy(e, minus)) / (2 * step);
        // float energies: the difference quotient carries ~1e-4 N of rounding on these scales.
        EXPECT_NEAR(f[d], -gradient, 5e-3 * std::abs(gradient) + 2e-4)
            << "kind " << e.kind << " slot " << slot << " axis " << d;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
  // Every elastic kind is among the samples (all but the aerodynamic triangle).
  EXPECT_EQ(kinds, ((1u << WEFT_ELEMENT_KIND_COUNT) - 1u) & ~(1u << WEFT_ELEMENT_AERO));
}

TEST(Elements, JacobianProductIsTheForceDerivativeWhereConditionsHold) {
  // A rigid rotation and translation of the rest state keeps every condition at zero, where the
  // Gauss-Newton blocks are the exact -df/dx.
  const glm::mat3 rotation = glm::mat3(glm::vec3(0.8f, 0.6f, 0.f), glm::vec3(-0.6f, 0.8f, 0.f), glm::vec3(0, 0, 1));
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dir(-1.f, 1.f);
  const std::vector<glm::vec3> rest = sampleRest();
  int checked = 0;
  for (const gpu::Element& e : sampleElements()) {
    if (e.kind == WEFT_ELEMENT_TETHER) continue;  // at rest a tether is slack: no force, no block
    Nodes n = restNodes(rest, e);
    for (vec3& x : n.x) x = rotation * x + vec3(0.1f, -0.2f, 0.3f);
    vec3 u[4];
    for (vec3& v : u) v = vec3(dir(rng), dir(rng), dir(rng));
    if (elementNodeCount(e.kind) == 3) u[3] = vec3(0.f);  // node 3 repeats node 0: not a degree of freedom
    gpu::Conditions c = gpu::elementConditions(e, n.x[0], n.x[1], n.x[2], n.x[3]);
    for (uint32_t slot = 0; slot < elementNodeCount(e.kind); ++slot) {
      const vec3 ku = gpu::conditionProduct(c, slot, 1.f, u[0], u[1], u[2], u[3]);
      const float step = 1e-3f;
      Nodes plus = n, minus = n;
      for (int k = 0; k < 4; ++k) plus.x[k] += step * u[k], minus.x[k] -= step * u[k];
      const vec3 derivative = (force(e, plus, slot) - force(e, minus, slot)) / (2 * step);
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(ku[d], -derivative[d], 2e-3f * (glm::length(ku) + 1e-3f)) << "kind " << e.kind << " slot " << slot;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 50);
}

TEST(Elements, GaussNewtonBlocksArePositiveSemiDefiniteEverywhere) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> jitter(-0.1f, 0.1f);
  const std::vector<glm::vec3> rest = sampleRest();
  for (const gpu::Element& e : sampleElements()) {
    Nodes n = restNodes(rest, e);
    for (vec3& x : n.x) x += vec3(jitter(rng), jitter(rng), jitter(rng));
    gpu::Conditions c = gpu::elementConditions(e, n.x[0], n.x[1], n.x[2], n.x[3]);
    for (int trial = 0; trial < 8; ++trial) {
      vec3 u[4];
      for (vec3& v : u) v = vec3(jitter(rng), jitter(rng), jitter(rng));
      double quadratic = 0;
      for (uint32_t slot = 0; slot < 4; ++slot)
        quadratic += glm::dot(u[slot], gpu::conditionProduct(c, slot, 1.f, u[0], u[1], u[2], u[3]));
      EXPECT_GE(quadratic, -1e-6);
    }
  }
}

TEST(Elements, ProjectionReducesEachCondition) {
  // Each condition of each kind projected alone, stiff (compliance ~ 0), from a deformed state:
  // the condition falls to a small part of its value (exactly to zero were it linear).
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> jitter(-0.03f, 0.03f);
  const std::vector<glm::vec3> rest = sampleRest();
  int checked = 0;
  for (const gpu::Element& e : sampleElements()) {
    Nodes n = restNodes(rest, e);
    for (vec3& x : n.x) x += vec3(jitter(rng), jitter(rng), jitter(rng));
    if (e.kind == WEFT_ELEMENT_TETHER) n.x[0] += 0.1f * glm::normalize(n.x[0] - n.x[1]);
    if (elementNodeCount(e.kind) == 3) n.x[3] = n.x[0];
    const bool tether = e.kind == WEFT_ELEMENT_TETHER;
    const float w[4] = {1.f, tether ? 0.f : 2.f, 1.5f, 1.f};  // a tether's anchor is pinned
    const gpu::Conditions all = gpu::elementConditions(e, n.x[0], n.x[1], n.x[2], n.x[3]);
    for (uint32_t k = 0; k < all.count; ++k) {
      gpu::Conditions one = gpu::noConditions();
      one.count = 1;
      one.value[0] = all.value[k];
      one.stiffness[0] = 1e12f;
      for (int node = 0; node < 4; ++node) one.gradient[node] = all.gradient[4 * k + node];
      Nodes moved = n;
      for (uint32_t slot = 0; slot < elementNodeCount(e.kind); ++slot)
        moved.x[slot] += gpu::conditionProjection(one, slot, w[0], w[1], w[2], w[3], 1.f / 60.f);
      if (elementNodeCount(e.kind) == 3) moved.x[3] = moved.x[0];
      const gpu::Conditions after = gpu::elementConditions(e, moved.x[0], moved.x[1], moved.x[2], moved.x[3]);
      const float remaining = after.count > k ? after.value[k] : 0.f;  // a tether may fall slack
      EXPECT_LT(std::abs(remaining), 0.1f * std::abs(all.value[k])) << "kind " << e.kind << " condition " << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

// Tethers tie each free particle to its `anchors` nearest pins (the lower index first among equal
// distances), each at (1 + maxStretch) times its distance at rest; one anchor is the nearest pin,
// and asking for more anchors than there are pins ties every particle to every pin.
TEST(Elements, TethersTieEachFreeParticleToItsNearestPins) {
  GridSpec g;
  g.width = 7;
  g.height = 5;
  g.sizeX = 0.6f;
  g.sizeY = 0.4f;
  ClothModel base = buildGrid(g, Material{});
  const std::vector<uint32_t> pins = {0, 6, 31};  // two corners of the first row, a particle of the last
  pinParticles(base, pins);
  for (uint32_t anchors : {1u, 2u, 3u, 8u}) {
    ClothModel c = base;
    addTethers(c, TetherSpec{500.f, 0.02f, anchors});
    std::map<uint32_t, std::vector<const gpu::Element*>> byParticle;
    for (const gpu::Element& e : c.elements)
      if (e.kind == WEFT_ELEMENT_TETHER) byParticle[e.nodes.x].push_back(&e);
    EXPECT_EQ(byParticle.size(), c.particleCount() - pins.size()) << anchors;
    for (const auto& [i, tethers] : byParticle) {
      std::vector<std::pair<float, uint32_t>> nearest;
      for (uint32_t p : pins) nearest.push_back({glm::length(c.positions[i] - c.positions[p]), p});
      std::sort(nearest.begin(), nearest.end());
      ASSERT_EQ(tethers.size(), std::min<size_t>(anchors, pins.size())) << "particle " << i;
      for (size_t k = 0; k < tethers.size(); ++k) {
        EXPECT_EQ(tethers[k]->nodes, glm::uvec4(i, nearest[k].second, i, i)) << "particle " << i << ", anchor " << k;
        EXPECT_EQ(tethers[k]->rest.x, nearest[k].first * 1.02f);
        EXPECT_EQ(tethers[k]->stiffness0, 500.f);
      }
    }
  }
  for (uint32_t anchors : {0u, kMaxTetherAnchors + 1}) {
    ClothModel c = base;
    EXPECT_THROW(addTethers(c, TetherSpec{500.f, 0.02f, anchors}), InputError) << anchors;
  }
}

// The element table names the kinds its cloth holds (ElementTable::kinds): the GPU's kernels are
// built for those alone (WEFT_SPEC_ELEMENT_KINDS), and both backends' predictions skip the rows
// where no force-only kind is among them. A springs-only cloth holds none, though its table keeps
// a placeholder element.
TEST(Elements, TheTableNamesTheKindsItsClothHolds) {
  GridSpec g;
  g.width = 6;
  g.height = 5;
  ClothModel c = buildGrid(g, Material{});
  EXPECT_EQ(buildElementTable(c).kinds, 0u);
  EXPECT_EQ(buildElementTable(c).elements.size(), 1u);
  pinParticles(c, {0, 5});
  addTethers(c, TetherSpec{500.f, 0.02f, 2});
  EXPECT_EQ(buildElementTable(c).kinds, WEFT_ELEMENT_KIND_BIT(WEFT_ELEMENT_TETHER));
  for (uint32_t kind : {WEFT_ELEMENT_AERO, WEFT_ELEMENT_HINGE}) {
    gpu::Element e{};
    e.kind = kind;
    e.nodes = glm::uvec4(1, 2, 7, 8);
    c.elements.push_back(e);
  }
  const uint32_t kinds = buildElementTable(c).kinds;
  EXPECT_EQ(kinds, WEFT_ELEMENT_KIND_BIT(WEFT_ELEMENT_TETHER) | WEFT_ELEMENT_KIND_BIT(WEFT_ELEMENT_AERO) |
                       WEFT_ELEMENT_KIND_BIT(WEFT_ELEMENT_HINGE));
  EXPECT_NE(kinds & WEFT_FORCE_ONLY_KINDS, 0u);
  EXPECT_FALSE(gpu::elementIsElastic(WEFT_ELEMENT_AERO));
  for (uint32_t kind = 0; kind < WEFT_ELEMENT_KIND_COUNT; ++kind)
    EXPECT_EQ(gpu::elementIsElastic(kind), kind != WEFT_ELEMENT_AERO) << kind;
}

TEST(Elements, MembraneAnswersWarpAndWeftWithTheirOwnStiffness) {
  GridSpec g;
  g.width = g.height = 5;
  ClothModel c = buildGrid(g, Material{});
  const float warp = 400.f, weft = 100.f;
  addMembrane(c, {warp, weft, 50.f, 0.f});
  // Total elastic energy of a uniform stretch by 1 % along x (warp), then along z (weft).
  auto stretchedEnergy = [&](glm::vec3 scale) {
    double sum = 0;
    for (const gpu::Element& e : c.elements) {
      Nodes n = restNodes(c.positions, e);
      for (vec3& x : n.x) x *= scale;
      sum += energy(e, n);
    }
    return sum;
  };
  const double alongWarp = stretchedEnergy({1.01f, 1.f, 1.f}), alongWeft = stretchedEnergy({1.f, 1.f, 1.01f});
  // E = A k / 2 strain^2 for the 1 m^2 sheet.
  EXPECT_NEAR(alongWarp, 0.5 * warp * 1e-4, 0.02 * 0.5 * warp * 1e-4);
  EXPECT_NEAR(alongWarp / alongWeft, warp / weft, 0.02 * warp / weft);
}

TEST(Elements, RigidlyMovedElasticKindsFeelNoForce) {
  GridSpec g;
  g.width = g.height = 4;
  ClothModel c = buildGrid(g, Material{});
  addMembrane(c, {400.f, 100.f, 50.f, 0.f});
  addDihedralBending(c, {0.05f, 0.f});
  addPlaneBending(c, {0.05f, 0.f});
  addQuadraticBending(c, {0.05f, 0.f});
  addTrisprings(c, {400.f, 0.3f, 0.f});
  addCorotational(c, {400.f, 0.3f, 0.f});
  const glm::mat3 rotation(glm::vec3(0.f, 0.f, -1.f), glm::vec3(0.6f, 0.8f, 0.f), glm::vec3(0.8f, -0.6f, 0.f));
  for (const gpu::Element& e : c.elements) {
    Nodes n = restNodes(c.positions, e);
    for (vec3& x : n.x) x = rotation * x + vec3(2.f, 1.f, -3.f);
    for (uint32_t slot = 0; slot < elementNodeCount(e.kind); ++slot)
      EXPECT_LT(glm::length(force(e, n, slot)), 1e-3f) << "kind " << e.kind;
  }
}

TEST(Elements, HingeMomentIsModulusTimesScaleTimesAngleOverHeight) {
  // Fold the wing tip x3 of one hinge about the edge by 20 degrees: the force on the tip is the
  // moment B s theta divided by its height over the edge, along the face normal.
  ClothModel c = hingeCell();
  const float modulus = 0.05f;
  addDihedralBending(c, {modulus, 0.f});
  ASSERT_EQ(c.elements.size(), 1u);
  const gpu::Element e = c.elements[0];
  Nodes n = restNodes(c.positions, e);
  const vec3 origin = n.x[0], axis = glm::normalize(n.x[1] - n.x[0]);
  const float angle = 20.f * std::numbers::pi_v<float> / 180.f;
  const vec3 r = n.x[3] - origin;
  const vec3 along = glm::dot(r, axis) * axis, across = r - along;
  n.x[3] = origin + along + std::cos(angle) * across + std::sin(angle) * glm::cross(axis, across);
  const float height = glm::length(across);
  const float moment = modulus * e.rest.y * std::abs(gpu::dihedralAngle(n.x[0], n.x[1], n.x[2], n.x[3]));
  EXPECT_NEAR(std::abs(gpu::dihedralAngle(n.x[0], n.x[1], n.x[2], n.x[3])), angle, 1e-5f);
  const vec3 tip = force(e, n, 3);
  EXPECT_NEAR(glm::length(tip), moment / height, 1e-3f * moment / height);
  // Perpendicular to the folded wing and to the edge: a pure moment about the edge.
  EXPECT_LT(std::abs(glm::dot(tip, glm::normalize(n.x[3] - origin))), 1e-3f * glm::length(tip));
  EXPECT_LT(std::abs(glm::dot(tip, axis)), 1e-3f * glm::length(tip));
  // The four forces balance (no net force and no net moment about the edge's first end).
  vec3 total(0.f), torque(0.f);
  for (int k = 0; k < 4; ++k) total += force(e, n, k), torque += glm::cross(n.x[k] - origin, force(e, n, k));
  EXPECT_LT(glm::length(total), 1e-4f * glm::length(tip));
  EXPECT_LT(glm::length(torque), 1e-4f * glm::length(tip));
}

TEST(Elements, DihedralEnergyOfACylinderIsHalfModulusTimesAreaOverRadiusSquared) {
  // The calibration that makes B a modulus: a 64 x 64 sheet of 0.5 m wrapped round a cylinder of
  // radius R stores B A / (2 R^2) (minus the boundary row's share, 1/63).
  GridSpec g;
  g.width = g.height = 64;
  g.sizeX = g.sizeY = 0.5f;
  ClothModel c = buildGrid(g, Material{});
  addDihedralBending(c, {1.f, 0.f});
  const double radius = 0.7;
  std::vector<glm::vec3> bent = c.positions;
  for (glm::vec3& p : bent) p = glm::vec3(radius * std::sin(p.x / radius), radius * (1 - std::cos(p.x / radius)), p.z);
  double total = 0;
  for (const gpu::Element& e : c.elements) total += energy(e, restNodes(bent, e));
  const double expected = 0.5 * 0.25 / (radius * radius) * (62.0 / 63.0);
  EXPECT_NEAR(total, expected, 0.01 * expected);
}

TEST(Elements, FlatSheetHasNoBendingForce) {
  ClothModel c = hingeCell();
  addDihedralBending(c, {1.f, 0.f});
  const Nodes n = restNodes(c.positions, c.elements[0]);
  for (uint32_t slot = 0; slot < 4; ++slot) EXPECT_EQ(glm::length(force(c.elements[0], n, slot)), 0.f);
}

// A square plate of area 1 m^2 with unit normal n, moving at `velocity` through still air.
vec3 plateForce(const gpu::Element& e, vec3 normal, vec3 velocity, vec3 wind) {
  const vec3 a = glm::normalize(glm::abs(normal.y) < 0.9f ? glm::cross(normal, vec3(0, 1, 0)) : vec3(1, 0, 0));
  const vec3 b = glm::cross(normal, a);
  const vec3 x0(0.f), x1 = std::sqrt(2.f) * a, x2 = std::sqrt(2.f) * b;  // right triangle of area 1
  vec3 total(0.f);
  for (uint32_t slot = 0; slot < 3; ++slot)
    total += gpu::elementForce(e, slot, x0, x1, x2, x0, velocity, velocity, velocity, velocity, wind);
  return total;
}

TEST(Elements, PlateAtAngleOfAttackGetsDragAndLiftInTheAnalyticRatio) {
  ClothModel c = hingeCell();
  const AeroSpec spec{1.2f, 1.1f, 0.6f};
  addAerodynamics(c, spec);
  const gpu::Element e = c.elements[0];
  const vec3 wind(8.f, 0.f, 0.f);
  const float alpha = 30.f * std::numbers::pi_v<float> / 180.f;
  // Leading (upwind) edge raised by 30 degrees: the wind meets the underside.
  const vec3 normal(std::sin(alpha), std::cos(alpha), 0.f);
  const vec3 f = plateForce(e, normal, vec3(0.f), wind);
  const vec3 along = glm::normalize(wind);
  const float drag = glm::dot(f, along);
  const float lift = glm::length(f - drag * along);
  // drag = rho C_D / 2 A sin(alpha) |u|^2; lift / drag = C_L / C_D cos(alpha).
  EXPECT_NEAR(drag, 0.5f * spec.airDensity * spec.dragCoefficient * std::sin(alpha) * 64.f, 1e-3f * drag);
  EXPECT_NEAR(lift / drag, spec.liftCoefficient / spec.dragCoefficient * std::cos(alpha), 1e-4f);
  EXPECT_NEAR(f.y, lift, 1e-3f * lift);  // and the lift points up
  // Edge-on: no lift, no drag. The same plate carried along with the wind: nothing.
  EXPECT_LT(glm::length(plateForce(e, vec3(0.f, 1.f, 0.f), vec3(0.f), wind)), 1e-6f);
  EXPECT_EQ(glm::length(plateForce(e, normal, wind, wind)), 0.f);
}

}  // namespace
}  // namespace weft
