#pragma once
// XPBD's tether on the CPU backend: gpu::xpbdTether (shaders/xpbd.h), the tether's own projection,
// with its nodes moved slot by slot as xpbd_project.comp moves an element's, so each position and
// multiplier comes out bit for bit as through the general element path (XpbdTether checks it;
// an undamped tether skips the rate the general path multiplies by zero, which agrees wherever the
// positions are finite). With tethers to two pins, the general path was most of a step's time.
#include "shaders/physics.h"

namespace weft::integrators {

// Whether an element takes the tether's projection: a tether laid out as addTethers lays it out,
// nodes (i, anchor, i, i). The GPU's colours list these after their springs and before their other
// elements (buildXpbdConstraints), and project them with xpbd_project_tethers.comp.
inline bool projectsAsTether(const gpu::Element& e) {
  return e.kind == WEFT_ELEMENT_TETHER && e.nodes.z == e.nodes.x && e.nodes.w == e.nodes.x;
}

// The constraint of tether element k (projectsAsTether(e)), carrying the element in full.
inline gpu::XpbdConstraint tetherConstraint(uint32_t k, const gpu::Element& e) {
  return {k, WEFT_XPBD_ELEMENT, e.rest.x, e.stiffness0, e.damping, e.nodes.x, e.nodes.y, WEFT_XPBD_TETHER};
}

// Projects tether e in place in x (start: the step's start positions, h the step) and adds its
// multiplier change to lambda.x.
inline void projectTether(const gpu::Element& e, glm::vec4* x, const glm::vec4* start, float h, glm::vec4& lambda) {
  const uint32_t i = e.nodes.x, anchor = e.nodes.y;
  const gpu::XpbdTetherMove m = gpu::xpbdTether(e.rest.x, e.stiffness0, e.damping, x[i], x[anchor], gpu::xyz(start[i]), gpu::xyz(start[anchor]), h, lambda.x);
  // The slots in order, each adding to what the last wrote; pinned nodes are not written.
  if (x[i].w > 0.f) x[i] += glm::vec4(m.dx0, 0.f);
  if (x[anchor].w > 0.f) x[anchor] += glm::vec4(m.dx1, 0.f);
  if (x[i].w > 0.f) x[i] += glm::vec4(m.dx2, 0.f);
  if (x[i].w > 0.f) x[i] += glm::vec4(m.dx2, 0.f);
  lambda += glm::vec4(m.dlambda, 0.f, 0.f, 0.f);
}

}  // namespace weft::integrators
