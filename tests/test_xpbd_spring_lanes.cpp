// XPBD's springs four at a time (xpbd_spring_lanes.h) against the scalar spring of shaders/xpbd.h,
// applied one after another as xpbd_project.comp applies it: the same bits in every position and
// multiplier, over springs that move, springs that return early (zero length, a pinned pair, no
// stiffness), undamped springs (alone in a group, and groups of four, which read no start
// positions) and springs whose multipliers come from an earlier sweep.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "shaders/physics.h"
#include "solver/integrators/xpbd/xpbd_spring_lanes.h"
#include "lane_test_rows.h"

namespace weft::integrators {
namespace {

struct Case {
  std::vector<gpu::XpbdConstraint> springs;
  std::vector<glm::vec4> x, start, lambdas;
};

// 2 n particles and n springs, spring k joining particles 2k and 2k + 1 in a shuffled order, as
// one colour's are (no particle twice), with every fourth group holding one of the early returns.
Case makeCase(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Case c;
  std::vector<uint32_t> order(2 * n);
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t i = 0; i < 2 * n; ++i) {
    c.start.emplace_back(u(rng), u(rng), u(rng), 0.f);
    c.x.push_back(c.start.back() + glm::vec4(0.05f * u(rng), 0.05f * u(rng), 0.05f * u(rng), 0.f));
    c.x.back().w = 0.5f + u(rng);  // inverse mass
  }
  for (size_t k = 0; k < n; ++k) {
    gpu::XpbdConstraint s{order[2 * k], order[2 * k + 1], 0.5f + 0.4f * u(rng), 2000.f * (1.1f + u(rng)),
                          0.01f * (1.f + u(rng)), 0, 0, 0};
    switch (k % 16) {
      case 3: c.x[s.node1] = glm::vec4(glm::vec3(c.x[s.node0]), c.x[s.node1].w); break;  // zero length
      case 7: c.x[s.node0].w = c.x[s.node1].w = 0.f; break;                                 // both pinned
      case 9: c.x[s.node0].w = 0.f; break;                                                  // one pinned
      case 11: s.stiffness = 0.f; break;                                                    // no stiffness
      case 13: s.damping = 0.f; break;  // an undamped spring among damped ones
      default: break;
    }
    if ((k / 4) % 5 == 2) s.damping = 0.f;  // a group of four undamped springs: no start positions read
    c.springs.push_back(s);
    c.lambdas.emplace_back(1e-3f * u(rng), u(rng), u(rng), u(rng));
  }
  return c;
}

// What xpbd_project.comp does to each spring, one after another.
void projectOneByOne(Case& c, float h, bool first, bool keep) {
  for (size_t k = 0; k < c.springs.size(); ++k) {
    const gpu::XpbdConstraint& s = c.springs[k];
    glm::vec4 lambda = first ? glm::vec4(0.f) : c.lambdas[k];
    const gpu::XpbdSpringMove m = gpu::xpbdSpring(c.x[s.node0], c.x[s.node1], gpu::xyz(c.start[s.node0]),
                                                  gpu::xyz(c.start[s.node1]), s.restLength, s.stiffness, s.damping,
                                                  h, lambda.x);
    c.x[s.node0] += glm::vec4(m.dx0, 0.f);
    c.x[s.node1] += glm::vec4(m.dx1, 0.f);
    lambda.x += m.dlambda;
    if (keep) c.lambdas[k] = lambda;
  }
}

// Each width the processor runs (xpbdLaneWidth: 16 with AVX-512, 8 with AVX2, then 4 with SSE2), over 1002 springs:
// sixteen wide, 62 groups of sixteen, one of eight, none of four (asked for with two left), then two
// the caller takes one by one; eight wide, 62 groups of sixteen (two of eight side by side,
// cpu/simd/twice_lanes.h), then as sixteen wide.
TEST(XpbdSpringLanes, EveryLaneGivesTheScalarSpringsBitsOverASweep) {
  const size_t n = 1002;
  for (const int width : {16, 8, 4}) {
    if (width > xpbdLaneWidth()) continue;
    for (int sweep = 0; sweep < 3; ++sweep) {
      const bool first = sweep == 0, keep = sweep != 1;
      Case lanes = makeCase(n, 7u + sweep), scalar = makeCase(n, 7u + sweep);
      const size_t done = projectSpringLanes(lanes.springs.data(), n, lanes.x.data(), lanes.start.data(), 1.f / 960.f,
                                             lanes.lambdas.data(), first, keep, width);
      EXPECT_EQ(done, n - n % 4) << "whole groups, width " << width;
      // What the lanes leave goes one by one, as in xpbdStepCpu.
      Case rest = lanes;
      rest.springs.assign(lanes.springs.begin() + done, lanes.springs.end());
      rest.lambdas.assign(lanes.lambdas.begin() + done, lanes.lambdas.end());
      projectOneByOne(rest, 1.f / 960.f, first, keep);
      lanes.x = rest.x;
      std::copy(rest.lambdas.begin(), rest.lambdas.end(), lanes.lambdas.begin() + done);
      projectOneByOne(scalar, 1.f / 960.f, first, keep);
      EXPECT_TRUE(sameBits(lanes.x, scalar.x)) << "width " << width << ", sweep " << sweep;
      EXPECT_TRUE(sameBits(lanes.lambdas, scalar.lambdas)) << "width " << width << ", sweep " << sweep;
      // The springs moved something: the comparison is not of two untouched copies.
      EXPECT_FALSE(sameBits(lanes.x, makeCase(n, 7u + sweep).x));
    }
  }
}

// The build's x86-64 processors all have SSE2; this machine's width is the one the CPU backend's
// xpbd runs (a build that lost its lanes would take every spring one by one, at the same bits).
TEST(XpbdSpringLanes, TheProcessorsWidthIsUsed) {
#if defined(__x86_64__)
  EXPECT_GE(xpbdLaneWidth(), std::getenv("WEFT_XPBD_LANES") ? 1 : 4);
  if (!std::getenv("WEFT_XPBD_LANES")) {
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    EXPECT_EQ(xpbdLaneWidth(), avx512 ? 16 : __builtin_cpu_supports("avx2") ? 8 : 4);
  }
#else
  GTEST_SKIP() << "not an x86-64 build";
#endif
}

// An element at 6 stops sixteen and eight lanes at 0 and four at 4; one at 12 stops each width at
// 12 (sixteen at 0, then eight take 0-7 and four 8-11).
TEST(XpbdSpringLanes, StopsBeforeAGroupHoldingAnElement) {
  for (const int width : {16, 8, 4}) {
    if (width > xpbdLaneWidth()) continue;
    for (const size_t element : {6u, 12u}) {
      Case c = makeCase(20, 3u);
      c.springs[element].node1 = WEFT_XPBD_ELEMENT;
      const size_t done = projectSpringLanes(c.springs.data(), c.springs.size(), c.x.data(), c.start.data(),
                                             1.f / 960.f, c.lambdas.data(), true, false, width);
      EXPECT_EQ(done, element - element % 4) << "width " << width << ", element at " << element;
    }
  }
}

}  // namespace
}  // namespace weft::integrators
