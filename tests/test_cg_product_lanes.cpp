// Implicit CG's spring product in lanes (cg_product_lanes.h), four and eight wide, against the
// scalar rows: springSystemProduct, and with the filter cgFilteredRow's q and c.q. The same bits in
// every row, over groups whose particles have as many spring ends and groups that do not (a row out
// of ends keeps its sum while the others add theirs), pinned particles (w 0: +0), particles resting on a collider (the
// normal's part filtered out), and a NaN in the vector multiplied (carried where the scalar
// carries it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "solver/integrators/common/cg/cg_product_lanes.h"
#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"
#include "solver/cpu/simd/lanes.h"
#include "lane_test_rows.h"

namespace weft::integrators {
namespace {

struct Case {
  LaneTestRows springs;
  std::vector<glm::vec4> positions, u, constraint;
  SpringProductInput input(bool filtered) const {
    return {springs.rows.data(), springs.entries.data(), springs.blocks.data(), positions.data(),
            u.data(),            0.37f,                  filtered ? constraint.data() : nullptr};
  }
};

// n particles with laneTestRows' spring ends (the empty rows' u.x -0); every 11th pinned, one
// NaN in u.
Case makeCase(uint32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> r(-1.f, 1.f);
  Case c;
  c.springs = laneTestRows(n, rng, [&](std::mt19937& g) { return glm::vec4(r(g), r(g), r(g), 5.f * (1.f + r(g))); });
  for (uint32_t i = 0; i < n; ++i) {
    c.positions.emplace_back(r(rng), r(rng), r(rng), i % 11 == 4 ? 0.f : 100.f * (1.5f + r(rng)));
    c.u.emplace_back(r(rng), r(rng), r(rng), 0.f);
    // as cg_setup leaves it: pinned where w is 0, every 3rd resting on a collider, else free; and
    // every 13th held whole though free (applyFilter's pinned case, whatever the vector holds)
    const glm::vec3 normal = glm::normalize(glm::vec3(r(rng), 1.f, r(rng)));
    c.constraint.push_back(i % 11 == 4   ? glm::vec4(0.f, 0.f, 0.f, WEFT_FILTER_PINNED)
                           : i % 13 == 6 ? glm::vec4(normal, WEFT_FILTER_PINNED)
                           : i % 3 == 1 ? glm::vec4(normal, WEFT_FILTER_CONTACT)
                                        : glm::vec4(0.f, 0.f, 0.f, WEFT_FILTER_FREE));
  }
  // a row of no spring ends whose u.x is -0: its product stays -0 beside rows that go on adding
  for (uint32_t i = 0; i < n; ++i)
    if (laneTestRowIsEmpty(i)) c.u[i].x = -0.f;
  c.u[n / 2].y = std::nanf("");
  return c;
}

void expectScalarBits(SpringProductLanes kernel, int width, bool filtered) {
  const uint32_t n = 301;
  const Case c = makeCase(n, 7u + unsigned(width));
  const SpringProductInput in = c.input(filtered);
  GroupKinds kinds;
  for (uint32_t first = 0; first + uint32_t(width) <= n; ++first) {
    kinds.add(c.springs.rows, first, width);
    glm::vec4 out[8];
    float cq[8];
    for (glm::vec4& o : out) o = glm::vec4(-7.f);
    kernel(in, first, out, cq);
    for (int l = 0; l < width; ++l) {
      float scalarCq = 0.f;
      glm::vec3 scalar = springSystemProduct(in, first + uint32_t(l));
      if (filtered) {
        scalar = cgFilteredRow(in, first + uint32_t(l), scalar, scalarCq);
        ASSERT_TRUE(sameBits(cq[l], scalarCq)) << "c.q of row " << first + l << ": " << cq[l] << " against " << scalarCq;
      }
      for (int axis = 0; axis < 3; ++axis)
        ASSERT_TRUE(sameBits(out[l][axis], scalar[axis]))
            << "row " << first + l << " axis " << axis << ": " << out[l][axis] << " against " << scalar[axis];
      EXPECT_EQ(out[l].w, 0.f);
    }
  }
  // Both kinds of group were met, and groups with a row of no spring ends among them.
  EXPECT_GT(kinds.uniform, 100);
  EXPECT_GT(kinds.mixed, 20);
  EXPECT_GT(kinds.withEmptyRow, 10);
}

TEST(CgProductLanes, FourWideGivesTheScalarRowsBits) {
  if (!springProductLanesSse()) GTEST_SKIP() << "this build has no SSE2 lanes";
  expectScalarBits(springProductLanesSse(), 4, false);
  expectScalarBits(springProductLanesSse(), 4, true);
}

TEST(CgProductLanes, EightWideGivesTheScalarRowsBits) {
  if (!springProductLanesAvx2() || processorLaneWidth() < 8) GTEST_SKIP() << "no AVX2 here";
  expectScalarBits(springProductLanesAvx2(), 8, false);
  expectScalarBits(springProductLanesAvx2(), 8, true);
}

// The filtered rows' scalar form is cg_product.comp's end on a system of springs alone: the
// unfiltered row, its elements' +0, then the filter and c.q as cgProductParticle takes them.
TEST(CgProductLanes, TheFilteredRowIsTheFilterOfTheRowAndItsElements) {
  const Case c = makeCase(97, 3u);
  const SpringProductInput in = c.input(true);
  int contact = 0;
  for (uint32_t i = 0; i < 97; ++i) {
    float cq = 0.f;
    const glm::vec3 row = springSystemProduct(in, i);
    const glm::vec3 q = cgFilteredRow(in, i, row, cq);
    const glm::vec4 f = c.constraint[i];
    if (std::isnan(row.x + row.y + row.z) || std::isnan(c.u[i].y)) continue;  // the rows that meet u's NaN
    if (f.w == WEFT_FILTER_PINNED) {
      EXPECT_EQ(q, glm::vec3(0.f));
    } else if (f.w == WEFT_FILTER_CONTACT) {
      ++contact;
      EXPECT_NEAR(glm::dot(q, glm::vec3(f)), 0.f, 1e-5f * (1.f + glm::length(row))) << "row " << i;
      EXPECT_NEAR(glm::length(q - row + glm::dot(row, glm::vec3(f)) * glm::vec3(f)), 0.f, 1e-5f * (1.f + glm::length(row)));
    } else {
      EXPECT_EQ(q, row);
    }
    EXPECT_FLOAT_EQ(cq, glm::dot(glm::vec3(c.u[i]), q));
  }
  EXPECT_GT(contact, 20);
}

// widestLaneKernel (common/lane_kernel.h), which picks both solves' kernels: AVX2's where the
// processor has it, else SSE2's, else none; and a build without a width falls back to the next.
TEST(CgProductLanes, BothSolvesRunTheWidestLanesTheProcessorHas) {
  const int width = processorLaneWidth() >= 4 ? processorLaneWidth() : 1;
  const SpringProductKernel product = springProductLanes();
  const NewtonSweepKernel sweep = newtonSweepLanes();
  EXPECT_EQ(product.width, width);
  EXPECT_EQ(sweep.width, width);
  EXPECT_EQ(product.run == nullptr, width == 1);
  EXPECT_EQ(sweep.run == nullptr, width == 1);
  const SpringProductLanes sse = springProductLanesSse(), avx2 = springProductLanesAvx2();
  EXPECT_EQ(widestLaneKernel<SpringProductLanes>(sse, nullptr).width, width >= 4 && sse ? 4 : 1);
  EXPECT_EQ(widestLaneKernel<SpringProductLanes>(nullptr, nullptr).run, nullptr);
  if (width == 8) {
    EXPECT_EQ(widestLaneKernel(sse, avx2).run, avx2);
  }
}

}  // namespace
}  // namespace weft::integrators
