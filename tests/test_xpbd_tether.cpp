// XPBD's tether as the CPU backend projects it (xpbd_tether.h) against the general element path
// xpbd_project.comp takes (gpu::xpbdElement, then each slot's node moved in turn): the same bits
// in every position and multiplier, over tethers that pull, tethers that are slack or exactly at
// their limit, free and pinned particles and anchors, damping, earlier multipliers, and
// coordinates of negative zero (which adding a zero move turns positive).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "shaders/physics.h"
#include "solver/integrators/xpbd/xpbd_tether.h"

namespace weft::integrators {
namespace {

// What xpbd_project.comp does with any element.
void projectGeneral(const gpu::Element& e, std::vector<glm::vec4>& x, const std::vector<glm::vec4>& start, float h,
                    glm::vec4& lambda) {
  const glm::uvec4 n = e.nodes;
  const gpu::XpbdElementMove m =
      gpu::xpbdElement(e, x[n.x], x[n.y], x[n.z], x[n.w], gpu::xyz(start[n.x]), gpu::xyz(start[n.y]),
                       gpu::xyz(start[n.z]), gpu::xyz(start[n.w]), h, lambda);
  for (int slot = 0; slot < 4; ++slot) {
    if (x[n[slot]].w > 0.f) x[n[slot]] += glm::vec4(m.dx[slot], 0.f);
  }
  lambda += m.dlambda;
}

bool sameBits(const glm::vec4& a, const glm::vec4& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(XpbdTether, TheTetherPathGivesTheGeneralPathsBits) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const float h = 1.f / 480.f;
  int pulled = 0, slack = 0;
  for (int k = 0; k < 4000; ++k) {
    std::vector<glm::vec4> start = {{u(rng), u(rng), u(rng), 0.f}, {u(rng), u(rng), u(rng), 0.f}};
    std::vector<glm::vec4> x = {start[0] + 0.05f * glm::vec4(u(rng), u(rng), u(rng), 0.f), start[1]};
    x[0].w = 0.5f + u(rng) * 0.4f;  // a free particle
    x[1].w = 0.f;                   // its pinned anchor
    gpu::Element e{};
    e.kind = WEFT_ELEMENT_TETHER;
    e.nodes = glm::uvec4(0, 1, 0, 0);
    e.rest.x = glm::length(gpu::xyz(x[0]) - gpu::xyz(x[1])) * (1.f + 0.3f * u(rng));
    e.stiffness0 = 1e5f * (1.1f + u(rng));
    e.damping = k % 3 == 0 ? 0.f : 0.01f * (1.f + u(rng));
    switch (k % 10) {
      case 1: x[1].w = 0.7f; break;                                         // an anchor that moves
      case 2: x[0].w = 0.f; break;                                          // a pinned particle
      case 3: e.rest.x = glm::length(gpu::xyz(x[0]) - gpu::xyz(x[1])); break;  // exactly at the limit
      case 4: x[0].z = -0.f, x[1].z = -0.f, start[0].z = -0.f; break;       // negative zeros
      case 5: x[1] = glm::vec4(gpu::xyz(x[0]), 0.f), e.rest.x = 0.f; break;  // zero length
      case 6: e.stiffness0 = 0.f; break;
      default: break;
    }
    glm::vec4 lambda(k % 2 == 0 ? 0.f : 1e-3f * u(rng), u(rng), u(rng), u(rng));
    const float before = lambda.x;
    ASSERT_TRUE(projectsAsTether(e));
    std::vector<glm::vec4> general = x;
    glm::vec4 generalLambda = lambda;
    projectGeneral(e, general, start, h, generalLambda);
    projectTether(e, x.data(), start.data(), h, lambda);
    for (size_t n = 0; n < x.size(); ++n) {
      EXPECT_TRUE(sameBits(x[n], general[n])) << "case " << k << ", node " << n;
    }
    EXPECT_TRUE(sameBits(lambda, generalLambda)) << "case " << k;
    ++(generalLambda.x != before ? pulled : slack);
  }
  EXPECT_GT(pulled, 1000);
  EXPECT_GT(slack, 0);
}

TEST(XpbdTether, OnlyATetherLaidOutAsAddTethersLaysItOutTakesTheTetherPath) {
  gpu::Element e{};
  e.kind = WEFT_ELEMENT_TETHER;
  e.nodes = glm::uvec4(4, 9, 4, 4);
  EXPECT_TRUE(projectsAsTether(e));
  e.nodes = glm::uvec4(4, 9, 5, 4);
  EXPECT_FALSE(projectsAsTether(e));
  e.nodes = glm::uvec4(4, 9, 4, 4);
  e.kind = WEFT_ELEMENT_MEMBRANE;
  EXPECT_FALSE(projectsAsTether(e));
}

}  // namespace
}  // namespace weft::integrators
