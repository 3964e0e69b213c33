// Newton-Chebyshev's sweep residual in lanes (newton_sweep_lanes.h), four and eight wide, against
// the scalar rows of springResidual: the same bits in every row, over groups whose particles have
// as many spring ends and groups that do not (a row out of ends keeps its residual while the others
// take their terms away), rows with no spring ends at all (one whose residual is -0), pinned rows
// (mass term 0: the lanes still give the scalar's bits, which the sweep then ignores), and a NaN
// in the iterate.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"
#include "solver/integrators/xpbd/xpbd_lanes.h"

namespace weft::integrators {
namespace {

struct Case {
  std::vector<uint32_t> rows{0};
  std::vector<gpu::SpringEntry> entries;
  std::vector<glm::vec4> couplings, rhs, diagonal, dx;
  SpringResidualInput input() const {
    return {rows.data(), entries.data(), couplings.data(), rhs.data(), diagonal.data(), dx.data()};
  }
};

// n particles, most with 12 spring ends (a grid's inside), every 19th with 7 and every 23rd with
// none (b.x -0 and y.x +0 there: its residual's x stays -0), to far ends anywhere; every 11th
// pinned (mass term 0), one NaN in the iterate.
Case makeCase(uint32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> r(-1.f, 1.f);
  std::uniform_int_distribution<uint32_t> other(0, n - 1);
  Case c;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t ends = i % 23 == 5 ? 0 : i % 19 == 3 ? 7 : 12;
    for (uint32_t k = 0; k < ends; ++k) {
      c.entries.push_back({other(rng), 0.f, 0.f, 0.f});
      c.couplings.emplace_back(r(rng), r(rng), r(rng), 50.f * (1.f + r(rng)));
    }
    c.rows.push_back(static_cast<uint32_t>(c.entries.size()));
    c.rhs.emplace_back(r(rng), r(rng), r(rng), 0.f);
    c.dx.emplace_back(r(rng), r(rng), r(rng), 0.f);
    const float massTerm = i % 11 == 4 ? 0.f : 36.f * (1.5f + r(rng));
    c.diagonal.emplace_back(r(rng), r(rng), r(rng), r(rng));
    c.diagonal.emplace_back(r(rng), r(rng), massTerm, 0.f);
  }
  for (uint32_t i = 5; i < n; i += 23) {
    c.rhs[i].x = -0.f;
    c.dx[i].x = 0.f;
  }
  c.dx[n / 2].y = std::nanf("");
  return c;
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expectScalarBits(SpringResidualLanes kernel, int width) {
  const uint32_t n = 301;
  const Case c = makeCase(n, 11u + unsigned(width));
  const SpringResidualInput in = c.input();
  int uniform = 0, mixed = 0, withEmptyRow = 0, negativeZero = 0;
  for (uint32_t first = 0; first + uint32_t(width) <= n; ++first) {
    bool same = true, empty = false;
    for (int l = 0; l < width; ++l) {
      same = same && c.rows[first + l + 1] - c.rows[first + l] == c.rows[first + 1] - c.rows[first];
      empty = empty || c.rows[first + l + 1] == c.rows[first + l];
    }
    (same ? uniform : mixed) += 1;
    withEmptyRow += empty ? 1 : 0;
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
  EXPECT_GT(uniform, 100);
  EXPECT_GT(mixed, 20);
  EXPECT_GT(withEmptyRow, 10);
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
    for (uint32_t k = c.rows[i]; k < c.rows[i + 1]; ++k) {
      const glm::dvec3 term = glm::dmat3(gpu::couplingMatrix(c.couplings[k])) * (yi - glm::dvec3(glm::vec3(c.dx[c.entries[k].other])));
      expected -= term;
      scale += glm::length(term);
    }
    for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(r[axis], expected[axis], 1e-5 * scale) << "row " << i;
    ++checked;
  }
  EXPECT_GT(checked, 80);
}

TEST(NewtonSweepLanes, TheSweepRunsTheWidestLanesTheProcessorHas) {
  const SpringResidualKernel k = springResidualLanes();
  EXPECT_EQ(k.width, processorLaneWidth() >= 4 ? processorLaneWidth() : 1);
  EXPECT_EQ(k.run == nullptr, k.width == 1);
}

}  // namespace
}  // namespace weft::integrators
