// The topology edit of tearing (solver/model/tearing.h), without a backend: which particles split, where
// the mass goes, which springs and hinges follow which side, and what a cut crosses.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "engine/error.h"
#include "solver/model/elements.h"
#include "solver/model/tearing.h"
#include "tests/cloth_pieces.h"

namespace weft {
namespace {
using test::pieceCount;
using test::pieces;

// A flat W x H grid in the XZ plane, 0.1 m cells, with a tear strain.
ClothModel tearingGrid(uint32_t w, uint32_t h) {
  GridSpec grid;
  grid.width = w;
  grid.height = h;
  grid.sizeX = 0.1f * float(w - 1);
  grid.sizeY = 0.1f * float(h - 1);
  grid.totalMass = 0.5f;
  Material material;
  material.tearStrain = 0.2f;
  return buildGrid(grid, material);
}

std::vector<glm::vec4> state(const ClothModel& m) {
  std::vector<glm::vec4> x(m.particleCount());
  for (size_t i = 0; i < x.size(); ++i) x[i] = glm::vec4(m.positions[i], m.inverseMass(i));
  return x;
}

// A cut through the whole cloth along the plane x = 0.35 m (between columns 3 and 4).
TearEdit cutAcross(ClothModel& m, std::vector<glm::vec4>& x, std::vector<glm::vec4>& v) {
  return cutCloth(m, glm::vec3(0.35f, 1.f, -1.f), glm::vec3(0.35f, -1.f, -1.f), glm::vec3(0.35f, 0.f, 3.f), x, v);
}

TEST(TearingTopology, ACutAcrossTheClothSeparatesItIntoTwoPiecesAndKeepsTheMass) {
  ClothModel m = tearingGrid(8, 6);
  const float mass = m.totalMass();
  const size_t n = m.particleCount();
  std::vector<glm::vec4> x = state(m), v(n, glm::vec4(0.f));
  const TearEdit edit = cutAcross(m, x, v);
  // The ends of the crossing springs, columns 3 and 4, split wherever their fans have triangles on
  // both sides: all 12 but the two corners of the strip whose one triangle lies wholly on one side.
  EXPECT_GE(edit.newParticles, 10u);
  EXPECT_LE(edit.newParticles, 12u);
  ASSERT_EQ(m.particleCount(), n + edit.newParticles);
  ASSERT_EQ(x.size(), m.particleCount());
  ASSERT_EQ(v.size(), m.particleCount());
  EXPECT_NEAR(m.totalMass(), mass, 1e-6f * mass);
  const std::vector<uint32_t> label = pieces(m);
  EXPECT_EQ(pieceCount(label), 2u);
  // Each piece lies on one side of the cut: its triangles' centroids all on the same side.
  for (const glm::uvec3& t : m.triangles) {
    const bool left = (m.positions[t.x].x + m.positions[t.y].x + m.positions[t.z].x) / 3.f < 0.35f;
    EXPECT_EQ(left, label[t.x] == label[0]) << t.x << " " << t.y << " " << t.z;
  }
  for (const Spring& s : m.springs) EXPECT_EQ(label[s.a], label[s.b]) << s.a << "-" << s.b;
  // A copy sits where its particle was, with its w the inverse of its own share of the mass.
  for (size_t i = n; i < m.particleCount(); ++i) {
    EXPECT_EQ(glm::vec3(x[i]), m.positions[i]);
    EXPECT_FLOAT_EQ(x[i].w, 1.f / m.masses[i]);
  }
}

TEST(TearingTopology, AStretchedSpringSplitsOneEndAndTakesTheFarTrianglesWithIt) {
  ClothModel m = tearingGrid(8, 6);
  std::vector<glm::vec4> x = state(m), v(m.particleCount(), glm::vec4(0.f));
  const float mass = m.totalMass();
  // The row spring between particles 19 and 20 (row 2, columns 3 and 4), both interior.
  uint32_t k = 0;
  while (!(m.springs[k].kind == SpringKind::Structural && m.springs[k].a == 19 && m.springs[k].b == 20)) ++k;
  const TearEdit edit = tearSprings(m, {k}, x, v);
  EXPECT_EQ(edit.newParticles, 1u);
  EXPECT_EQ(edit.brokenSprings, 0u);
  EXPECT_NEAR(m.totalMass(), mass, 1e-6f * mass);
  const uint32_t copy = 48;
  // The copy holds the triangles of particle 19 whose centroid is on particle 20's side (x > 0.3 m),
  // and the spring to 20; the particle keeps the others.
  for (const glm::uvec3& t : m.triangles) {
    const bool has19 = t.x == 19 || t.y == 19 || t.z == 19, hasCopy = t.x == copy || t.y == copy || t.z == copy;
    if (!has19 && !hasCopy) continue;
    const float cx = (m.positions[t.x].x + m.positions[t.y].x + m.positions[t.z].x) / 3.f;
    EXPECT_EQ(hasCopy, cx > 0.3f + 1e-6f);
  }
  EXPECT_TRUE(std::any_of(m.springs.begin(), m.springs.end(), [&](const Spring& s) {
    return s.kind == SpringKind::Structural && ((s.a == copy && s.b == 20) || (s.a == 20 && s.b == copy));
  }));
  EXPECT_EQ(pieceCount(pieces(m)), 1u);  // one split opens a crack; it does not cut the cloth in two
}

TEST(TearingTopology, HingesAcrossTheCutAreDroppedOthersFollowTheirTriangles) {
  ClothModel m = tearingGrid(8, 6);
  addDihedralBending(m, DihedralSpec{0.01f, 0.f});
  std::vector<glm::vec4> x = state(m), v(m.particleCount(), glm::vec4(0.f));
  const size_t hinges = m.elements.size();
  const TearEdit edit = cutAcross(m, x, v);
  EXPECT_GT(edit.detachedElements, 0u);
  EXPECT_EQ(m.elements.size(), hinges - edit.detachedElements);
  const std::vector<uint32_t> label = pieces(m);
  auto hasTriangle = [&](uint32_t a, uint32_t b, uint32_t c) {
    return std::any_of(m.triangles.begin(), m.triangles.end(), [&](const glm::uvec3& t) {
      auto in = [&](uint32_t p) { return t.x == p || t.y == p || t.z == p; };
      return in(a) && in(b) && in(c);
    });
  };
  for (const gpu::Element& e : m.elements) {
    for (int k = 1; k < 4; ++k) EXPECT_EQ(label[e.nodes[k]], label[e.nodes[0]]);
    EXPECT_TRUE(hasTriangle(e.nodes.x, e.nodes.y, e.nodes.z));  // each kept hinge's wings are triangles
    EXPECT_TRUE(hasTriangle(e.nodes.x, e.nodes.y, e.nodes.w));
  }
  EXPECT_EQ(m.bendPairs.size(), m.elements.size());
}

TEST(TearingTopology, ACutBreaksExactlyTheSpringsItsTriangleCrosses) {
  const ClothModel m = tearingGrid(8, 6);
  // A vertical triangle in the plane x = 0.35 m whose section in the cloth's plane (y = 0) runs from
  // z = -1 to its apex at z = 0.27 m: it crosses every spring over the gap between columns 3 and 4
  // whose crossing point has z <= 0.27 (rows 0..2, the diagonals of the first three cells, the bends).
  const std::vector<uint32_t> crossing = springsCrossingTriangle(
      m, state(m), glm::vec3(0.35f, 1.f, -1.f), glm::vec3(0.35f, -1.f, -1.f), glm::vec3(0.35f, 0.f, 0.27f));
  size_t expected = 0;
  for (uint32_t k = 0; k < m.springs.size(); ++k) {
    const Spring& s = m.springs[k];
    const glm::vec3 a = m.positions[s.a], b = m.positions[s.b];
    const bool straddles = (a.x - 0.35f) * (b.x - 0.35f) < 0.f;
    const float z = straddles ? a.z + (b.z - a.z) * (0.35f - a.x) / (b.x - a.x) : 0.f;
    const bool crosses = straddles && z <= 0.27f;
    expected += crosses ? 1 : 0;
    EXPECT_EQ(std::binary_search(crossing.begin(), crossing.end(), k), crosses) << s.a << "-" << s.b << " z " << z;
  }
  // 3 structural, 5 diagonals crossing at z = 0.05, 0.05, 0.15, 0.15, 0.25 ... and the bends of rows 0..2.
  EXPECT_GT(expected, 8u);
  EXPECT_EQ(crossing.size(), expected);
}

TEST(TearingTopology, ATearingClothRefusesTethers) {
  ClothModel m = tearingGrid(6, 6);
  pinParticles(m, {0, 5});
  addTethers(m, TetherSpec{100.f, 0.01f});
  try {
    checkTearable(m);
    FAIL() << "a tearing cloth with tethers was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tethers"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace weft
