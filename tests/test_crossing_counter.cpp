// The crossing counter and separation measure (crossing_counter.h) against geometry whose answers
// are known by hand, and the accelerated counts against a plain all-pairs count.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <utility>

#include "crossing_counter.h"

namespace weft::test {
namespace {

using glm::dvec3;

struct Mesh {
  std::vector<glm::vec4> x;
  std::vector<glm::uvec3> t;
};

// An n x n grid of cells, vertex (i, j) at origin + i du + j dv, each cell cut along its diagonal
// from (i, j) to (i+1, j+1). Positions are computed in double and rounded once to float.
void appendGrid(Mesh& m, int n, dvec3 origin, dvec3 du, dvec3 dv) {
  const unsigned base = unsigned(m.x.size());
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) m.x.emplace_back(glm::vec3(origin + double(i) * du + double(j) * dv), 1.0f);
  const auto at = [&](int i, int j) { return base + unsigned(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      m.t.emplace_back(at(i, j), at(i + 1, j), at(i + 1, j + 1));
      m.t.emplace_back(at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
}

// Two n x n sheets of side 1 at right angles. A lies in the plane y = yA (spanning x and z), B in
// the plane z = zB (spanning x and y), B shifted h/4 along x. With h = 1/n, yA = (n/2 - 0.3) h and
// zB = (n/2 + 0.3) h, so no vertex of either sheet lies on the other's plane, and the planes meet
// on the line y = yA, z = zB. Every crossing point lies on that line; in cell coordinates (u along
// x, v across) a point is strictly inside a triangle unless u = 0 or u = v (the cell's diagonal).
//  - A's edges crossing z = zB are those of A's row n/2, where zB sits at v = 0.3:
//    n+1 edges along z at x = i h, meeting B (B's row at v = 0.7) at u = 0.75; the one at x = 0 is
//    left of B (which starts at h/4): n crossings. n diagonals, at x = i h + 0.3 h, u = 0.05: n.
//  - B's edges crossing y = yA are those of B's row n/2 - 1, where yA sits at v = 0.7:
//    n+1 edges along y at x = h/4 + i h, meeting A (A's row at v = 0.3) at u = 0.25; the last, at
//    x = 1 + h/4, is right of A: n crossings. n diagonals at x = h/4 + i h + 0.7 h, u = 0.95: n.
// So 4n crossings in all; each point keeps at least 0.05 h from every edge of the sheet it pierces.
Mesh crossingSheets(int n) {
  const double h = 1.0 / n;
  const double yA = (n / 2 - 0.3) * h, zB = (n / 2 + 0.3) * h;
  Mesh m;
  appendGrid(m, n, {0.0, yA, 0.0}, {h, 0.0, 0.0}, {0.0, 0.0, h});
  appendGrid(m, n, {0.25 * h, 0.0, zB}, {h, 0.0, 0.0}, {0.0, h, 0.0});
  return m;
}

std::vector<dvec3> toDouble(const std::vector<glm::vec4>& x) {
  std::vector<dvec3> out;
  for (const glm::vec4& p : x) out.emplace_back(p.x, p.y, p.z);
  return out;
}

std::vector<std::pair<unsigned, unsigned>> edgesOf(const std::vector<glm::uvec3>& triangles) {
  std::set<std::pair<unsigned, unsigned>> edges;
  for (const glm::uvec3& t : triangles)
    for (int k = 0; k < 3; ++k) edges.insert(std::minmax(t[k], t[(k + 1) % 3]));
  return {edges.begin(), edges.end()};
}

bool corner(const glm::uvec3& t, unsigned v) { return t.x == v || t.y == v || t.z == v; }

// Every edge against every triangle: the reference for the grid-accelerated count.
size_t bruteForceCrossings(const Mesh& m) {
  const std::vector<dvec3> x = toDouble(m.x);
  size_t n = 0;
  for (const auto& [p, q] : edgesOf(m.t))
    for (const glm::uvec3& t : m.t)
      if (!corner(t, p) && !corner(t, q) && segmentCrossesTriangle(x[p], x[q], x[t.x], x[t.y], x[t.z])) ++n;
  return n;
}

double bruteForceSeparation(const Mesh& m, double maxDistance) {
  const std::vector<dvec3> x = toDouble(m.x);
  double best = maxDistance;
  std::set<unsigned> used;
  for (const glm::uvec3& t : m.t) used.insert({t.x, t.y, t.z});
  for (unsigned v : used)
    for (const glm::uvec3& t : m.t)
      if (!corner(t, v)) best = std::min(best, pointTriangleDistance(x[v], x[t.x], x[t.y], x[t.z]));
  const auto edges = edgesOf(m.t);
  for (size_t i = 0; i < edges.size(); ++i)
    for (size_t j = i + 1; j < edges.size(); ++j) {
      const auto [a, b] = edges[i];
      const auto [c, d] = edges[j];
      if (a == c || a == d || b == c || b == d) continue;
      best = std::min(best, segmentSegmentDistance(x[a], x[b], x[c], x[d]));
    }
  return best;
}

glm::vec4 at(float x, float y, float z) { return {x, y, z, 1.0f}; }

// The triangle (0,0,0), (1,0,0), (0,1,0) in the plane z = 0, vertices 0..2; edges add vertices 3, 4.
std::vector<glm::vec4> unitTriangleAnd(glm::vec4 p, glm::vec4 q) {
  return {at(0, 0, 0), at(1, 0, 0), at(0, 1, 0), p, q};
}
const std::vector<glm::uvec3> kUnitTriangle{{0, 1, 2}};

TEST(CrossingCounter, EdgeThroughTheTriangleIsOneCrossingWhicheverWayRound) {
  const auto x = unitTriangleAnd(at(0.25f, 0.25f, -1), at(0.25f, 0.25f, 1));
  EXPECT_EQ(countCrossings(x, {{3, 4}}, kUnitTriangle), 1u);
  EXPECT_EQ(countCrossings(x, {{4, 3}}, kUnitTriangle), 1u);
  EXPECT_EQ(countCrossings(x, {{3, 4}}, {{0, 2, 1}}), 1u);
}

TEST(CrossingCounter, EdgeBesideTheTriangleIsNoCrossing) {
  // Inside the triangle's bounding box, past its long edge x + y = 1.
  const auto x = unitTriangleAnd(at(0.75f, 0.75f, -1), at(0.75f, 0.75f, 1));
  EXPECT_EQ(countCrossings(x, {{3, 4}}, kUnitTriangle), 0u);
}

TEST(CrossingCounter, EdgeFromTheTrianglesOwnCornerIsNotCounted) {
  // From corner 0 across the interior and out through the far edge: it shares vertex 0. (A shared
  // corner lies on the triangle's plane, so such an edge can only ever touch, never cross.)
  const auto x = unitTriangleAnd(at(1, 1, 0), at(0.25f, 0.25f, -1));
  EXPECT_EQ(countCrossings(x, {{0, 3}}, kUnitTriangle), 0u);
  EXPECT_EQ(countCrossings(x, {{0, 4}}, kUnitTriangle), 0u);
}

TEST(CrossingCounter, TouchingIsNotACrossing) {
  // Both directions: reversing the edge flips every orientation's sign, and a zero must fail either way.
  const auto count = [](glm::vec4 p, glm::vec4 q) {
    const auto x = unitTriangleAnd(p, q);
    return countCrossings(x, {{3, 4}}, kUnitTriangle) + countCrossings(x, {{4, 3}}, kUnitTriangle);
  };
  EXPECT_EQ(count(at(0.25f, 0.25f, 0), at(0.25f, 0.25f, 1)), 0u) << "ends on the face";
  EXPECT_EQ(count(at(0.5f, 0, -1), at(0.5f, 0, 1)), 0u) << "through an edge";
  EXPECT_EQ(count(at(0, 0, -1), at(0, 0, 1)), 0u) << "through a corner (a distinct vertex)";
  EXPECT_EQ(count(at(-1, 0.25f, 0), at(2, 0.25f, 0)), 0u) << "in the plane";
}

TEST(CrossingCounter, TwoTrianglesThroughEachOtherCrossTwice) {
  // The second triangle's edge 3-4 pierces the first at (0.25, 0.25, 0); its slice of z = 0 runs
  // from there to (1.42, 0.75), leaving the first triangle through edge 1-2 at (0.6, 0.4): that
  // edge pierces the second. Edge 5-3 meets z = 0 at (1.42, 0.75), outside. Two crossings.
  const std::vector<glm::vec4> x{at(0, 0, 0), at(1, 0, 0), at(0, 1, 0), at(0.25f, 0.25f, -1), at(0.25f, 0.25f, 1),
                                 at(2, 1, 0.5f)};
  EXPECT_EQ(countCrossings(x, {{0, 1, 2}, {3, 4, 5}}), 2u);
}

TEST(CrossingCounter, FlatGridHasNoCrossingsAndItsDiagonalGap) {
  // Cell side 1/16 is exact in float. The nearest non-adjacent pair in a flat grid is a vertex and
  // the diagonal of the neighbouring cell's far triangle: half a cell diagonal, h / sqrt(2).
  Mesh m;
  const double h = 1.0 / 16.0;
  appendGrid(m, 20, {0, 0, 0}, {h, 0, 0}, {0, h, 0});
  ASSERT_EQ(m.t.size(), 800u);
  EXPECT_EQ(countCrossings(m.x, m.t), 0u);
  EXPECT_NEAR(minimumSeparation(m.x, m.t, 1.0), h / std::sqrt(2.0), 1e-15);
  EXPECT_EQ(minimumSeparation(m.x, m.t, 0.01), 0.01) << "no pair closer than maxDistance";
}

TEST(CrossingCounter, ParallelSheetsAreTheirGapApart) {
  // 3 mm apart, stored in float: the geometry's gap is 0.003f, which differs from 0.003 by 3e-11.
  Mesh m;
  const double h = 1.0 / 16.0;
  appendGrid(m, 20, {0, 0, 0}, {h, 0, 0}, {0, h, 0});
  appendGrid(m, 20, {0, 0, 0.003f}, {h, 0, 0}, {0, h, 0});
  EXPECT_EQ(countCrossings(m.x, m.t), 0u);
  EXPECT_NEAR(minimumSeparation(m.x, m.t, 0.01), double(0.003f), 1e-12);
  EXPECT_NEAR(minimumSeparation(m.x, m.t, 0.01), 0.003, 1e-10);
}

// Each of the next two has one close pair of one kind, every other pair at least 0.7 apart, and
// bounding boxes that do not touch: the search must reach maxDistance beyond each box.
TEST(CrossingCounter, VertexOverAFaceIsItsHeightAway) {
  // A downward-pointing triangle whose tip is 3 mm above the interior of a flat one.
  const std::vector<glm::vec4> x{at(0, 0, 0), at(1, 0, 0), at(0, 1, 0), at(0.25f, 0.25f, 0.003f),
                                 at(-0.5f, 0.25f, 1), at(0.25f, -0.5f, 1)};
  EXPECT_NEAR(minimumSeparation(x, {{0, 1, 2}, {3, 4, 5}}, 0.01), double(0.003f), 1e-12);
}

TEST(CrossingCounter, EdgeOverAnEdgeIsTheirGapAway) {
  // A triangle hanging below the x axis in the plane y = 0, and one standing on the line x = 0,
  // z = 3 mm in the plane x = 0: their edges cross skew, 3 mm apart; no vertex comes near a face.
  const std::vector<glm::vec4> x{at(-1, 0, 0), at(1, 0, 0), at(0, 0, -1), at(0, -1, 0.003f), at(0, 1, 0.003f),
                                 at(0, 0, 1)};
  EXPECT_NEAR(minimumSeparation(x, {{0, 1, 2}, {3, 4, 5}}, 0.01), double(0.003f), 1e-12);
}

TEST(CrossingCounter, SheetsAtRightAnglesCrossFortyTimes) {
  const Mesh m = crossingSheets(10);  // the count 4n is derived at crossingSheets
  ASSERT_EQ(m.t.size(), 400u);
  EXPECT_EQ(countCrossings(m.x, m.t), 40u);
  EXPECT_EQ(bruteForceCrossings(m), 40u);
}

TEST(CrossingCounter, TwentyThousandTrianglesAreCountedByTheGrid) {
  const Mesh m = crossingSheets(70);
  ASSERT_EQ(m.t.size(), 19600u);
  const auto start = std::chrono::steady_clock::now();
  const size_t crossings = countCrossings(m.x, m.t);
  const auto middle = std::chrono::steady_clock::now();
  const double gap = minimumSeparation(m.x, m.t, 0.01);
  const auto end = std::chrono::steady_clock::now();
  EXPECT_EQ(crossings, 280u);
  EXPECT_LT(gap, 0.01);
  const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
  std::printf("countCrossings %.2f ms, minimumSeparation %.2f ms on %zu triangles\n", ms(middle - start),
              ms(end - middle), m.t.size());
}

TEST(CrossingCounter, RandomSoupMatchesAllPairs) {
  // Small triangles over nearby vertices (so many share vertices and many cross), plus a few large
  // ones spanning the box, which the grid keeps aside and tests against everything.
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  Mesh m;
  for (int i = 0; i < 600; ++i) m.x.push_back(at(unit(rng), unit(rng), unit(rng)));
  const auto nearest = [&](unsigned a) {
    std::vector<std::pair<float, unsigned>> d;
    for (unsigned b = 0; b < m.x.size(); ++b)
      if (b != a) d.emplace_back(glm::length(glm::vec3(m.x[a] - m.x[b])), b);
    std::partial_sort(d.begin(), d.begin() + 6, d.end());
    return std::vector<std::pair<float, unsigned>>(d.begin(), d.begin() + 6);
  };
  std::uniform_int_distribution<unsigned> vertex(0, 599), near(0, 5);
  while (m.t.size() < 300) {
    const unsigned a = vertex(rng);
    const auto around = nearest(a);
    const unsigned b = around[near(rng)].second, c = around[near(rng)].second;
    if (b != c) m.t.emplace_back(a, b, c);
  }
  std::uniform_real_distribution<float> wide(-1.0f, 2.0f);
  for (int i = 0; i < 4; ++i) {
    const unsigned first = unsigned(m.x.size());
    for (int k = 0; k < 3; ++k) m.x.push_back(at(wide(rng), wide(rng), wide(rng)));
    m.t.emplace_back(first, first + 1, first + 2);
  }

  const size_t expected = bruteForceCrossings(m);
  EXPECT_GT(expected, 0u);
  EXPECT_EQ(countCrossings(m.x, m.t), expected);
  for (double maxDistance : {0.002, 0.02, 1.0}) {
    SCOPED_TRACE(maxDistance);
    EXPECT_EQ(minimumSeparation(m.x, m.t, maxDistance), bruteForceSeparation(m, maxDistance));
  }
}

// Hand values for the closest-point routines, about the triangle (0,0,0), (1,0,0), (0,1,0).
const dvec3 kA{0, 0, 0}, kB{1, 0, 0}, kC{0, 1, 0};

TEST(CrossingDistance, PointAboveTheInteriorIsItsHeight) {
  EXPECT_DOUBLE_EQ(pointTriangleDistance({0.25, 0.25, 0.5}, kA, kB, kC), 0.5);
  EXPECT_DOUBLE_EQ(pointTriangleDistance({0.25, 0.25, -0.5}, kA, kB, kC), 0.5);
  EXPECT_DOUBLE_EQ(pointTriangleDistance({0.25, 0.25, 0.0}, kA, kB, kC), 0.0);
}

TEST(CrossingDistance, PointBeyondAnEdgeIsDistanceToThatEdge) {
  // Nearest (0.5, 0, 0) on edge ab: sqrt(2^2 + 1^2).
  EXPECT_DOUBLE_EQ(pointTriangleDistance({0.5, -2, 1}, kA, kB, kC), std::sqrt(5.0));
  // Nearest (0.5, 0.5, 0) on the long edge bc: sqrt(0.5 + 0.3^2).
  EXPECT_NEAR(pointTriangleDistance({1, 1, 0.3}, kA, kB, kC), std::sqrt(0.59), 1e-15);
  // Off the middle of bc: nearest (0.75, 0.25, 0), sqrt(0.25^2 + 0.25^2 + 0.3^2).
  EXPECT_NEAR(pointTriangleDistance({1, 0.5, 0.3}, kA, kB, kC), std::sqrt(0.215), 1e-15);
  // Nearest (0, 0.25, 0) on edge ca.
  EXPECT_DOUBLE_EQ(pointTriangleDistance({-3, 0.25, 4}, kA, kB, kC), 5.0);
}

TEST(CrossingDistance, PointBeyondACornerIsDistanceToThatCorner) {
  EXPECT_DOUBLE_EQ(pointTriangleDistance({2, -1, 0.5}, kA, kB, kC), 1.5);   // corner b
  EXPECT_DOUBLE_EQ(pointTriangleDistance({-1, -2, 2}, kA, kB, kC), 3.0);    // corner a
  EXPECT_DOUBLE_EQ(pointTriangleDistance({-2, 3, -1}, kA, kB, kC), 3.0);    // corner c
}

TEST(CrossingDistance, ParallelSegments) {
  const dvec3 p0{0, 0, 0}, p1{1, 0, 0};
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {0.5, 0.25, 0}, {1.5, 0.25, 0}), 0.25) << "overlapping";
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {1.5, 0.25, 0}, {0.5, 0.25, 0}), 0.25) << "opposite direction";
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {4, 4, 0}, {5, 4, 0}), 5.0) << "end to end, 3-4-5";
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {-3, 0, 0}, {-2, 0, 0}), 2.0) << "collinear, apart";
}

TEST(CrossingDistance, SkewSegments) {
  const dvec3 p0{0, 0, 0}, p1{1, 0, 0};
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {0.5, -1, 2}, {0.5, 1, 2}), 2.0) << "interior to interior";
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {3, -1, 2}, {3, 1, 2}), std::sqrt(8.0)) << "end to interior";
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {3, 1, 2}, {3, 3, 2}), 3.0) << "end to end";
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {0.5, -1, 0}, {0.5, 1, 0}), 0.0) << "crossing";
  EXPECT_DOUBLE_EQ(segmentSegmentDistance(p0, p1, {0.5, 3, 4}, {0.5, 3, 4}), 5.0) << "a point";
}

}  // namespace
}  // namespace weft::test
