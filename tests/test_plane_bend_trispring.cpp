// Seed 000's plane-projection bending, Bergou et al.'s quadratic bending, the trispring and the
// co-rotational membrane against the physics they stand for: the plane
// hinge answers a small fold with the dihedral's moment and a cylinder with B A / (2 R^2); a
// trispring sheet under uniform strain carries the plane-stress of its Young's modulus and Poisson
// ratio, at two resolutions and cell shapes and on irregular triangles. (The generic checks,
// forces against the energy gradient, Jacobians, projections and rigid motions, are in
// test_elements.cpp for every kind.) The functions are the ones the GPU compiles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "shaders/physics.h"
#include "solver/model/cloth_model.h"
#include "solver/model/elements.h"

namespace weft {
namespace {

using glm::vec3;

double energy(const gpu::Element& e, const std::vector<vec3>& x) {
  const gpu::Conditions c = gpu::elementConditions(e, x[e.nodes.x], x[e.nodes.y], x[e.nodes.z], x[e.nodes.w]);
  double sum = 0;
  for (uint32_t k = 0; k < c.count; ++k) sum += 0.5 * c.stiffness[k] * c.value[k] * c.value[k];
  return sum;
}

// Every element's force summed per particle.
std::vector<glm::dvec3> particleForces(const ClothModel& c, const std::vector<vec3>& x) {
  std::vector<glm::dvec3> f(x.size(), glm::dvec3(0.0));
  const vec3 zero(0.f);
  for (const gpu::Element& e : c.elements)
    for (uint32_t slot = 0; slot < elementNodeCount(e.kind); ++slot)
      f[e.nodes[slot]] += glm::dvec3(gpu::elementForce(e, slot, x[e.nodes.x], x[e.nodes.y], x[e.nodes.z],
                                                        x[e.nodes.w], zero, zero, zero, zero, zero));
  return f;
}

// One flat hinge (a 2 x 2 grid's cell, 0.3 x 0.2 m) with its wing tip x3 folded about the edge.
struct FoldedHinge {
  ClothModel cloth;
  std::vector<vec3> x;
};

enum class HingeKind { Dihedral, Plane, Quadratic };

FoldedHinge foldedHinge(float degrees, HingeKind kind) {
  GridSpec g;
  g.width = g.height = 2;
  g.sizeX = 0.3f;
  g.sizeY = 0.2f;
  FoldedHinge h{buildGrid(g, Material{}), {}};
  if (kind == HingeKind::Plane) addPlaneBending(h.cloth, {0.05f, 0.f});
  if (kind == HingeKind::Dihedral) addDihedralBending(h.cloth, {0.05f, 0.f});
  if (kind == HingeKind::Quadratic) addQuadraticBending(h.cloth, {0.05f, 0.f});
  const gpu::Element& e = h.cloth.elements.at(0);
  h.x = h.cloth.positions;
  const vec3 origin = h.x[e.nodes.x], axis = glm::normalize(h.x[e.nodes.y] - origin);
  const vec3 r = h.x[e.nodes.w] - origin, along = glm::dot(r, axis) * axis, across = r - along;
  const float angle = degrees * std::numbers::pi_v<float> / 180.f;
  h.x[e.nodes.w] = origin + along + std::cos(angle) * across + std::sin(angle) * glm::cross(axis, across);
  return h;
}

TEST(PlaneBend, SmallFoldGivesTheDihedralMomentAndForces) {
  // The moment about the edge of the force on the folded wing: B s sin(theta) cos(theta) for the
  // plane hinge against the dihedral's B s theta, equal to first order in theta.
  for (const float degrees : {1.f, 5.f, 20.f}) {
    const FoldedHinge plane = foldedHinge(degrees, HingeKind::Plane), dihedral = foldedHinge(degrees, HingeKind::Dihedral);
    ASSERT_EQ(plane.cloth.elements.size(), 1u);
    const gpu::Element &p = plane.cloth.elements[0], &d = dihedral.cloth.elements[0];
    const std::vector<glm::dvec3> fp = particleForces(plane.cloth, plane.x), fd = particleForces(dihedral.cloth, dihedral.x);
    const glm::dvec3 origin = plane.x[p.nodes.x], axis = glm::normalize(glm::dvec3(plane.x[p.nodes.y]) - origin);
    auto moment = [&](const std::vector<glm::dvec3>& f) {
      return glm::dot(glm::cross(glm::dvec3(plane.x[p.nodes.w]) - origin, f[p.nodes.w]), axis);
    };
    const double ratio = moment(fp) / moment(fd);
    double largest = 0, difference = 0;
    glm::dvec3 total(0.0), torque(0.0);
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t i = p.nodes[k];
      ASSERT_EQ(i, d.nodes[k]);
      largest = std::max(largest, glm::length(fd[i]));
      difference = std::max(difference, glm::length(fp[i] - fd[i]));
      total += fp[i];
      torque += glm::cross(glm::dvec3(plane.x[i]) - origin, fp[i]);
    }
    std::printf("[ info ] fold %.0f deg: plane / dihedral moment %.4f, largest force difference %.2f %%\n", degrees,
                ratio, 100 * difference / largest);
    if (degrees <= 5.f) {
      EXPECT_NEAR(ratio, 1.0, 0.01);
      // A plane hinge pushes a tip along the bisector of the two normals, the dihedral along its
      // own wing's normal: theta / 2 apart.
      EXPECT_LT(difference, (0.5 * degrees * std::numbers::pi / 180 + 0.005) * largest);
    } else {
      EXPECT_NEAR(ratio, std::sin(2 * degrees * std::numbers::pi / 180) / (2 * degrees * std::numbers::pi / 180), 0.01);
    }
    EXPECT_LT(glm::length(total), 1e-5 * largest);  // no net force, no net moment
    EXPECT_LT(glm::length(torque), 1e-5 * largest);
  }
}

// The dihedral's calibration, with another hinge: a 64 x 64 sheet of 0.5 m wrapped round a cylinder
// of radius R = 0.7 m stores B A / (2 R^2), less the boundary row's 1/63. Returns the stored energy
// over that, for hinges of `kind` with B = 1 N m.
double cylinderEnergyRatio(HingeKind kind) {
  GridSpec g;
  g.width = g.height = 64;
  g.sizeX = g.sizeY = 0.5f;
  ClothModel c = buildGrid(g, Material{});
  if (kind == HingeKind::Plane) addPlaneBending(c, {1.f, 0.f});
  if (kind == HingeKind::Quadratic) addQuadraticBending(c, {1.f, 0.f});
  const double radius = 0.7;
  std::vector<vec3> bent = c.positions;
  for (vec3& p : bent) p = vec3(radius * std::sin(p.x / radius), radius * (1 - std::cos(p.x / radius)), p.z);
  double total = 0;
  for (const gpu::Element& e : c.elements) total += energy(e, bent);
  const double expected = 0.5 * 0.25 / (radius * radius) * (62.0 / 63.0);
  std::printf("[ info ] %s hinges on a cylinder: %.6g J against %.6g\n", kind == HingeKind::Plane ? "plane" : "quadratic",
              total, expected);
  return total / expected;
}

TEST(PlaneBend, CylinderStoresHalfModulusTimesAreaOverRadiusSquared) {
  EXPECT_NEAR(cylinderEnergyRatio(HingeKind::Plane), 1.0, 0.01);
}

// Quadratic bending: folding a tip by theta moves it along a chord of 2 h sin(theta / 2), so the
// hinge stores B/2 s (2 sin(theta / 2))^2 against the dihedral's B/2 s theta^2: equal to second order.
TEST(QuadraticBend, FoldStoresTheDihedralEnergyToSecondOrder) {
  for (const float degrees : {1.f, 5.f, 20.f, 60.f}) {
    const FoldedHinge quadratic = foldedHinge(degrees, HingeKind::Quadratic);
    const FoldedHinge dihedral = foldedHinge(degrees, HingeKind::Dihedral);
    ASSERT_EQ(quadratic.cloth.elements.size(), 1u);
    const double theta = degrees * std::numbers::pi / 180;
    const double chord = 2 * std::sin(theta / 2) / theta;
    const double ratio = energy(quadratic.cloth.elements[0], quadratic.x) / energy(dihedral.cloth.elements[0], dihedral.x);
    EXPECT_NEAR(ratio, chord * chord, 1e-3 * chord * chord) << degrees << " degrees";
  }
}

// Any affine image of the flat rest state (rigid motion, in-plane stretch and shear, even a
// flattening out of the plane) bends nothing: sum K_n = 0 and sum K_n x_n = 0 at rest.
TEST(QuadraticBend, AffineImagesOfTheFlatRestStoreNoEnergy) {
  GridSpec g;
  g.width = g.height = 5;
  g.sizeX = 0.4f;
  g.sizeY = 0.3f;
  ClothModel c = buildGrid(g, Material{});
  addQuadraticBending(c, {0.05f, 0.f});
  ASSERT_EQ(c.elements.size(), c.bendPairs.size());
  // For scale: one hinge folded by 1 degree.
  const double fold = energy(foldedHinge(1.f, HingeKind::Quadratic).cloth.elements[0],
                             foldedHinge(1.f, HingeKind::Quadratic).x);
  const glm::mat3 maps[] = {
      glm::mat3(glm::vec3(0.f, 0.f, -1.f), glm::vec3(0.6f, 0.8f, 0.f), glm::vec3(0.8f, -0.6f, 0.f)),  // rotation
      glm::mat3(glm::vec3(1.3f, 0.f, 0.f), glm::vec3(0.f, 1.f, 0.f), glm::vec3(0.4f, 0.f, 0.7f)),    // stretch, shear
      glm::mat3(glm::vec3(1.f, 0.5f, 0.2f), glm::vec3(0.f, 1.f, 0.f), glm::vec3(-0.3f, 0.9f, 1.1f)), // general
  };
  for (const glm::mat3& m : maps) {
    std::vector<vec3> x = c.positions;
    for (vec3& p : x) p = m * p + vec3(2.f, -1.f, 0.5f);
    double total = 0;
    for (const gpu::Element& e : c.elements) total += energy(e, x);
    // Float rounding of sum K_n x_n at 2 m from the origin: the energy of a fold of a few
    // thousandths of a degree over the whole sheet, against the 1-degree fold of one hinge.
    EXPECT_LT(total, 1e-5 * fold);
  }
}

TEST(QuadraticBend, CylinderStoresHalfModulusTimesAreaOverRadiusSquared) {
  EXPECT_NEAR(cylinderEnergyRatio(HingeKind::Quadratic), 1.0, 0.02);
}

// Nominal stress (N/m) of a trispring sheet deformed uniformly by x -> (1 + ex) x, z -> (1 + ez) z:
// the elastic force on the last column (row), per metre of its rest length. A uniform strain
// leaves the interior in equilibrium: `interior` is the largest force there.
struct SheetStress {
  double xx, zz, interior;
};

// The membranes of an isotropic sheet (Y = 1000 N/m, nu = 0.3) this file measures.
enum class SheetKind { Trispring, Corotational };

SheetStress sheetStress(SheetKind kind, uint32_t width, uint32_t height, float sizeX, float sizeZ, float ex, float ez) {
  GridSpec g;
  g.width = width;
  g.height = height;
  g.sizeX = sizeX;
  g.sizeY = sizeZ;
  ClothModel c = buildGrid(g, Material{});
  if (kind == SheetKind::Trispring) addTrisprings(c, {1000.f, 0.3f, 0.f});
  else addCorotational(c, {1000.f, 0.3f, 0.f});
  std::vector<vec3> x = c.positions;
  for (vec3& p : x) p = vec3((1 + ex) * p.x, p.y, (1 + ez) * p.z);
  const std::vector<glm::dvec3> f = particleForces(c, x);
  SheetStress s{0, 0, 0};
  for (uint32_t row = 0; row < height; ++row)
    for (uint32_t col = 0; col < width; ++col) {
      const glm::dvec3 fi = f[row * width + col];
      if (col == width - 1) s.xx -= fi.x / sizeZ;
      if (row == height - 1) s.zz -= fi.z / sizeX;
      if (col > 0 && row > 0 && col + 1 < width && row + 1 < height) s.interior = std::max(s.interior, glm::length(fi));
    }
  return s;
}

void expectPlaneStressAtTwoResolutions(SheetKind kind) {
  const char* name = kind == SheetKind::Trispring ? "trispring" : "co-rotational";
  // Plane stress of Y = 1000 N/m, nu = 0.3: sigma_xx = Y / (1 - nu^2) (e_xx + nu e_zz). Uniaxial
  // strain (e, 0) gives Y e / (1 - nu^2) along x and nu times that across; uniaxial stress
  // (e, -nu e) gives Y e along x and nothing across. Square cells of 0.25 m, then cells of
  // 0.125 x 0.03 m (right triangles of 4 : 1).
  const double young = 1000, nu = 0.3, e = 1e-3;
  struct Grid { uint32_t w, h; float sx, sz; };
  for (const Grid grid : {Grid{5, 5, 1.f, 1.f}, Grid{9, 17, 1.f, 0.5f}}) {
    const SheetStress strain = sheetStress(kind, grid.w, grid.h, grid.sx, grid.sz, float(e), 0.f);
    const SheetStress stress = sheetStress(kind, grid.w, grid.h, grid.sx, grid.sz, float(e), float(-nu * e));
    const double sheet = young * e / (1 - nu * nu);
    std::printf("[ info ] %s %ux%u: uniaxial strain %.5f (%.5f across) N/m, expected %.5f (%.5f); "
                "uniaxial stress %.5f (%.2g across), expected %.5f (0)\n", name, grid.w, grid.h, strain.xx, strain.zz, sheet,
                nu * sheet, stress.xx, stress.zz, young * e);
    EXPECT_NEAR(strain.xx, sheet, 0.01 * sheet);
    EXPECT_NEAR(strain.zz, nu * sheet, 0.01 * sheet);
    EXPECT_NEAR(stress.xx, young * e, 0.01 * young * e);
    EXPECT_NEAR(stress.zz, 0.0, 0.01 * young * e);
    EXPECT_LT(strain.interior, 1e-2 * sheet * grid.sz / (grid.h - 1));  // each interior particle in equilibrium
  }
}

TEST(Trispring, UniformStrainGivesThePlaneStressOfItsModuliAtTwoResolutions) {
  expectPlaneStressAtTwoResolutions(SheetKind::Trispring);
}

TEST(Corotational, UniformStrainGivesThePlaneStressOfItsModuliAtTwoResolutions) {
  expectPlaneStressAtTwoResolutions(SheetKind::Corotational);
}

void expectContinuumEnergyOnAnyTriangle(SheetKind kind) {
  // Random triangles (obtuse ones too), random small strains, then a rotation: the energy is
  // A (mu eps:eps + lambda/2 tr^2 eps) of plane-stress linear elasticity, whatever the shape.
  const double young = 500, nu = 0.25, mu = young / (2 * (1 + nu)), lambda = young * nu / (1 - nu * nu);
  const glm::dmat3 rotation = glm::dmat3(glm::dvec3(0.36, 0.48, -0.8), glm::dvec3(-0.8, 0.6, 0.0), glm::dvec3(0.48, 0.64, 0.6));
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> corner(-0.2, 0.2), strain(-2e-3, 2e-3);
  int checked = 0;
  for (int trial = 0; trial < 40; ++trial) {
    ClothModel c;
    c.positions = {vec3(corner(rng), 0.f, corner(rng)), vec3(corner(rng), 0.f, corner(rng)), vec3(corner(rng), 0.f, corner(rng))};
    const double area = 0.5 * glm::cross(glm::dvec3(c.positions[1] - c.positions[0]), glm::dvec3(c.positions[2] - c.positions[0])).y;
    if (std::abs(area) < 2e-3) continue;  // slivers: float rounding, not the model, would decide
    c.triangles = {glm::uvec3(0, 1, 2)};
    if (kind == SheetKind::Trispring) addTrisprings(c, {float(young), float(nu), 0.f});
    else addCorotational(c, {float(young), float(nu), 0.f});
    ASSERT_EQ(c.elements.size(), 1u);
    const double exx = strain(rng), ezz = strain(rng), exz = strain(rng);
    std::vector<vec3> x = c.positions;
    for (vec3& p : x) p = vec3(rotation * glm::dvec3(p.x + exx * p.x + exz * p.z, 0.0, p.z + exz * p.x + ezz * p.z));
    const double trace = exx + ezz, contraction = exx * exx + ezz * ezz + 2 * exz * exz;
    const double expected = std::abs(area) * (mu * contraction + 0.5 * lambda * trace * trace);
    EXPECT_NEAR(energy(c.elements[0], x), expected, 0.02 * expected) << "trial " << trial;
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

TEST(Trispring, AnyTriangleStoresTheContinuumEnergyOfASmallStrain) {
  expectContinuumEnergyOnAnyTriangle(SheetKind::Trispring);
}

TEST(Corotational, AnyTriangleStoresTheContinuumEnergyOfASmallStrain) {
  expectContinuumEnergyOnAnyTriangle(SheetKind::Corotational);
}

// The co-rotational membrane is linear in the rotated frame: a rotation of any size leaves its
// energy and turns its forces with it, and a large uniaxial stretch stores A Y e^2 / 2 (linear
// elasticity's energy at any e, where a Green-strain model such as the trispring stiffens).
TEST(Corotational, LargeRotationsAndStretchesStayLinearInTheRotatingFrame) {
  const double young = 1000, nu = 0.3;
  GridSpec g;
  g.width = g.height = 5;
  ClothModel c = buildGrid(g, Material{});
  addCorotational(c, {float(young), float(nu), 0.f});
  for (const double e : {0.01, 0.2, 0.5}) {
    std::vector<vec3> x = c.positions;
    for (vec3& p : x) p = vec3((1 + e) * p.x, p.y, (1 - nu * e) * p.z);  // uniaxial stress
    double total = 0;
    for (const gpu::Element& el : c.elements) total += energy(el, x);
    EXPECT_NEAR(total, 0.5 * young * e * e, 1e-3 * 0.5 * young * e * e) << "stretch " << e;
    // Turned by 120 degrees about an oblique axis: the same energy, each force turned alike.
    const glm::dmat3 turn = glm::dmat3(glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1), glm::dvec3(1, 0, 0));
    std::vector<vec3> turned = x;
    for (vec3& p : turned) p = vec3(turn * glm::dvec3(p));
    double turnedTotal = 0;
    for (const gpu::Element& el : c.elements) turnedTotal += energy(el, turned);
    EXPECT_NEAR(turnedTotal, total, 1e-5 * total);
    const std::vector<glm::dvec3> f = particleForces(c, x), ft = particleForces(c, turned);
    double largest = 0, worst = 0;
    for (size_t i = 0; i < f.size(); ++i) {
      largest = std::max(largest, glm::length(f[i]));
      worst = std::max(worst, glm::length(turn * f[i] - ft[i]));
    }
    EXPECT_LT(worst, 1e-4 * largest);
  }
}

}  // namespace
}  // namespace weft
