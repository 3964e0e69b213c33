// Newton-Chebyshev's sweep residual in lanes (newton_sweep_lanes.h), four and eight wide, against
// the scalar rows of springResidual: the same bits in every row, over groups whose particles have
// as many spring ends and groups that do not (a row out of ends keeps its residual while the others
// take their terms away), rows with no spring ends at all (one whose residual is -0), pinned rows
// (mass term 0: the lanes still give the scalar's bits, which the sweep then ignores), and a NaN
// in the iterate. (CgProductLanes checks which width runs, for both solves.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"
#include "solver/integrators/xpbd/xpbd_lanes.h"
#include "lane_test_rows.h"

namespace weft::integrators {
namespace {

struct Case {
  LaneTestRows springs;  // blocks: the couplings
  std::vector<glm::vec4> rhs, diagonal, dx;
  SpringResidualInput input() const {
    return {springs.rows.data(), springs.entries.data(), springs.blocks.data(), rhs.data(), diagonal.data(), dx.data()};
  }
};

// n particles with laneTestRows' spring ends (the empty rows' b.x -0 and y.x +0: their residual's
// x stays -0); every 11th pinned (mass term 0), one NaN in the iterate.
Case makeCase(uint32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> r(-1.f, 1.f);
  Case c;
  c.springs = laneTestRows(n, rng, [&](std::mt19937& g) { return glm::vec4(r(g), r(g), r(g), 50.f * (1.f + r(g))); });
  for (uint32_t i = 0; i < n; ++i) {
    c.rhs.emplace_back(r(rng), r(rng), r(rng), 0.f);
    c.dx.emplace_back(r(rng), r(rng), r(rng), 0.f);
    const float massTerm = i % 11 == 4 ? 0.f : 36.f * (1.5f + r(rng));
    c.diagonal.emplace_back(r(rng), r(rng), r(rng), r(rng));
    c.diagonal.emplace_back(r(rng), r(rng), massTerm, 0.f);
  }
  for (uint32_t i = 0; i < n; ++i)
    if (laneTestRowIsEmpty(i)) c.rhs[i].x = -0.f, c.dx[i].x = 0.f;
  c.dx[n / 2].y = std::nanf("");
  return c;
}

void expectScalarBits(SpringResidualLanes kernel, int width) {
  const uint32_t n = 301;
  const Case c = makeCase(n, 11u + unsigned(width));
  const SpringResidualInput in = c.input();
  GroupKinds kinds;
  int negativeZero = 0;
  for (uint32_t first = 0; first + uint32_t(width) <= n; ++first) {
    kinds.add(c.springs.rows, first, width);
    glm::vec4 out[8];
    for (glm::vec4& o : out) o = glm::vec4(-7.f);
    kernel(in, first, out);
    for (int l = 0; l < width; ++l) {
      const glm::vec3 scalar = springResidual(in, first + uint32_t(l));
      negativeZero += scalar.x == 0.f && std::signbit(scalar.x) ? 1 : 0;
      for (int axis = 0; axis < 3; ++axis)
        ASSERT_TRUE(sameBits(out[l][axis], scalar[axis]))
            << "row " << first + l << " axis " << axis << ": " << out[l][axis] << " against " << scalar[axis];
      EXPECT_EQ(out[l].w, 0.f);
    }
  }
  EXPECT_GT(kinds.uniform, 100);
  EXPECT_GT(kinds.mixed, 20);
  EXPECT_GT(kinds.withEmptyRow, 10);
  EXPECT_GT(negativeZero, 10);
}

TEST(NewtonSweepLanes, FourWideGivesTheScalarRowsBits) {
  if (!springResidualLanesSse()) GTEST_SKIP() << "this build has no SSE2 lanes";
  expectScalarBits(springResidualLanesSse(), 4);
}

TEST(NewtonSweepLanes, EightWideGivesTheScalarRowsBits) {
  if (!springResidualLanesAvx2() || processorLaneWidth() < 8) GTEST_SKIP() << "no AVX2 here";
  expectScalarBits(springResidualLanesAvx2(), 8);
}

// The scalar residual is the sweep's: b - (mass term) y - the couplings' products, here against a
// residual built from the coupling matrices (couplingMatrix) in double precision.
TEST(NewtonSweepLanes, TheScalarResidualIsBMinusTheSystemTimesY) {
  const Case c = makeCase(97, 3u);
  const SpringResidualInput in = c.input();
  int checked = 0;
  for (uint32_t i = 0; i < 97; ++i) {
    const glm::vec3 r = springResidual(in, i);
    if (std::isnan(r.x + r.y + r.z)) continue;  // the rows that meet the iterate's NaN
    const glm::dvec3 yi(glm::vec3(c.dx[i]));
    glm::dvec3 expected = glm::dvec3(glm::vec3(c.rhs[i])) - double(c.diagonal[2 * i + 1].z) * yi;
    double scale = glm::length(expected);
    for (uint32_t k = c.springs.rows[i]; k < c.springs.rows[i + 1]; ++k) {
      const glm::dvec3 term = glm::dmat3(gpu::couplingMatrix(c.springs.blocks[k])) * (yi - glm::dvec3(glm::vec3(c.dx[c.springs.entries[k].other])));
      expected -= term;
      scale += glm::length(term);
    }
    for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(r[axis], expected[axis], 1e-5 * scale) << "row " << i;
    ++checked;
  }
  EXPECT_GT(checked, 80);
}

}  // namespace
}  // namespace weft::integrators
