// The force gather in lanes eight and four wide (acceleration_lanes.h) against particleAcceleration
// one particle after another: the same bits in every acceleration, over rows of 0 to 14 spring ends
// side by side (a mesh's valences), springs with and without damping, free and pinned particles, a
// NaN inverse mass, springs of zero length (no direction), coordinates of negative zero, and wind
// with drag; and AccelerationGroups, asked particle by particle as a step asks, over a range whose
// last particles fill no group.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "shaders/physics.h"
#include "lane_test_rows.h"
#include "solver/backend/backend_state.h"
#include "solver/integrators/common/acceleration_lanes.h"

namespace weft::integrators {
namespace {

CpuState makeState(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  CpuState s;
  LaneTestParticles particles = laneTestParticles(n, 0.1f, -0.f, rng);  // v.z -0 where x.x is
  s.positions = std::move(particles.positions);
  s.velocities = std::move(particles.velocities);
  // Rows of 0 to 14 ends, runs of twelve (a grid's inside) between them.
  s.springs.rows.push_back(0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t ends = (i / 16) % 3 == 0 ? 12u : static_cast<uint32_t>(rng() % 15);
    for (uint32_t k = 0; k < ends; ++k) {
      gpu::SpringEntry e{static_cast<uint32_t>(rng() % n), 0.05f * (1.f + u(rng)), 500.f * (1.5f + u(rng)),
                         k % 2 == 0 ? 0.f : 0.1f * (1.f + u(rng))};
      if (k == 3) e.other = static_cast<uint32_t>(i);  // zero length: no direction
      s.springs.entries.push_back(e);
    }
    s.springs.rows.push_back(static_cast<uint32_t>(s.springs.entries.size()));
  }
  s.elements.rows.assign(n + 1, 0u);  // springs alone
  return s;
}

gpu::StepParams stepParams() {
  gpu::StepParams p{};
  p.gravity = glm::vec4(0.3f, -9.81f, 0.f, 0.f);
  p.wind = glm::vec4(2.f, -0.5f, 1.25f, 0.02f);  // xyz the wind, w the drag coefficient
  p.dt = 1.f / 480.f;
  return p;
}

glm::vec3 scalarAcceleration(const CpuState& s, uint32_t i, const gpu::StepParams& p) {
  return particleAcceleration(i, s.positions[i], gpu::xyz(s.velocities[i]), s.positions, s.velocities, s.springs,
                              s.elements, p);
}

TEST(AccelerationLanes, EachWidthGivesTheScalarGathersBits) {
  const size_t n = 211;
  const gpu::StepParams p = stepParams();
  const CpuState s = makeState(n, 3u);
  const AccelerationInput in{s.springs.rows.data(), s.springs.entries.data(), s.positions.data(), s.velocities.data(),
                             p.gravity, p.wind};
  int widths = 0;
  for (const auto& [kernel, width] : {std::pair{accelerationLanesAvx2(), 8}, std::pair{accelerationLanesSse(), 4}}) {
    if (!kernel || processorLaneWidth() < width) continue;
    ++widths;
    size_t differ = 0, moved = 0;
    for (size_t first = 0; first + size_t(width) <= n; first += size_t(width)) {
      glm::vec4 out[8];
      kernel(in, static_cast<uint32_t>(first), out);
      for (int l = 0; l < width; ++l) {
        const auto i = static_cast<uint32_t>(first + size_t(l));
        const glm::vec3 expected = scalarAcceleration(s, i, p);
        differ += !sameBits(gpu::xyz(out[l]), expected);
        moved += expected != gpu::xyz(p.gravity);  // the springs and the drag did something
      }
    }
    EXPECT_EQ(differ, 0u) << "width " << width;
    EXPECT_GT(moved, n / 2) << "width " << width;
  }
#if defined(__x86_64__)
  EXPECT_GE(widths, 1) << "an x86-64 build has the SSE2 lanes at least";
#endif
}

// Asked in order over a range of the pool, as a step asks: the lanes where a group fits before the
// range's end, the scalar gather for the rest; and for a cloth whose springs bound their force,
// the scalar gather throughout (the lanes have no bound).
TEST(AccelerationLanes, GroupsAskedInOrderGiveTheScalarGathersBits) {
  const size_t n = 211;
  const gpu::StepParams p = stepParams();
  CpuState s = makeState(n, 7u);
  for (const bool bounded : {false, true}) {
    if (bounded) s.springs.forceBounds.assign(s.springs.entries.size(), gpu::StrainLimit{0.04f, 0.06f});
    for (const auto& [begin, end] : {std::pair<size_t, size_t>{0, 106}, std::pair<size_t, size_t>{106, n}}) {
      AccelerationGroups groups(s.positions, s.velocities, s.springs, s.elements, p, end);
      size_t differ = 0;
      for (size_t i = begin; i < end; ++i) differ += !sameBits(groups.at(static_cast<uint32_t>(i)), scalarAcceleration(s, static_cast<uint32_t>(i), p));
      EXPECT_EQ(differ, 0u) << "bounded " << bounded << ", range " << begin << " to " << end;
    }
  }
}

}  // namespace
}  // namespace weft::integrators
