// XPBD's tethers in lanes, eight and four wide (xpbd_tether_lanes.h), against projectTether one after another, as
// the CPU backend projected them before: the same bits in every position and multiplier, over
// tethers that pull, tethers slack or exactly at their limit, pinned particles, no stiffness, zero
// length, coordinates of negative zero, earlier multipliers, runs of groups all slack, and groups
// the lanes must leave to the scalar path (a free anchor, an element that is not a tether, a spring).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "shaders/physics.h"
#include "solver/integrators/xpbd/xpbd_tether.h"
#include "solver/integrators/xpbd/xpbd_tether_lanes.h"

namespace weft::integrators {
namespace {

struct Case {
  std::vector<gpu::Element> elements;
  std::vector<gpu::XpbdConstraint> constraints;
  std::vector<glm::vec4> x, start, lambdas;
};

// n tethers of one colour: particle k of 3 pinned anchors (particles 0-2) then n free particles in
// a shuffled order, tied to anchor k % 3, with the special cases spread over the groups of four.
Case makeCase(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Case c;
  for (size_t i = 0; i < 3 + n; ++i) {
    c.start.emplace_back(u(rng), u(rng), u(rng), 0.f);
    c.x.push_back(c.start.back() + glm::vec4(0.05f * u(rng), 0.05f * u(rng), 0.05f * u(rng), 0.f));
    c.x.back().w = i < 3 ? 0.f : 0.5f + 0.4f * u(rng);
  }
  std::vector<uint32_t> order(n);
  for (uint32_t k = 0; k < n; ++k) order[k] = 3 + k;
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t k = 0; k < n; ++k) {
    const uint32_t i = order[k], anchor = static_cast<uint32_t>(k % 3);
    gpu::Element e{};
    e.kind = WEFT_ELEMENT_TETHER;
    e.nodes = glm::uvec4(i, anchor, i, i);
    const float length = glm::length(gpu::xyz(c.x[i]) - gpu::xyz(c.x[anchor]));
    e.rest.x = length * (1.f + 0.3f * u(rng));
    // Every other run of 32 all slack, so whole groups move nothing (the lanes' shortcut).
    if ((k / 32) % 2 == 1) e.rest.x = length * (1.05f + 0.3f * std::abs(u(rng)));
    e.stiffness0 = 1e5f * (1.1f + u(rng));
    e.damping = k % 3 == 0 ? 0.f : 0.01f * (1.f + u(rng));
    switch (k % 23) {
      case 2: c.x[i].w = 0.f; break;         // a pinned particle
      case 5: e.rest.x = length; break;      // exactly at the limit
      case 8: c.x[i].z = -0.f, c.start[i].z = -0.f, c.x[i].y = -0.f; break;  // negative zeros
      case 11: c.x[i] = glm::vec4(gpu::xyz(c.x[anchor]), c.x[i].w), e.rest.x = 0.f; break;  // zero length
      case 14: e.stiffness0 = 0.f; break;
      case 17: e.nodes.z = anchor; break;    // not laid out as a tether: the general path
      default: break;
    }
    // As buildXpbdConstraints lists them: a tether carried in full, any other element by its index.
    const uint32_t index = static_cast<uint32_t>(c.elements.size());
    c.constraints.push_back(projectsAsTether(e) ? tetherConstraint(index, e)
                                                : gpu::XpbdConstraint{index, WEFT_XPBD_ELEMENT, 0.f, 0.f, 0.f, 0, 0, 0});
    c.elements.push_back(e);
    c.lambdas.emplace_back(1e-3f * u(rng), u(rng), u(rng), u(rng));
  }
  return c;
}

// What the CPU backend did to each tether before the lanes, one after another (elements that are
// not tethers through the general path, as xpbd_project.comp).
void projectOneByOne(Case& c, float h, bool first, bool keep, size_t from = 0) {
  for (size_t k = from; k < c.constraints.size(); ++k) {
    const gpu::Element& e = c.elements[c.constraints[k].node0];
    glm::vec4 lambda = first ? glm::vec4(0.f) : c.lambdas[k];
    if (projectsAsTether(e)) {
      projectTether(e, c.x.data(), c.start.data(), h, lambda);
    } else {
      const glm::uvec4 n = e.nodes;
      const gpu::XpbdElementMove m = gpu::xpbdElement(e, c.x[n.x], c.x[n.y], c.x[n.z], c.x[n.w], gpu::xyz(c.start[n.x]),
                                                      gpu::xyz(c.start[n.y]), gpu::xyz(c.start[n.z]),
                                                      gpu::xyz(c.start[n.w]), h, lambda);
      for (int slot = 0; slot < 4; ++slot)
        if (c.x[n[slot]].w > 0.f) c.x[n[slot]] += glm::vec4(m.dx[slot], 0.f);
      lambda += m.dlambda;
    }
    if (keep) c.lambdas[k] = lambda;
  }
}

// The lanes where they go, the scalar path for the rest, as xpbdStepCpu walks a colour.
size_t projectInLanes(Case& c, float h, bool first, bool keep, int width) {
  size_t inLanes = 0;
  for (size_t k = 0; k < c.constraints.size();) {
    const size_t done = projectTetherLanes(c.constraints.data() + k, c.constraints.size() - k, c.x.data(),
                                           c.start.data(), h, c.lambdas.data() + k, first, keep, width);
    inLanes += done;
    k += done;
    if (k < c.constraints.size()) {
      Case one = c;  // the scalar path for constraint k alone
      one.constraints = {c.constraints[k]};
      one.lambdas = {c.lambdas[k]};
      projectOneByOne(one, h, first, keep);
      c.x = one.x;
      c.lambdas[k] = one.lambdas[0];
      ++k;
    }
  }
  return inLanes;
}

bool sameBits(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b, size_t& firstDifferent) {
  for (firstDifferent = 0; firstDifferent < a.size(); ++firstDifferent)
    if (std::memcmp(&a[firstDifferent], &b[firstDifferent], sizeof(glm::vec4)) != 0) return false;
  return true;
}

// Each width the processor runs (xpbdLaneWidth: 16 with AVX-512, 8 with AVX2, then 4 with SSE2).
TEST(XpbdTetherLanes, EachWidthGivesTheScalarPathsBits) {
  const float h = 1.f / 480.f;
  for (const int width : {16, 8, 4}) {
    if (width > xpbdLaneWidth()) continue;
    size_t inLanes = 0, total = 0;
    for (unsigned seed = 1; seed <= 40; ++seed) {
      for (int sweep = 0; sweep < 3; ++sweep) {
        const bool first = sweep == 0, keep = sweep != 1;
        Case lanes = makeCase(101 + seed, seed);
        Case scalar = lanes;
        projectOneByOne(scalar, h, first, keep);
        inLanes += projectInLanes(lanes, h, first, keep, width);
        total += lanes.constraints.size();
        size_t at = 0;
        EXPECT_TRUE(sameBits(lanes.x, scalar.x, at))
            << "width " << width << ", seed " << seed << ", sweep " << sweep << ", particle " << at;
        EXPECT_TRUE(sameBits(lanes.lambdas, scalar.lambdas, at))
            << "width " << width << ", seed " << seed << ", sweep " << sweep << ", tether " << at;
      }
    }
    // Every group without the general-path tether goes through the lanes.
    EXPECT_GT(inLanes, total * 3 / 4) << "width " << width;
  }
}

// A free anchor is moved by every tether that pulls on it; four lanes sharing it would keep one
// move. The lanes leave such a group to the scalar path.
TEST(XpbdTetherLanes, AGroupWithAFreeAnchorIsLeftToTheScalarPath) {
  for (const int width : {16, 8, 4}) {
    if (width > xpbdLaneWidth()) continue;
    Case c = makeCase(8, 3);
    for (size_t k = 0; k < c.elements.size(); ++k) {
      gpu::Element& e = c.elements[k];
      e.nodes = glm::uvec4(e.nodes.x, 0u, e.nodes.x, e.nodes.x), e.stiffness0 = 1e5f;
      c.constraints[k] = tetherConstraint(static_cast<uint32_t>(k), e);
    }
    c.x[0].w = 1.f;
    EXPECT_EQ(projectTetherLanes(c.constraints.data(), c.constraints.size(), c.x.data(), c.start.data(), 1.f / 480.f,
                                 c.lambdas.data(), true, true, width),
              0u)
        << "width " << width;
    c.x[0].w = 0.f;
    EXPECT_EQ(projectTetherLanes(c.constraints.data(), c.constraints.size(), c.x.data(), c.start.data(), 1.f / 480.f,
                                 c.lambdas.data(), true, true, width),
              8u)
        << "width " << width;
  }
}

}  // namespace
}  // namespace weft::integrators
