// The contact search's tests in lanes, eight and four wide (solver/contact/contact_search_lanes.h), against
// the same tests one at a time. The walk's distance test (contactNearLanes): the same bit and the
// same distance's bits for every neighbour, neighbours on the edge of the reach among them. The
// vertex against triangles (contactTriangleMasksScalar: sphereBeyond, vertexTriangleBeyond): the
// same bit for every triangle. The
// edge–edge tests (contactEdgeMasksScalar: pointSegmentDistance2 both ways and edgeEdgeBeyond,
// the shared functions themselves): the same bit for
// every pair, over edges scattered about the searching vertex's so that many pairs pass and many
// fail, a third of them on the edge of the first test (where a sum taken in another order flips
// bits), degenerate edges (zero length), ends of negative zero, a batch not a whole number of lanes,
// and each count of owned edges up to 32.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "shaders/physics.h"
#include "solver/contact/contact_search_lanes.h"

namespace weft {
namespace {

struct Case {
  std::unique_ptr<ContactEdgeBatch> batch = std::make_unique<ContactEdgeBatch>();
  std::vector<ContactOwnEdge> own;
};

// Ends within a length or two of the origin, edges up to a length long.
glm::vec3 end(std::mt19937& rng, float spread) {
  std::uniform_real_distribution<float> u(-spread, spread);
  return {u(rng), u(rng), u(rng)};
}

// Every third batch edge starts where its segment's nearest point to one owned edge's middle lies
// the test's reach from it (up to rounding), and turns away: the tests' last bits decide those.
Case makeCase(uint32_t edges, uint32_t owned, float radius, unsigned seed) {
  std::mt19937 rng(seed);
  const float length = 0.02f;
  std::uniform_real_distribution<float> along(-length, length);
  std::normal_distribution<float> normal;
  Case c;
  for (uint32_t e = 0; e < owned; ++e) {
    const glm::vec3 a = end(rng, length);
    const glm::vec3 b = e % 6 == 5 ? a : a + glm::vec3(along(rng), along(rng), along(rng));
    c.own.push_back({gpu::edgeSphere(a, b), a, b});
  }
  for (uint32_t f = 0; f < edges; ++f) {
    glm::vec3 a = end(rng, 1.5f * length);
    glm::vec3 b = f % 5 == 4 ? a : a + glm::vec3(along(rng), along(rng), along(rng));
    if (f % 3 == 0) {
      const glm::vec4 m = c.own[f % owned].sphere;
      const glm::vec3 n = glm::normalize(glm::vec3(normal(rng), normal(rng), normal(rng)));
      a = gpu::xyz(m) + (radius + m.w) * n;
      const glm::vec3 d(along(rng), along(rng), along(rng));
      b = a + (glm::dot(d, n) < 0.f ? -d : d);
    }
    if (f % 7 == 3) b.y = -0.f;
    const glm::vec4 sphere = gpu::edgeSphere(a, b);
    ContactEdgeBatch& k = *c.batch;
    k.q0x[f] = a.x, k.q0y[f] = a.y, k.q0z[f] = a.z;
    k.q1x[f] = b.x, k.q1y[f] = b.y, k.q1z[f] = b.z;
    k.cx[f] = sphere.x, k.cy[f] = sphere.y, k.cz[f] = sphere.z, k.cw[f] = sphere.w;
  }
  c.batch->count = edges;
  return c;
}

// Guards a case itself: a tenth or more of its tests pass, and a tenth or more fail.
void expectManyPassAndManyFail(uint64_t passed, uint64_t tests, int width) {
  EXPECT_GT(passed, tests / 10) << "width " << width;
  EXPECT_LT(passed, tests * 9 / 10) << "width " << width;
}

void expectSomeWidth(int widths) {
#if defined(__x86_64__)
  EXPECT_GE(widths, 1) << "an x86-64 build has the SSE2 lanes at least";
#else
  (void)widths;
#endif
}

TEST(ContactSearchLanes, EachWidthGivesTheEdgeTestsBitForEveryPair) {
  const float radius = 0.015f;  // a pile's reach: the radius and the skin
  int widths = 0;
  for (const auto& [kernel, width] : {std::pair{contactEdgeLanesAvx2(), 8}, std::pair{contactEdgeLanesSse(), 4}}) {
    if (!kernel || integrators::processorLaneWidth() < width) continue;
    ++widths;
    uint64_t passed = 0, pairs = 0;
    for (uint32_t owned = 1; owned <= kMaxLaneOwnEdges; ++owned) {
      const uint32_t edges = ContactEdgeBatch::kCapacity - owned;  // a batch that is no whole number of lanes
      const Case c = makeCase(edges, owned, radius, 11u + owned);
      std::vector<uint32_t> lanes(edges, 0xdeadbeefu), scalar(edges, 0xdeadbeefu);
      kernel(*c.batch, c.own.data(), owned, radius, lanes.data());
      contactEdgeMasksScalar(*c.batch, c.own.data(), owned, radius, scalar.data());
      for (uint32_t f = 0; f < edges; ++f) {
        ASSERT_EQ(lanes[f], scalar[f]) << "width " << width << ", " << owned << " owned edges, batch edge " << f;
        passed += uint64_t(std::popcount(scalar[f]));
      }
      pairs += uint64_t(edges) * owned;
    }
    expectManyPassAndManyFail(passed, pairs, width);
  }
  expectSomeWidth(widths);
}

TEST(ContactSearchLanes, EachWidthGivesTheWalksDistancesAndTestsBitForBit) {
  const float reach2 = 0.07f * 0.07f;  // a pile's cell size, squared
  std::mt19937 rng(7u);
  std::uniform_real_distribution<float> u(-0.1f, 0.1f);
  std::normal_distribution<float> normal;
  std::vector<float> rows[3];
  const uint32_t n = 4000;
  const glm::vec3 p(0.013f, -0.4f, 2.5f);
  for (uint32_t j = 0; j < n; ++j) {
    glm::vec3 x = p + glm::vec3(u(rng), u(rng), u(rng));
    if (j % 3 == 0) x = p + 0.07f * glm::normalize(glm::vec3(normal(rng), normal(rng), normal(rng)));  // on the reach
    if (j % 11 == 5) x.z = -0.f;
    for (int a = 0; a < 3; ++a) rows[a].push_back(x[a]);
  }
  for (std::vector<float>& row : rows) row.resize(n + kContactRowsPadding, 0.f);
  int widths = 0;
  for (const auto& [kernel, width] : {std::pair{contactNearLanesAvx2(), 8}, std::pair{contactNearLanesSse(), 4}}) {
    if (!kernel || integrators::processorLaneWidth() < width) continue;
    ++widths;
    uint32_t passed = 0;
    for (uint32_t base = 0; base < n; base += 32) {
      const uint32_t count = std::min(32u, n - base) - (base / 32) % 5;  // runs of every length
      float lanes[32 + kContactRowsPadding], scalar[32 + kContactRowsPadding];
      const uint32_t laneBits = kernel(rows[0].data() + base, rows[1].data() + base, rows[2].data() + base, count, p, reach2, lanes);
      const uint32_t scalarBits = contactNearMaskScalar(rows[0].data() + base, rows[1].data() + base, rows[2].data() + base,
                                                        count, p, reach2, scalar);
      ASSERT_EQ(laneBits, scalarBits) << "width " << width << ", entries from " << base << ", " << count << " of them";
      ASSERT_EQ(std::memcmp(lanes, scalar, count * sizeof(float)), 0) << "width " << width << ", entries from " << base;
      passed += uint32_t(std::popcount(scalarBits));
    }
    expectManyPassAndManyFail(passed, n, width);
  }
  expectSomeWidth(widths);
}

// The vertex against its neighbours' triangles: triangles about the vertex, a third of them with
// their box's nearest corner the reach from it and a third with their sphere the reach from it (the
// last bits decide those), some of them points.
TEST(ContactSearchLanes, EachWidthGivesTheTriangleTestsBitForEveryTriangle) {
  const float reach = 0.015f;
  const glm::vec3 p(0.004f, -0.002f, 0.003f);  // near the origin: the cases on the reach are within an ulp or so of it
  std::mt19937 rng(9u);
  std::uniform_real_distribution<float> u(-0.03f, 0.03f);
  std::normal_distribution<float> normal;
  int widths = 0;
  for (const auto& [kernel, width] : {std::pair{contactTriangleLanesAvx2(), 8}, std::pair{contactTriangleLanesSse(), 4}}) {
    if (!kernel || integrators::processorLaneWidth() < width) continue;
    ++widths;
    uint64_t passed = 0, tested = 0;
    for (int round = 0; round < 40; ++round) {
      std::vector<glm::vec4> start, spheres;
      auto batch = std::make_unique<ContactTriangleBatch>();
      for (uint32_t t = 0; t + 1 < ContactTriangleBatch::kCapacity; ++t) {  // a batch that is no whole number of lanes
        const glm::vec3 n = glm::normalize(glm::vec3(normal(rng), normal(rng), normal(rng)));
        glm::vec3 a = p + glm::vec3(u(rng), u(rng), u(rng));
        glm::vec3 b = a + 0.5f * glm::vec3(u(rng), u(rng), u(rng)), c = a + 0.5f * glm::vec3(u(rng), u(rng), u(rng));
        if (t % 3 == 0) {  // the box's nearest corner a, the reach from p: b and c lie farther on every axis
          a = p + reach * n;
          b = a + glm::abs(b - a) * glm::sign(n);
          c = a + glm::abs(c - a) * glm::sign(n);
        } else if (t % 3 == 1) {  // the sphere the reach from p
          const glm::vec4 s0 = gpu::triangleSphere(a, b, c);
          const glm::vec3 move = p + (reach + s0.w) * n - gpu::xyz(s0);
          a += move, b += move, c += move;
        }
        if (t % 7 == 6) b = c = a;  // a point
        for (const glm::vec3& x : {a, b, c}) start.push_back(glm::vec4(x, 1.f));
        spheres.push_back(gpu::triangleSphere(a, b, c));
        batch->t[t] = t, batch->a[t] = 3 * t, batch->b[t] = 3 * t + 1, batch->c[t] = 3 * t + 2;
        batch->count = t + 1;
      }
      uint32_t lanes[ContactTriangleBatch::kCapacity / 32] = {}, scalar[ContactTriangleBatch::kCapacity / 32] = {};
      kernel(*batch, start.data(), spheres.data(), p, reach, lanes);
      contactTriangleMasksScalar(*batch, start.data(), spheres.data(), p, reach, scalar);
      for (uint32_t w = 0; w < ContactTriangleBatch::kCapacity / 32; ++w) {
        ASSERT_EQ(lanes[w], scalar[w]) << "width " << width << ", round " << round << ", triangles " << 32 * w << " on";
        passed += uint64_t(std::popcount(scalar[w]));
      }
      tested += batch->count;
    }
    expectManyPassAndManyFail(passed, tested, width);
  }
  expectSomeWidth(widths);
}

// The kernel leaves the words past the batch as they were: the search sizes them for a whole batch.
TEST(ContactSearchLanes, TheEdgeTestsWriteOneWordAnEdgeOfTheBatchAndNoMore) {
  const ContactEdgeKernel kernel = contactEdgeLanes();
  if (!kernel.run) GTEST_SKIP() << "no lanes in this build or on this processor";
  const Case c = makeCase(13, 3, 0.015f, 5u);
  std::vector<uint32_t> masks(20, 0xdeadbeefu);
  kernel.run(*c.batch, c.own.data(), 3, 0.015f, masks.data());
  for (uint32_t f = 0; f < 13; ++f) EXPECT_EQ(masks[f] & ~7u, 0u) << "edge " << f << ": bits past the 3 owned edges";
  for (uint32_t f = 13; f < 20; ++f) EXPECT_EQ(masks[f], 0xdeadbeefu) << "word " << f << " past the batch";
}

}  // namespace
}  // namespace weft
