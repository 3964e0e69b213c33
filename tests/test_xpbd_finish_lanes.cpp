// xpbd's finish in lanes, sixteen, eight and four wide (xpbd_finish_lanes.h), against the scalar
// finish of each particle (xpbd.cpp's finishParticle: carryCorrection where the particle is not
// pinned): the same bits in every velocity, over free particles, pinned ones (left as they are), a
// NaN inverse mass (free, as the scalar test takes it) and coordinates of negative zero.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "shaders/physics.h"
#include "solver/integrators/xpbd/xpbd_finish_lanes.h"

namespace weft::integrators {
namespace {

struct Case {
  std::vector<glm::vec4> x, predicted, v;
};

Case makeCase(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Case c;
  for (size_t i = 0; i < n; ++i) {
    glm::vec4 p(u(rng), 1.f + u(rng), u(rng), 1.f + u(rng));
    glm::vec4 x = p + 0.01f * glm::vec4(u(rng), u(rng), u(rng), 0.f);
    glm::vec4 v(3.f * u(rng), 3.f * u(rng), 3.f * u(rng), u(rng));
    switch (i % 6) {
      case 1: x.w = 0.f; break;                       // pinned: its velocity stays, w included
      case 3: x.x = p.x = -0.f, v.y = -0.f; break;    // negative zeros
      case 4: x.w = std::nanf(""); break;             // free, as the scalar test takes it
      default: break;
    }
    c.x.push_back(x);
    c.predicted.push_back(p);
    c.v.push_back(v);
  }
  return c;
}

// What finishParticle does to particle i.
void finishOne(Case& c, size_t i, float dt) {
  if (c.x[i].w == 0.f) return;
  c.v[i] = glm::vec4(gpu::carryCorrection(gpu::xyz(c.v[i]), gpu::xyz(c.x[i]), gpu::xyz(c.predicted[i]), dt), 0.f);
}

TEST(XpbdFinishLanes, EachWidthGivesTheScalarFinishsBits) {
  const size_t n = 203;
  const float dt = 1.f / 1920.f;
  int widths = 0;
  for (const auto& [kernel, width] : {std::pair{xpbdFinishLanesAvx512(), 16}, std::pair{xpbdFinishLanesAvx2(), 8}, std::pair{xpbdFinishLanesSse(), 4}}) {
    if (!kernel || xpbdProcessorWidth() < width) continue;
    ++widths;
    Case lanes = makeCase(n, 3u), scalar = makeCase(n, 3u);
    const XpbdFinishInput in{lanes.x.data(), lanes.predicted.data(), lanes.v.data(), dt};
    size_t i = 0;
    for (; i + size_t(width) <= n; i += size_t(width)) kernel(in, static_cast<uint32_t>(i));
    for (; i < n; ++i) finishOne(lanes, i, dt);
    for (size_t k = 0; k < n; ++k) finishOne(scalar, k, dt);
    EXPECT_EQ(std::memcmp(lanes.v.data(), scalar.v.data(), n * sizeof(glm::vec4)), 0) << "width " << width;
    const Case before = makeCase(n, 3u);
    EXPECT_NE(std::memcmp(lanes.v.data(), before.v.data(), n * sizeof(glm::vec4)), 0) << "the finish changed nothing";
    EXPECT_EQ(std::memcmp(&lanes.v[1], &before.v[1], sizeof(glm::vec4)), 0) << "a pinned particle's velocity stays";
  }
#if defined(__x86_64__)
  EXPECT_GE(widths, 1) << "an x86-64 build has the SSE2 lanes at least";
#endif
}

}  // namespace
}  // namespace weft::integrators
