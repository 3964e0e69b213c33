#pragma once
// The CPU backend's gather over elements, twin of shaders/element_gather.glsl and
// element_product.glsl: each particle walks its own incidence row (element, slot), in the same
// order as the GPU, and asks the element (shaders/elements.h) what it does to that slot.
#include <vector>

#include "shaders/physics.h"
#include "solver/model/elements.h"

namespace weft::integrators {

// Calls fn(element, slot, node positions x[4]) for each entry of particle i's row, then for each
// contact pair it keeps (slot 0: it is their node 0).
template <class Fn>
void forEachElement(const ElementTable& t, uint32_t i, const std::vector<glm::vec4>& positions, Fn&& fn) {
  auto visit = [&](const gpu::Element& e, uint32_t slot) {
    const glm::vec4 x[4] = {positions[e.nodes.x], positions[e.nodes.y], positions[e.nodes.z], positions[e.nodes.w]};
    fn(e, slot, x);
  };
  if (t.rows.back() != 0)  // else springs only
    for (uint32_t k = t.rows[i]; k < t.rows[i + 1]; ++k) visit(t.elements[t.refs[k] >> 2], t.refs[k] & 3u);
  if (t.contactPairCounts.empty()) return;
  for (uint32_t k = 0; k < t.contactPairCounts[i]; ++k) visit(t.contactPairs[size_t(i) * WEFT_CONTACT_PAIR_SLOTS + k], 0u);
}


// Sum of the element forces on particle i; the elastic kinds only when `elastic`.
inline glm::vec3 elementForces(uint32_t i, const std::vector<glm::vec4>& positions,
                               const std::vector<glm::vec4>& velocities, const ElementTable& t, glm::vec4 wind,
                               bool elastic) {
  glm::vec3 f(0.f);
  if (!elastic && (t.kinds & WEFT_FORCE_ONLY_KINDS) == 0u) return f;  // no kind to apply: not even the row
  forEachElement(t, i, positions, [&](const gpu::Element& e, uint32_t slot, const glm::vec4* x) {
    if (!elastic && gpu::elementIsElastic(e.kind)) return;
    const glm::uvec4 n = e.nodes;
    f += gpu::elementForce(e, slot, gpu::xyz(x[0]), gpu::xyz(x[1]), gpu::xyz(x[2]), gpu::xyz(x[3]),
                           gpu::xyz(velocities[n.x]), gpu::xyz(velocities[n.y]), gpu::xyz(velocities[n.z]),
                           gpu::xyz(velocities[n.w]), gpu::xyz(wind));
  });
  return f;
}

// Row i of sum_e (a + b d_e) K_e u; a kept contact pair's diagonal block alone (see element_product.glsl).
inline glm::vec3 elementProduct(uint32_t i, const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& u,
                                const ElementTable& t, float a, float b) {
  glm::vec3 q(0.f);
  forEachElement(t, i, positions, [&](const gpu::Element& e, uint32_t slot, const glm::vec4* x) {
    const glm::uvec4 n = e.nodes;
    gpu::Conditions c = gpu::elementConditions(e, gpu::xyz(x[0]), gpu::xyz(x[1]), gpu::xyz(x[2]), gpu::xyz(x[3]));
    if (gpu::elementCouplesNodes(e.kind)) {
      q += gpu::conditionProduct(c, slot, a + b * e.damping, gpu::xyz(u[n.x]), gpu::xyz(u[n.y]), gpu::xyz(u[n.z]), gpu::xyz(u[n.w]));
    } else {  // its keeper's diagonal block alone (the keeper is node 0: slot 0)
      const glm::vec3 zero(0.f);
      q += gpu::conditionProduct(c, 0u, a + b * e.damping, gpu::xyz(u[n.x]), zero, zero, zero);
    }
  });
  return q;
}

// Diagonal block of sum_e (a + b d_e) K_e at particle i, plus `dominance` times the bound on the
// row's off-diagonal blocks (see element_gather.glsl).
inline glm::mat3 elementDiagonal(uint32_t i, const std::vector<glm::vec4>& positions, const ElementTable& t,
                                 float a, float b, float dominance) {
  glm::mat3 block(0.f);
  forEachElement(t, i, positions, [&](const gpu::Element& e, uint32_t slot, const glm::vec4* x) {
    gpu::Conditions c = gpu::elementConditions(e, gpu::xyz(x[0]), gpu::xyz(x[1]), gpu::xyz(x[2]), gpu::xyz(x[3]));
    block += gpu::conditionDiagonal(c, slot, a + b * e.damping);
    if (dominance > 0.f) block += (dominance * gpu::conditionCouplingBound(c, slot, a + b * e.damping)) * glm::mat3(1.f);
  });
  return block;
}

// Sum of the averaged element projections of particle i, count gaining one per such element; the
// others' corrections are summed into `direct` (see elementProjectionAveraged).
inline glm::vec3 elementProjections(uint32_t i, const std::vector<glm::vec4>& positions, const ElementTable& t,
                                    float h, uint32_t& count, glm::vec3& direct) {
  glm::vec3 dx(0.f);
  forEachElement(t, i, positions, [&](const gpu::Element& e, uint32_t slot, const glm::vec4* x) {
    gpu::Conditions c = gpu::elementConditions(e, gpu::xyz(x[0]), gpu::xyz(x[1]), gpu::xyz(x[2]), gpu::xyz(x[3]));
    if (c.count == 0u) return;
    const glm::vec3 correction = gpu::conditionProjection(c, slot, x[0].w, x[1].w, x[2].w, x[3].w, h);
    if (gpu::elementProjectionAveraged(e.kind)) {
      dx += correction;
      ++count;
    } else {
      direct += correction;
    }
  });
  return dx;
}

}  // namespace weft::integrators
