// Implicit CG's setup over the springs in lanes eight and four wide (cg_setup_lanes.h) against
// cgSpringSums one row after another: the same bits in every sum (force, diagonal block, stiffness
// product) and in every spring end's system block, over rows of 0 to 14 spring ends side by side
// (a mesh's valences), springs with and without damping, stretched and compressed (a floored
// transverse factor), free and pinned particles (whose ends stay unwritten), a NaN inverse mass,
// rows with no end whose force is -0 beside rows with some (a lane out of ends keeps its sum),
// springs of zero length (no direction), coordinates of negative zero, wind with drag, and a
// stiffness time of 0 (the damping block alone) as well as implicit Euler's.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "lane_test_rows.h"
#include "shaders/physics.h"
#include "solver/integrators/common/cg/cg_setup_lanes.h"

namespace weft::integrators {
namespace {

struct SetupCase {
  std::vector<uint32_t> rows{0};
  std::vector<gpu::SpringEntry> entries;
  std::vector<glm::vec4> positions, velocities;
};

SetupCase makeCase(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  SetupCase c;
  // v.z the wind's where x.x is -0: a drag of -0 along z there
  LaneTestParticles particles = laneTestParticles(n, 0.05f, 1.25f, rng);
  c.positions = std::move(particles.positions);
  c.velocities = std::move(particles.velocities);
  for (size_t i = 0; i < n; ++i) {
    // runs of twelve ends (a grid's inside) between rows of 0 to 14
    // and, among them, rows with no end whose force along z is -0 (no gravity, no drag there)
    const uint32_t ends = (i / 16) % 3 == 0 ? 12u : i % 7 == 3 ? 0u : static_cast<uint32_t>(rng() % 15);
    for (uint32_t k = 0; k < ends; ++k) {
      // rest lengths about the particles' spacing: some springs stretched, some compressed
      gpu::SpringEntry e{static_cast<uint32_t>(rng() % n), 0.06f * (1.f + u(rng)), 500.f * (1.5f + u(rng)),
                         k % 2 == 0 ? 0.f : 0.1f * (1.f + u(rng))};
      if (k == 3) e.other = static_cast<uint32_t>(i);  // zero length: no direction
      c.entries.push_back(e);
    }
    c.rows.push_back(static_cast<uint32_t>(c.entries.size()));
  }
  return c;
}

CgSetupInput input(SetupCase& c, std::vector<glm::vec4>& blocks, float forceTime, float stiffnessTime) {
  return {c.rows.data(),
          c.entries.data(),
          nullptr,
          c.positions.data(),
          c.velocities.data(),
          blocks.data(),
          glm::vec4(0.3f, -9.81f, -0.f, 0.f),
          glm::vec4(2.f, -0.5f, 1.25f, 0.02f),  // xyz the wind, w the drag coefficient
          forceTime,
          stiffnessTime};
}

TEST(CgSetupLanes, EachWidthGivesTheScalarSumsAndBlocksBits) {
  const size_t n = 211;
  SetupCase c = makeCase(n, 5u);
  int widths = 0;
  for (const auto& [kernel, width] : {std::pair{cgSetupLanesAvx2(), 8}, std::pair{cgSetupLanesSse(), 4}}) {
    if (!kernel || processorLaneWidth() < width) continue;
    ++widths;
    for (const float stiffnessTime : {1.f / 300.f, 0.f}) {
      const glm::vec4 unwritten(-7.f);  // what a pinned row's ends keep
      std::vector<glm::vec4> scalarBlocks(c.entries.size(), unwritten), laneBlocks = scalarBlocks;
      const CgSetupInput scalar = input(c, scalarBlocks, 1.f / 300.f, stiffnessTime);
      const CgSetupInput lanes = input(c, laneBlocks, 1.f / 300.f, stiffnessTime);
      size_t differ = 0, free = 0, stiffened = 0;
      GroupKinds kinds;
      const size_t covered = n / size_t(width) * size_t(width);
      for (size_t first = 0; first < covered; first += size_t(width)) {
        kinds.add(c.rows, static_cast<uint32_t>(first), width);
        CgSetupGroup group;
        kernel(lanes, static_cast<uint32_t>(first), group);
        for (int l = 0; l < width; ++l) {
          const auto i = static_cast<uint32_t>(first + size_t(l));
          if (c.positions[i].w == 0.f) continue;  // the setup reads no sums for a pinned row
          ++free;
          const CgSpringSums expected = cgSpringSums(scalar, i), got = group.sums(l);
          differ += !sameBits(got.force, expected.force) + !sameBits(got.block, expected.block) +
                    !sameBits(got.stiffness, expected.stiffness);
          stiffened += expected.stiffness != glm::vec3(0.f);
        }
      }
      scalarBlocks.resize(c.rows[covered]);
      laneBlocks.resize(c.rows[covered]);
      EXPECT_EQ(differ, 0u) << "width " << width << ", stiffness time " << stiffnessTime;
      EXPECT_TRUE(sameBits(laneBlocks, scalarBlocks)) << "width " << width << ", stiffness time " << stiffnessTime;
      EXPECT_GT(free, n / 2);
      // the stiffness product is there with implicit Euler's times and absent without
      if (stiffnessTime != 0.f)
        EXPECT_GT(stiffened, free / 2);
      else
        EXPECT_EQ(stiffened, 0u);
      EXPECT_GT(kinds.uniform, 0);
      EXPECT_GT(kinds.mixed, 0);
    }
  }
#if defined(__x86_64__)
  EXPECT_GE(widths, 1) << "an x86-64 build has the SSE2 lanes at least";
#endif
}

}  // namespace
}  // namespace weft::integrators
