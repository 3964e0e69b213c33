// Grid and mesh model building: spring families against hand formulas, topology of hand-counted
// meshes, mass lumping, pins, OBJ loading, and every bad input as an InputError naming the cause.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include "engine/error.h"
#include "input_error.h"
#include "solver/io/obj_mesh.h"
#include "solver/model/cloth_model.h"
#include "solver/model/motion.h"

#ifndef WEFT_SOURCE_DIR
#error "WEFT_SOURCE_DIR must name the repository root"
#endif

namespace weft {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using test::inputErrorOf;

std::string writeTempFile(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

glm::vec3 triangleNormal(const ClothModel& m, const glm::uvec3& t) {
  return glm::cross(m.positions[t[1]] - m.positions[t[0]], m.positions[t[2]] - m.positions[t[0]]);
}

// ---- Grids ----

struct GridSize {
  uint32_t w, h;
};
class GridCounts : public testing::TestWithParam<GridSize> {};

TEST_P(GridCounts, SpringFamiliesMatchHandFormulas) {
  const auto [w, h] = GetParam();
  GridSpec spec;
  spec.width = w;
  spec.height = h;
  const ClothModel m = buildGrid(spec, Material{});
  EXPECT_EQ(m.particleCount(), size_t{w} * h);
  EXPECT_EQ(m.springCount(SpringKind::Structural), h * (w - 1) + w * (h - 1));
  EXPECT_EQ(m.springCount(SpringKind::Shear), 2 * (w - 1) * (h - 1));
  EXPECT_EQ(m.springCount(SpringKind::Bend), h * (w - 2) + w * (h - 2));
  EXPECT_EQ(m.triangles.size(), 2 * (w - 1) * (h - 1));
  // Every edge of the triangulation but the 2(W-1) + 2(H-1) on the border is a hinge.
  const size_t edges = h * (w - 1) + w * (h - 1) + (w - 1) * (h - 1);
  EXPECT_EQ(m.bendPairs.size(), edges - 2 * (w - 1) - 2 * (h - 1));
  EXPECT_EQ(m.gridWidth, w);
  EXPECT_EQ(m.gridHeight, h);
  // No spring appears twice.
  std::set<std::pair<uint32_t, uint32_t>> unique;
  for (const Spring& s : m.springs) unique.emplace(std::min(s.a, s.b), std::max(s.a, s.b));
  EXPECT_EQ(unique.size(), m.springs.size());
}

INSTANTIATE_TEST_SUITE_P(Sizes, GridCounts,
                         testing::Values(GridSize{2, 2}, GridSize{3, 2}, GridSize{2, 5},
                                         GridSize{5, 7}, GridSize{48, 48}));

TEST(Grid, RestLengthsStiffnessAndDampingPerFamily) {
  GridSpec spec;
  spec.width = 5;
  spec.height = 4;
  spec.sizeX = 2.f;  // dx = 0.5
  spec.sizeY = 3.f;  // dz = 1.0
  const Material mat{1000.f, 300.f, 20.f, 0.25f};
  const ClothModel m = buildGrid(spec, mat);
  const float dx = 0.5f, dz = 1.f;
  for (const Spring& s : m.springs) {
    const uint32_t step = s.b - s.a;
    EXPECT_FLOAT_EQ(s.damping, 0.25f);
    switch (s.kind) {
      case SpringKind::Structural:
        EXPECT_FLOAT_EQ(s.stiffness, 1000.f);
        EXPECT_FLOAT_EQ(s.restLength, step == 1 ? dx : dz) << s.a << "-" << s.b;
        EXPECT_TRUE(step == 1 || step == 5);
        break;
      case SpringKind::Shear:
        EXPECT_FLOAT_EQ(s.stiffness, 300.f);
        EXPECT_FLOAT_EQ(s.restLength, std::sqrt(dx * dx + dz * dz));
        break;
      case SpringKind::Bend:
        EXPECT_FLOAT_EQ(s.stiffness, 20.f);
        EXPECT_FLOAT_EQ(s.restLength, step == 2 ? 2 * dx : 2 * dz) << s.a << "-" << s.b;
        EXPECT_TRUE(step == 2 || step == 10);
        break;
    }
  }
}

TEST(Grid, HorizontalLayoutAndNormalsPointUp) {
  GridSpec spec;
  spec.width = 4;
  spec.height = 3;
  spec.sizeX = 3.f;
  spec.sizeY = 1.f;
  spec.origin = {-1.f, 2.f, 0.5f};
  const ClothModel m = buildGrid(spec, Material{});
  // Particle (row 2, col 3) = index 11 lies at origin + (3 * 1, 0, 2 * 0.5).
  EXPECT_FLOAT_EQ(m.positions[11].x, 2.f);
  EXPECT_FLOAT_EQ(m.positions[11].y, 2.f);
  EXPECT_FLOAT_EQ(m.positions[11].z, 1.5f);
  EXPECT_FLOAT_EQ(m.positions[1].x, 0.f);
  for (const glm::uvec3& t : m.triangles) {
    const glm::vec3 n = triangleNormal(m, t);
    EXPECT_NEAR(n.y, 2 * 0.25f, 1e-6f);  // twice the area of a half cell (1 x 0.5 / 2)
    EXPECT_NEAR(n.x, 0.f, 1e-6f);
    EXPECT_NEAR(n.z, 0.f, 1e-6f);
  }
}

TEST(Grid, VerticalLayoutAndNormalsPointAlongZ) {
  GridSpec spec;
  spec.width = 3;
  spec.height = 3;
  spec.sizeX = 2.f;
  spec.sizeY = 4.f;
  spec.plane = GridPlane::Vertical;
  spec.origin = {0.f, 5.f, 1.f};
  const ClothModel m = buildGrid(spec, Material{});
  // Index 7 = row 2, col 1: origin + (1, -4, 0).
  EXPECT_FLOAT_EQ(m.positions[7].x, 1.f);
  EXPECT_FLOAT_EQ(m.positions[7].y, 1.f);
  EXPECT_FLOAT_EQ(m.positions[7].z, 1.f);
  for (const glm::uvec3& t : m.triangles) {
    const glm::vec3 n = triangleNormal(m, t);
    EXPECT_NEAR(n.z, 2.f, 1e-5f);  // cell 1 x 2, half of it, doubled
    EXPECT_NEAR(n.x, 0.f, 1e-6f);
    EXPECT_NEAR(n.y, 0.f, 1e-6f);
  }
}

TEST(Grid, TotalMassIsExact) {
  GridSpec spec;
  spec.width = 48;
  spec.height = 37;
  spec.totalMass = 0.5f;
  const ClothModel m = buildGrid(spec, Material{});
  EXPECT_NEAR(m.totalMass(), 0.5f, 1e-6f);
  for (float mass : m.masses) EXPECT_GT(mass, 0.f);
}

TEST(Grid, ArealDensityGivesMassOfTheArea) {
  GridSpec spec;
  spec.width = 10;
  spec.height = 6;
  spec.sizeX = 2.f;
  spec.sizeY = 3.f;
  spec.arealDensity = 0.2f;
  const ClothModel m = buildGrid(spec, Material{});
  EXPECT_NEAR(m.totalMass(), 0.2f * 6.f, 1e-5f);
}

TEST(Grid, LumpedMassOfCornersEdgesAndInterior) {
  // 5 x 5 particles over 4 m x 4 m: 1 m^2 cells, density 1 kg/m^2. Interior particles touch six
  // half-cell triangles (mass 1); corners (0,0) and (W-1,H-1) touch one (1/6), the other two
  // corners touch two (1/3); other border particles touch three (1/2).
  GridSpec spec;
  spec.width = 5;
  spec.height = 5;
  spec.sizeX = 4.f;
  spec.sizeY = 4.f;
  spec.arealDensity = 1.f;
  const ClothModel m = buildGrid(spec, Material{});
  EXPECT_NEAR(m.masses[12], 1.f, 1e-6f);
  EXPECT_NEAR(m.masses[6], 1.f, 1e-6f);
  EXPECT_NEAR(m.masses[0], 1.f / 6.f, 1e-6f);
  EXPECT_NEAR(m.masses[24], 1.f / 6.f, 1e-6f);
  EXPECT_NEAR(m.masses[4], 1.f / 3.f, 1e-6f);
  EXPECT_NEAR(m.masses[20], 1.f / 3.f, 1e-6f);
  EXPECT_NEAR(m.masses[2], 0.5f, 1e-6f);
  EXPECT_NEAR(m.masses[10], 0.5f, 1e-6f);
  EXPECT_NEAR(m.totalMass(), 16.f, 1e-5f);
}

TEST(Grid, StartsAtRestUnpinned) {
  const ClothModel m = buildGrid(GridSpec{}, Material{});
  ASSERT_EQ(m.velocities.size(), 32u * 32u);
  ASSERT_EQ(m.pinned.size(), 32u * 32u);
  for (const glm::vec3& v : m.velocities) EXPECT_EQ(v, glm::vec3(0.f));
  for (uint8_t p : m.pinned) EXPECT_EQ(p, 0);
  EXPECT_FLOAT_EQ(m.inverseMass(0), 1.f / m.masses[0]);
}

TEST(Grid, ImpossibleSpecsThrowInputError) {
  auto grid = [](auto change) {
    return [change] {
      GridSpec spec;
      Material mat;
      change(spec, mat);
      buildGrid(spec, mat);
    };
  };
  EXPECT_THAT(inputErrorOf(grid([](GridSpec& s, Material&) { s.width = 1; })),
              AllOf(HasSubstr("width"), HasSubstr("got 1")));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec& s, Material&) { s.height = 0; })),
              AllOf(HasSubstr("height"), HasSubstr("got 0")));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec& s, Material&) { s.width = s.height = 0; })),
              HasSubstr("width"));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec& s, Material&) { s.sizeX = 0.f; })),
              AllOf(HasSubstr("size along x"), HasSubstr("positive")));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec& s, Material&) { s.sizeY = NAN; })),
              HasSubstr("size along z"));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec& s, Material&) { s.totalMass = -1.f; })),
              AllOf(HasSubstr("total mass"), HasSubstr("got -1")));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec& s, Material&) { s.arealDensity = 0.f; })),
              HasSubstr("areal density"));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec&, Material& m) { m.shearStiffness = -5.f; })),
              AllOf(HasSubstr("shear stiffness"), HasSubstr("got -5")));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec&, Material& m) { m.damping = -0.1f; })),
              HasSubstr("damping"));
  EXPECT_THAT(inputErrorOf(grid([](GridSpec& s, Material&) { s.width = s.height = 100000; })),
              HasSubstr("larger than the limit"));
  // A total mass overrides the density, so a zero density is fine then.
  GridSpec ok;
  ok.arealDensity = 0.f;
  ok.totalMass = 1.f;
  EXPECT_NEAR(buildGrid(ok, Material{}).totalMass(), 1.f, 1e-6f);
}

// ---- Pins ----

TEST(Pins, CornerPresetsInOrder) {
  GridSpec spec;
  spec.width = 4;
  spec.height = 3;
  const ClothModel m = buildGrid(spec, Material{});
  EXPECT_TRUE(gridCorners(m, CornerPreset::None).empty());
  EXPECT_THAT(gridCorners(m, CornerPreset::One), ElementsAre(0u));
  EXPECT_THAT(gridCorners(m, CornerPreset::Two), ElementsAre(0u, 3u));
  EXPECT_THAT(gridCorners(m, CornerPreset::Three), ElementsAre(0u, 3u, 11u));
  EXPECT_THAT(gridCorners(m, CornerPreset::Four), ElementsAre(0u, 3u, 11u, 8u));
}

TEST(Pins, CornersOfAMeshAreAnError) {
  const ClothModel m =
      buildMesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}, Material{}, 1.f, 0.f);
  EXPECT_TRUE(gridCorners(m, CornerPreset::None).empty());
  EXPECT_THAT(inputErrorOf([&] { gridCorners(m, CornerPreset::Two); }), HasSubstr("grid"));
}

TEST(Pins, PinnedParticlesHaveZeroInverseMass) {
  ClothModel m = buildGrid(GridSpec{}, Material{});
  pinParticles(m, {0, 31, 31});
  EXPECT_EQ(m.pinned[0], 1);
  EXPECT_EQ(m.pinned[31], 1);
  EXPECT_EQ(m.pinned[1], 0);
  EXPECT_EQ(m.inverseMass(31), 0.f);
  EXPECT_GT(m.inverseMass(1), 0.f);
  EXPECT_THAT(inputErrorOf([&] {
                pinParticles(m, {5, 1024});
              }),
              AllOf(HasSubstr("1024"), HasSubstr("1024 particles")));
  EXPECT_EQ(m.pinned[5], 0) << "a failed call must not pin anything";
}

TEST(Model, TotalMassAndSpringCountOfAHandMadeModel) {
  ClothModel m;
  m.masses = {0.25f, 0.5f, 1.25f};
  m.springs.resize(5);
  m.springs[1].kind = SpringKind::Bend;
  m.springs[3].kind = SpringKind::Shear;
  EXPECT_FLOAT_EQ(m.totalMass(), 2.f);
  EXPECT_EQ(m.springCount(SpringKind::Structural), 3u);
  EXPECT_EQ(m.springCount(SpringKind::Shear), 1u);
  EXPECT_EQ(m.springCount(SpringKind::Bend), 1u);
}

// ---- Mesh topology (seed 002) ----

TEST(Topology, SingleTriangle) {
  const MeshTopology t = buildTopology({{2, 0, 1}}, 3);
  EXPECT_EQ(t.edges.size(), 3u);
  EXPECT_TRUE(t.bendPairs.empty());
  EXPECT_EQ(t.boundaryEdges, 3u);
  EXPECT_THAT(t.edges,
              ElementsAre(std::pair<uint32_t, uint32_t>{0, 1}, std::pair<uint32_t, uint32_t>{0, 2},
                          std::pair<uint32_t, uint32_t>{1, 2}));
}

TEST(Topology, TwoTrianglesShareOneEdge) {
  const MeshTopology t = buildTopology({{0, 1, 2}, {0, 2, 3}}, 4);
  EXPECT_EQ(t.edges.size(), 5u);
  EXPECT_EQ(t.boundaryEdges, 4u);
  ASSERT_EQ(t.bendPairs.size(), 1u);
  const BendPair& p = t.bendPairs[0];
  EXPECT_EQ(p.v0, 0u);
  EXPECT_EQ(p.v1, 2u);
  EXPECT_EQ(p.a, 1u);
  EXPECT_EQ(p.b, 3u);
  EXPECT_EQ(p.t0, 0u);
  EXPECT_EQ(p.t1, 1u);
}

TEST(Topology, TetrahedronIsClosed) {
  const std::vector<glm::uvec3> tris = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
  const MeshTopology t = buildTopology(tris, 4);
  EXPECT_EQ(t.edges.size(), 6u);
  EXPECT_EQ(t.bendPairs.size(), 6u);
  EXPECT_EQ(t.boundaryEdges, 0u);
  // In a tetrahedron the two vertices opposite an edge are exactly the other two vertices.
  for (const BendPair& p : t.bendPairs) {
    const std::set<uint32_t> all = {p.v0, p.v1, p.a, p.b};
    EXPECT_EQ(all.size(), 4u);
    EXPECT_NE(p.t0, p.t1);
  }
}

TEST(Topology, OctahedronAndCubeSatisfyEuler) {
  // Octahedron: +x, -x, +y, -y, +z, -z.
  const std::vector<glm::uvec3> octa = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                        {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  const MeshTopology o = buildTopology(octa, 6);
  EXPECT_EQ(o.edges.size(), 12u);
  EXPECT_EQ(6 - static_cast<int>(o.edges.size()) + 8, 2);
  EXPECT_EQ(o.bendPairs.size(), 12u);
  EXPECT_EQ(o.boundaryEdges, 0u);
  // Cube, two triangles per face: 8 V, 18 E (12 + 6 diagonals), 12 F.
  const std::vector<glm::uvec3> cube = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                        {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                        {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  const MeshTopology c = buildTopology(cube, 8);
  EXPECT_EQ(8 - static_cast<int>(c.edges.size()) + 12, 2);
  EXPECT_EQ(c.bendPairs.size(), 18u);
  EXPECT_EQ(c.boundaryEdges, 0u);
}

TEST(Topology, BadTrianglesThrowInputError) {
  EXPECT_THAT(inputErrorOf([] {
                buildTopology({{0, 1, 2}, {0, 1, 3}, {1, 0, 4}}, 5);
              }),
              AllOf(HasSubstr("not manifold"), HasSubstr("edge (0, 1)"), HasSubstr("3 triangles")));
  EXPECT_THAT(inputErrorOf([] {
                buildTopology({{0, 1, 2}, {0, 2, 7}}, 4);
              }),
              AllOf(HasSubstr("triangle 1"), HasSubstr("vertex 7"), HasSubstr("4 vertices")));
  EXPECT_THAT(inputErrorOf([] {
                buildTopology({{0, 1, 1}}, 3);
              }),
              AllOf(HasSubstr("triangle 0"), HasSubstr("repeats")));
  EXPECT_THAT(inputErrorOf([] {
                buildTopology({{0, 1, 2}, {2, 1, 0}}, 3);
              }),
              HasSubstr("duplicates"));
}

// ---- Meshes ----

TEST(Mesh, UnitSquareSpringsAndMasses) {
  const std::vector<glm::vec3> v = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  const Material mat{100.f, 7.f, 3.f, 0.1f};
  const ClothModel m = buildMesh(v, {{0, 1, 2}, {0, 2, 3}}, mat, 0.f, 1.f);
  EXPECT_EQ(m.springCount(SpringKind::Structural), 5u);
  EXPECT_EQ(m.springCount(SpringKind::Shear), 0u);
  ASSERT_EQ(m.springCount(SpringKind::Bend), 1u);
  for (const Spring& s : m.springs) {
    EXPECT_FLOAT_EQ(s.damping, 0.1f);
    if (s.kind == SpringKind::Bend) {
      EXPECT_EQ(std::min(s.a, s.b), 1u);
      EXPECT_EQ(std::max(s.a, s.b), 3u);
      EXPECT_FLOAT_EQ(s.restLength, std::sqrt(2.f));
      EXPECT_FLOAT_EQ(s.stiffness, 3.f);
    } else {
      const bool diagonal = s.a + s.b == 2;  // only (0, 2) sums to 2
      EXPECT_FLOAT_EQ(s.restLength, diagonal ? std::sqrt(2.f) : 1.f);
      EXPECT_FLOAT_EQ(s.stiffness, 100.f);
    }
  }
  // Vertices 0 and 2 touch both half-square triangles, 1 and 3 one each: a third of 0.5 m^2 each.
  EXPECT_NEAR(m.masses[0], 1.f / 3.f, 1e-6f);
  EXPECT_NEAR(m.masses[2], 1.f / 3.f, 1e-6f);
  EXPECT_NEAR(m.masses[1], 1.f / 6.f, 1e-6f);
  EXPECT_NEAR(m.masses[3], 1.f / 6.f, 1e-6f);
  EXPECT_EQ(m.bendPairs.size(), 1u);
  EXPECT_EQ(m.gridWidth, 0u);
  EXPECT_EQ(m.pinned, std::vector<uint8_t>(4, 0));
  const ClothModel heavy = buildMesh(v, {{0, 1, 2}, {0, 2, 3}}, mat, 2.f, 0.f);
  EXPECT_NEAR(heavy.totalMass(), 2.f, 1e-6f);
  EXPECT_NEAR(heavy.masses[0], 2.f / 3.f, 1e-6f);
}

TEST(Mesh, BadMeshesThrowInputError) {
  const std::vector<glm::vec3> v = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  const Material mat;
  EXPECT_THAT(inputErrorOf([&] { buildMesh({}, {}, mat, 1.f, 0.f); }), HasSubstr("empty"));
  EXPECT_THAT(inputErrorOf([&] {
                buildMesh(v, {{0, 1, 2}, {0, 2, 9}}, mat, 1.f, 0.f);
              }),
              AllOf(HasSubstr("triangle 1"), HasSubstr("vertex 9")));
  EXPECT_THAT(inputErrorOf([&] {
                buildMesh(v, {{0, 1, 2}, {3, 3, 0}}, mat, 1.f, 0.f);
              }),
              AllOf(HasSubstr("triangle 1"), HasSubstr("repeats")));
  const std::vector<glm::vec3> line = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}};
  EXPECT_THAT(inputErrorOf([&] {
                buildMesh(line, {{0, 1, 3}, {0, 1, 2}}, mat, 1.f, 0.f);
              }),
              AllOf(HasSubstr("triangle 1"), HasSubstr("degenerate"), HasSubstr("area")));
  EXPECT_THAT(inputErrorOf([&] {
                buildMesh(v, {{0, 1, 2}}, mat, 1.f, 0.f);
              }),
              AllOf(HasSubstr("vertex 3"), HasSubstr("not used")));
  EXPECT_THAT(inputErrorOf([&] {
                buildMesh(v, {{0, 1, 2}, {0, 2, 3}}, mat, -1.f, 0.f);
              }),
              HasSubstr("total mass"));
  EXPECT_THAT(inputErrorOf([&] {
                buildMesh(v, {{0, 1, 2}, {0, 2, 3}}, mat, 0.f, -1.f);
              }),
              HasSubstr("areal density"));
  EXPECT_THAT(inputErrorOf([&] {
                buildMesh(v, {{0, 1, 2}, {0, 2, 3}}, Material{-1.f, 0.f, 0.f, 0.f}, 1.f, 0.f);
              }),
              HasSubstr("structural stiffness"));
  const std::vector<glm::vec3> nan = {{0, 0, 0}, {1, 0, 0}, {0, NAN, 0}};
  EXPECT_THAT(inputErrorOf([&] {
                buildMesh(nan, {{0, 1, 2}}, mat, 1.f, 0.f);
              }),
              AllOf(HasSubstr("vertex 2"), HasSubstr("finite")));
}

TEST(Mesh, MoreVerticesThanTheModelsLimitAreRefused) {
  // 200 MB of vertices here; springs, masses and solver state would have taken gigabytes.
  std::vector<glm::vec3> v(size_t{kMaxParticles} + 1, glm::vec3(0.f));
  v[1] = {1, 0, 0};
  v[2] = {0, 1, 0};
  EXPECT_THAT(inputErrorOf([&] { buildMesh(v, {{0, 1, 2}}, Material{}, 1.f, 0.f); }),
              HasSubstr("mesh has 16777217 vertices, more than the limit of 16777216 particles"));
}

TEST(ObjMesh, QuadFaceIsTriangulatedScaledAndOffset) {
  MeshSpec spec;
  spec.path = writeTempFile("weft_quad.obj",
                            "# unit square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
  spec.scale = 2.f;
  spec.offset = {1.f, 0.f, -1.f};
  spec.totalMass = 0.4f;
  const ClothModel m = loadMesh(spec, Material{});
  ASSERT_EQ(m.particleCount(), 4u);
  EXPECT_EQ(m.triangles.size(), 2u);
  EXPECT_EQ(m.positions[2], glm::vec3(3.f, 2.f, -1.f));
  EXPECT_EQ(m.springCount(SpringKind::Structural), 5u);
  EXPECT_EQ(m.springCount(SpringKind::Bend), 1u);
  EXPECT_NEAR(m.totalMass(), 0.4f, 1e-6f);
  for (const Spring& s : m.springs) EXPECT_GE(s.restLength, 2.f - 1e-6f);
}

TEST(ObjMesh, BadFilesThrowInputErrorNamingTheFile) {
  MeshSpec spec;
  spec.path = testing::TempDir() + "/weft_no_such_mesh.obj";
  EXPECT_THAT(inputErrorOf([&] { loadMesh(spec, Material{}); }),
              AllOf(HasSubstr("cannot read mesh '" + spec.path + "'"),
                    HasSubstr("No such file or directory")));
  spec.path = writeTempFile("weft_zero_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
  EXPECT_THAT(
      inputErrorOf([&] { loadMesh(spec, Material{}); }),
      AllOf(HasSubstr("cannot read mesh"), HasSubstr("weft_zero_index.obj"), HasSubstr("line 4")));
  spec.path = writeTempFile("weft_far_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
  EXPECT_THAT(
      inputErrorOf([&] { loadMesh(spec, Material{}); }),
      AllOf(HasSubstr("weft_far_index.obj"), HasSubstr("vertex 9"), HasSubstr("3 vertices")));
  spec.path = writeTempFile("weft_no_faces.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
  EXPECT_THAT(inputErrorOf([&] { loadMesh(spec, Material{}); }), HasSubstr("no triangle faces"));
  spec.path = writeTempFile("weft_fan3.obj",
                            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 1 1 1\n"
                            "f 1 2 3\nf 2 1 4\nf 1 2 5\n");
  EXPECT_THAT(inputErrorOf([&] { loadMesh(spec, Material{}); }),
              AllOf(HasSubstr("weft_fan3.obj"), HasSubstr("not manifold")));
  spec.path = writeTempFile("weft_quad2.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  spec.scale = 0.f;
  EXPECT_THAT(inputErrorOf([&] { loadMesh(spec, Material{}); }), HasSubstr("scale"));
}

TEST(ObjMesh, ShippedFlagIsAnOrientedDisk) {
  MeshSpec spec;
  spec.path = std::string(WEFT_SOURCE_DIR) + "/demos/scenes/meshes/flag.obj";
  const ClothModel m = loadMesh(spec, Material{});
  EXPECT_EQ(m.particleCount(), 80u);
  EXPECT_EQ(m.triangles.size(), 126u);
  // A disk: V - E + F = 1; its border has 2 (9 + 7) edges, every other edge is a hinge.
  const size_t edges = m.springCount(SpringKind::Structural);
  EXPECT_EQ(80 - static_cast<long>(edges) + 126, 1);
  EXPECT_EQ(m.bendPairs.size(), edges - 32);
  for (const glm::uvec3& t : m.triangles) EXPECT_GT(triangleNormal(m, t).z, 0.f);
}

}  // namespace
}  // namespace weft

namespace weft {
namespace {

// Rigid motion (solver/model/motion.h): between two poses of a body turning steadily about its own
// reference point, the interpolated pose is exactly the one in between, and the velocity field
// recovered from two poses is the one that moved it.
TEST(RigidMotion, InterpolationAndVelocityRecoverASteadyTurnAndGlide) {
  const glm::vec3 reference(1.f, 2.f, 3.f), axis = glm::normalize(glm::vec3(1.f, 1.f, 0.f));
  auto pose = [&](float angle, glm::vec3 offset) {
    RigidPath path;
    path.center = reference;
    path.axis = axis;
    path.keys = {PathKey{0.0, angle, offset}};
    return path.at(0.0);
  };
  const RigidPose from = pose(0.2f, {0.f, 0.f, 0.f}), to = pose(0.8f, {0.3f, 0.f, -0.6f}), mid = pose(0.5f, {0.15f, 0.f, -0.3f});
  const RigidPose between = interpolatePose(from, to, 0.5f, reference);
  for (glm::vec3 p : {glm::vec3(0.f), glm::vec3(2.f, -1.f, 0.5f), reference})
    EXPECT_LT(glm::length(between.apply(p) - mid.apply(p)), 1e-5f);
  const RigidVelocity motion = velocityBetween(from, to, 0.1f, reference);
  EXPECT_LT(glm::length(motion.spin - axis * 6.f), 1e-4f);  // 0.6 rad in 0.1 s
  EXPECT_LT(glm::length(motion.velocity - glm::vec3(3.f, 0.f, -6.f)), 1e-4f);
  EXPECT_LT(glm::length(motion.pivot - (reference + glm::vec3(0.3f, 0.f, -0.6f))), 1e-5f);
  // A path holds its first key before it and its last after it, and moves steadily between.
  RigidPath path;
  path.center = reference;
  path.keys = {PathKey{1.0, 0.f, glm::vec3(0.f)}, PathKey{3.0, 2.f, glm::vec3(0.f, 4.f, 0.f)}};
  EXPECT_EQ(path.at(0.0).translation, glm::vec3(0.f));
  EXPECT_LT(glm::length(path.at(2.0).apply(reference) - (reference + glm::vec3(0.f, 2.f, 0.f))), 1e-5f);
  EXPECT_LT(glm::length(path.at(9.0).apply(reference) - (reference + glm::vec3(0.f, 4.f, 0.f))), 1e-5f);
}

}  // namespace
}  // namespace weft
