#pragma once
// XPBD's tether on the CPU backend: what xpbd_project.comp does with a tether (gpu::xpbdElement of
// shaders/xpbd.h over tetherConditions of shaders/elements/tether.h, then each slot's node moved
// in turn), written out for the tether's one condition and its nodes (i, anchor, i, i) as
// addTethers builds them. Every expression of the general path is kept, the zero gradients of
// slots 2 and 3 included, so each position and multiplier comes out bit for bit as there
// (XpbdTether checks it): the general path builds a Conditions of three conditions over four
// nodes and loops over them, and with tethers to two pins that was most of a step's time.
#include "shaders/physics.h"

namespace weft::integrators {

// Whether projectTether may take this element: a tether laid out as addTethers lays it out.
inline bool projectsAsTether(const gpu::Element& e) {
  return e.kind == WEFT_ELEMENT_TETHER && e.nodes.z == e.nodes.x && e.nodes.w == e.nodes.x;
}

// Projects tether e in place in x (start: the step's start positions, h the step) and adds its
// multiplier change to lambda.x.
inline void projectTether(const gpu::Element& e, glm::vec4* x, const glm::vec4* start, float h, glm::vec4& lambda) {
  using gpu::xyz;
  const uint32_t i = e.nodes.x, anchor = e.nodes.y;
  const glm::vec4 x0 = x[i], x1 = x[anchor];
  const glm::vec3 zero(0.f);
  glm::vec3 dx0(0.f), dx1(0.f), dx2(0.f);  // slot 3's move is slot 2's: the same node, the same zero gradient
  float dlambda = 0.f;
  // tetherConditions: active beyond the limit only.
  const glm::vec3 d = xyz(x0) - xyz(x1);
  const float len = glm::length(d);
  if (!(len <= e.rest.x || len < 1e-12f)) {
    const glm::vec3 g0 = d / len, g1 = -g0;
    // xpbdElement's one condition, slots 2 and 3 being node i with a zero gradient.
    const float weight = x0.w * glm::dot(g0, g0) + x1.w * glm::dot(g1, g1) + x0.w * glm::dot(zero, zero) +
                         x0.w * glm::dot(zero, zero);
    const glm::vec3 u0 = xyz(x0) - xyz(start[i]), u1 = xyz(x1) - xyz(start[anchor]);
    const float change = glm::dot(g0, u0) + glm::dot(g1, u1) + glm::dot(zero, u0) + glm::dot(zero, u0);
    dlambda = gpu::xpbdMultiplierStep(len - e.rest.x, change, weight, e.stiffness0, e.damping, h, lambda.x);
    dx0 += (x0.w * dlambda) * g0;
    dx1 += (x1.w * dlambda) * g1;
    dx2 += (x0.w * dlambda) * zero;
  }
  // The slots in order, each adding to what the last wrote; pinned nodes are not written.
  if (x[i].w > 0.f) x[i] += glm::vec4(dx0, 0.f);
  if (x[anchor].w > 0.f) x[anchor] += glm::vec4(dx1, 0.f);
  if (x[i].w > 0.f) x[i] += glm::vec4(dx2, 0.f);
  if (x[i].w > 0.f) x[i] += glm::vec4(dx2, 0.f);
  lambda += glm::vec4(dlambda, 0.f, 0.f, 0.f);
}

}  // namespace weft::integrators
