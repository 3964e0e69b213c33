// The predict pass Verlet and xpbd share, in lanes sixteen, eight and four wide
// (verlet_predict_lanes.h), against verletPredictParticle one particle after another: the same bits
// in every start position, predicted position and velocity, over free particles of any inverse
// mass, pinned ones (which keep their place and come to rest), a NaN inverse mass (free, as the
// scalar test takes it), coordinates of negative zero, and wind with drag.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "shaders/physics.h"
#include "lane_test_rows.h"
#include "solver/backend/backend_state.h"
#include "solver/integrators/verlet/verlet.h"
#include "solver/integrators/common/verlet_predict_lanes.h"

namespace weft::integrators {
namespace {

CpuState makeState(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  CpuState s;
  for (size_t i = 0; i < n; ++i) {
    glm::vec4 x(u(rng), 1.f + u(rng), u(rng), 1.f + u(rng));
    glm::vec4 v(3.f * u(rng), 3.f * u(rng), 3.f * u(rng), u(rng));
    switch (i % 7) {
      case 1: x.w = 0.f; break;                 // pinned
      case 3: x.x = -0.f, v.z = -0.f; break;    // negative zeros
      case 5: x.w = std::nanf(""); break;       // no inverse mass to speak of: free, as in the scalar pass
      default: break;
    }
    s.positions.push_back(x);
    s.velocities.push_back(v);
  }
  // What the pass overwrites starts as something else, so that every write shows.
  s.prevPositions.assign(n, glm::vec4(7.f));
  s.positionsOut.assign(n, glm::vec4(7.f));
  s.velocitiesOut.assign(n, glm::vec4(7.f));
  return s;
}

gpu::StepParams stepParams() {
  gpu::StepParams p{};
  p.gravity = glm::vec4(0.3f, -9.81f, 0.f, 0.f);
  p.wind = glm::vec4(2.f, -0.5f, 1.25f, 0.02f);  // xyz the wind, w the drag coefficient
  p.dt = 1.f / 480.f;
  return p;
}

TEST(VerletPredictLanes, EachWidthGivesTheScalarPassesBits) {
  const size_t n = 203;
  const gpu::StepParams p = stepParams();
  int widths = 0;
  for (const auto& [kernel, width] : {std::pair{verletPredictLanesAvx512(), 16}, std::pair{verletPredictLanesAvx2(), 8}, std::pair{verletPredictLanesSse(), 4}}) {
    if (!kernel || xpbdProcessorWidth() < width) continue;
    ++widths;
    CpuState lanes = makeState(n, 11u), scalar = makeState(n, 11u);
    const VerletPredictInput in{lanes.positions.data(),    lanes.velocities.data(), lanes.prevPositions.data(),
                                lanes.positionsOut.data(), lanes.velocitiesOut.data(), p.gravity,
                                p.wind,                    p.dt};
    size_t i = 0;
    for (; i + size_t(width) <= n; i += size_t(width)) kernel(in, static_cast<uint32_t>(i));
    for (; i < n; ++i) verletPredictParticle(static_cast<uint32_t>(i), lanes, p);
    for (uint32_t k = 0; k < n; ++k) verletPredictParticle(k, scalar, p);
    EXPECT_TRUE(sameBits(lanes.prevPositions, scalar.prevPositions)) << "width " << width;
    EXPECT_TRUE(sameBits(lanes.positionsOut, scalar.positionsOut)) << "width " << width;
    EXPECT_TRUE(sameBits(lanes.velocitiesOut, scalar.velocitiesOut)) << "width " << width;
    // The pass moved the particles: not two copies left as they were.
    EXPECT_FALSE(sameBits(lanes.positionsOut, lanes.positions));
  }
#if defined(__x86_64__)
  EXPECT_GE(widths, 1) << "an x86-64 build has the SSE2 lanes at least";
#endif
}

// The range the passes call: lanes for the whole groups, the scalar particle for the rest and for a
// cloth whose elements gather a force at prediction; the same bits either way.
TEST(VerletPredictLanes, TheRangeGivesTheScalarPassesBits) {
  const size_t n = 101;
  const gpu::StepParams p = stepParams();
  CpuState ranged = makeState(n, 5u), scalar = makeState(n, 5u);
  verletPredictRange(3, 90, ranged, p);
  for (uint32_t k = 3; k < 90; ++k) verletPredictParticle(k, scalar, p);
  EXPECT_TRUE(sameBits(ranged.prevPositions, scalar.prevPositions));
  EXPECT_TRUE(sameBits(ranged.positionsOut, scalar.positionsOut));
  EXPECT_TRUE(sameBits(ranged.velocitiesOut, scalar.velocitiesOut));
  EXPECT_EQ(ranged.positionsOut[2], glm::vec4(7.f)) << "outside the range: untouched";
  EXPECT_EQ(ranged.positionsOut[90], glm::vec4(7.f)) << "outside the range: untouched";
}

}  // namespace
}  // namespace weft::integrators
