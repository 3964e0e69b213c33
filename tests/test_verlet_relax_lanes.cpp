// Verlet's relaxation pass in lanes eight and four wide (verlet_relax_lanes.h) against
// verletRelaxParticle one particle after another: the same bits in every position and velocity,
// over rows of 0 to 14 spring ends side by side (a mesh's valences), free particles of any inverse
// mass, pinned ones (which keep their place and their velocity), a NaN inverse mass (pinned, as
// the scalar test takes it), springs of zero length or between two pinned ends (no correction),
// coordinates of negative zero, plain Jacobi and Chebyshev's blend; and, through verletRelaxRange,
// the last pass, whose collision with a plane follows the lanes, and Nesterov's momentum, for which
// the lanes give the springs' sums alone and each particle is finished as the scalar pass does.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "shaders/physics.h"
#include "lane_test_rows.h"
#include "solver/backend/backend_state.h"
#include "solver/integrators/verlet/verlet.h"
#include "solver/integrators/verlet/verlet_relax_lanes.h"
#include "solver/model/spring_table.h"

namespace weft::integrators {
namespace {

CpuState makeState(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  CpuState s;
  for (size_t i = 0; i < n; ++i) {
    glm::vec4 x(0.1f * u(rng), 1.f + 0.1f * u(rng), 0.1f * u(rng), 1.f + u(rng));
    switch (i % 7) {
      case 1: x.w = 0.f; break;               // pinned
      case 3: x.x = -0.f, x.z = -0.f; break;  // negative zeros
      case 5: x.w = std::nanf(""); break;     // pinned, as the scalar test takes it
      default: break;
    }
    s.positions.push_back(x);
  }
  // Rows of 0 to 14 ends, runs of equal counts (a grid's inside) between them.
  s.springs.rows.push_back(0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t ends = (i / 16) % 3 == 0 ? 12u : static_cast<uint32_t>(rng() % 15);
    for (uint32_t k = 0; k < ends; ++k) {
      gpu::SpringLink link{static_cast<uint32_t>(rng() % n), 0.05f * (1.f + u(rng))};
      if (k == 3) link.other = static_cast<uint32_t>(i);  // zero length: no direction
      s.springs.links.push_back(link);
    }
    s.springs.rows.push_back(static_cast<uint32_t>(s.springs.links.size()));
  }
  s.elements.rows.assign(n + 1, 0u);  // springs alone
  // The iterate before the last (Chebyshev's) and the step's carried velocity.
  for (size_t i = 0; i < n; ++i) {
    s.positionsOut.push_back(s.positions[i] + glm::vec4(0.01f * u(rng), 0.01f * u(rng), 0.01f * u(rng), 0.f));
    s.velocitiesOut.emplace_back(u(rng), u(rng), u(rng), u(rng));
  }
  return s;
}

gpu::StepParams relaxParams(float omega, bool last) {
  gpu::StepParams p{};
  p.dt = 1.f / 480.f;
  p.constraintStiffness = 0.9f;
  p.relaxation = 1.5f;
  p.omega = omega;
  p.mode = last ? WEFT_MODE_RELAX_FINAL : 0u;
  return p;
}

void relaxOneByOne(CpuState& s, const gpu::StepParams& p, std::vector<glm::vec4>* lastJacobi = nullptr) {
  std::vector<glm::vec4> unused;
  for (uint32_t i = 0; i < s.positions.size(); ++i) verletRelaxParticle(i, s, lastJacobi ? *lastJacobi : unused, p);
}

TEST(VerletRelaxLanes, EachWidthGivesTheScalarPassesBits) {
  const size_t n = 211;
  int widths = 0;
  for (const auto& [kernel, width] : {std::pair{verletRelaxLanesAvx2(), 8}, std::pair{verletRelaxLanesSse(), 4}}) {
    if (!kernel || processorLaneWidth() < width) continue;
    ++widths;
    for (const float omega : {1.f, 1.7f}) {
      const gpu::StepParams p = relaxParams(omega, false);
      CpuState lanes = makeState(n, 5u), scalar = makeState(n, 5u);
      const VerletRelaxInput in{lanes.springs.rows.data(), lanes.springs.links.data(), lanes.positions.data(),
                                lanes.positionsOut.data(), lanes.velocitiesOut.data(), p.constraintStiffness,
                                p.relaxation,              p.omega,                    p.dt};
      size_t i = 0;
      std::vector<glm::vec4> unused;
      for (; i + size_t(width) <= n; i += size_t(width)) kernel(in, static_cast<uint32_t>(i), nullptr);
      for (; i < n; ++i) verletRelaxParticle(static_cast<uint32_t>(i), lanes, unused, p);
      relaxOneByOne(scalar, p);
      EXPECT_TRUE(sameBits(lanes.positionsOut, scalar.positionsOut)) << "width " << width << ", omega " << omega;
      EXPECT_TRUE(sameBits(lanes.velocitiesOut, scalar.velocitiesOut)) << "width " << width << ", omega " << omega;
      // The pass moved the particles: not the iterate it started from.
      EXPECT_FALSE(sameBits(lanes.positionsOut, makeState(n, 5u).positionsOut));
    }
  }
#if defined(__x86_64__)
  EXPECT_GE(widths, 1) << "an x86-64 build has the SSE2 lanes at least";
#endif
}

// The last pass collides each free particle after its relaxation: through the lanes (verletRelaxRange)
// as in the scalar particle, with a floor that some particles end below.
TEST(VerletRelaxLanes, TheLastPassCollidesAfterTheLanesAsTheScalarPassDoes) {
  const size_t n = 211;
  const gpu::StepParams p = relaxParams(1.3f, true);
  ColliderDesc floor;
  floor.offset = 1.f;  // half the particles start below it
  CpuState lanes = makeState(n, 9u), scalar = makeState(n, 9u);
  lanes.colliders = scalar.colliders = packColliders({floor});
  std::vector<glm::vec4> unused;
  verletRelaxRange(0, n, lanes, unused, p);
  relaxOneByOne(scalar, p);
  EXPECT_TRUE(sameBits(lanes.positionsOut, scalar.positionsOut));
  EXPECT_TRUE(sameBits(lanes.velocitiesOut, scalar.velocitiesOut));
  // The floor held every free particle: some started below it, none ended there.
  size_t below = 0, free = 0, startedBelow = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!(lanes.positions[i].w > 0.f)) continue;
    ++free;
    startedBelow += lanes.positions[i].y < 1.f;
    below += lanes.positionsOut[i].y < 1.f - 1e-6f;
  }
  std::printf("[ info ] %zu free, %zu started below, %zu ended below\n", free, startedBelow, below);
  EXPECT_GT(startedBelow, free / 4);
  EXPECT_EQ(below, 0u);
}

// Nesterov's momentum reads and writes the last Jacobi iterates: the lanes sum each particle's
// springs and the scalar pass finishes it (verletRelaxRange), to the scalar pass's bits.
TEST(VerletRelaxLanes, NesterovsMomentumTakesTheLanesSumsToTheScalarPassesBits) {
  const size_t n = 211;
  for (const bool last : {false, true}) {
    gpu::StepParams p = relaxParams(0.4f, last);
    p.mode |= WEFT_MODE_RELAX_NESTEROV;
    ColliderDesc floor;
    floor.offset = 1.f;
    CpuState lanes = makeState(n, 13u), scalar = makeState(n, 13u);
    lanes.colliders = scalar.colliders = packColliders({floor});
    std::vector<glm::vec4> lanesJacobi(n), scalarJacobi(n);
    for (size_t i = 0; i < n; ++i) lanesJacobi[i] = scalarJacobi[i] = lanes.positions[i] + glm::vec4(0.003f * float(i % 5), 0.f, 0.f, 0.f);
    verletRelaxRange(0, n, lanes, lanesJacobi, p);
    relaxOneByOne(scalar, p, &scalarJacobi);
    EXPECT_TRUE(sameBits(lanes.positionsOut, scalar.positionsOut)) << "last " << last;
    EXPECT_TRUE(sameBits(lanes.velocitiesOut, scalar.velocitiesOut)) << "last " << last;
    EXPECT_TRUE(sameBits(lanesJacobi, scalarJacobi)) << "last " << last;
    EXPECT_FALSE(sameBits(lanes.positionsOut, makeState(n, 13u).positionsOut));
  }
}

}  // namespace
}  // namespace weft::integrators
