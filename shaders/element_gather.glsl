// The GPU's gather over elements: each particle walks its own incidence row (element, slot), then
// the contact pairs it keeps for an implicit solve, and asks the element what it does to that
// slot. Included by solver_bindings.glsl; the product over a vector (implicit solves) is in
// element_product.glsl. Mirrors solver/integrators/cpu_elements.h.
#ifndef WEFT_ELEMENT_GATHER_GLSL
#define WEFT_ELEMENT_GATHER_GLSL

// Where a gather reads node j's state: the pass's `positions` and `velocities` unless the kernel
// says otherwise before including solver_bindings.glsl (Newton evaluates its iterate).
#ifndef WEFT_ELEMENT_X
#define WEFT_ELEMENT_X(j) positions[j]
#define WEFT_ELEMENT_V(j) velocities[j].xyz
#endif

#ifdef WEFT_NO_ELEMENTS
// The kernels' variant for a cloth of springs only (cmake/embed_shaders.cmake builds both): no
// element buffers are declared, so none is bound, and the gathers are empty. Measured on lavapipe,
// the element code a springs-only cloth never enters still cost Verlet 17-20 % at 64^2 (three more
// push descriptors per dispatch, larger kernels).
vec3 elementForces(uint i, bool elastic) { return vec3(0.0); }
vec3 elementProjections(uint i, float h, inout uint count, inout vec3 direct) { return vec3(0.0); }
mat3 elementDiagonal(uint i, float a, float b, float dominance) { return mat3(0.0); }
#else
layout(std430, binding = WEFT_BIND_ELEMENTS) readonly buffer Elements { Element elements[]; };
layout(std430, binding = WEFT_BIND_ELEMENT_ROWS) readonly buffer ElementRows { uint elementRows[]; };
layout(std430, binding = WEFT_BIND_ELEMENT_REFS) readonly buffer ElementRefs { uint elementRefs[]; };
layout(std430, binding = WEFT_BIND_CONTACT_PAIRS) readonly buffer ContactPairs { Element contactPairs[]; };
layout(std430, binding = WEFT_BIND_CONTACT_PAIR_COUNTS) readonly buffer ContactPairCounts { uint contactPairCounts[]; };

// Particle i's gather list: its row of the element table, then the contact pairs it keeps (an
// implicit solve's, params.contactPairs). gatherBegin/End bound k; gatheredElement(k) reads entry k
// and its slot (a kept pair's is 0: the particle is its node 0).
uint gatherBegin(uint i) { return params.elementRefs == 0u ? 0u : elementRows[i]; }
uint gatherEnd(uint i) {
  uint end = params.elementRefs == 0u ? 0u : elementRows[i + 1];
  return params.contactPairs == 0u || !WEFT_MAY_HOLD(WEFT_ELEMENT_CONTACT) ? end : end + contactPairCounts[i];
}
Element gatheredElement(uint i, uint k, out uint slot) {
  uint rowEnd = params.elementRefs == 0u ? 0u : elementRows[i + 1];
  if (k < rowEnd || !WEFT_MAY_HOLD(WEFT_ELEMENT_CONTACT)) {
    uint ref = elementRefs[k];
    slot = ref & 3u;
    return elements[ref >> 2];
  }
  slot = 0u;
  return contactPairs[i * WEFT_CONTACT_PAIR_SLOTS + (k - rowEnd)];
}

// Sum of the element forces on particle i at the state in `positions` and `velocities`; the
// elastic kinds only when `elastic` (Verlet projects those instead).
vec3 elementForces(uint i, bool elastic) {
  vec3 f = vec3(0.0);
  if (params.elementRefs == 0u && params.contactPairs == 0u) return f;  // springs only: not even the row's two loads
  if (!elastic && (weftElementKinds & WEFT_FORCE_ONLY_KINDS) == 0u) return f;  // no kind to apply: not even the row
  uint end = gatherEnd(i);
  for (uint k = gatherBegin(i); k < end; ++k) {
    uint slot;
    Element e = gatheredElement(i, k, slot);
    if (!elastic && elementIsElastic(e.kind)) continue;
    uvec4 n = e.nodes;
    f += elementForce(e, slot, WEFT_ELEMENT_X(n.x).xyz, WEFT_ELEMENT_X(n.y).xyz, WEFT_ELEMENT_X(n.z).xyz,
                      WEFT_ELEMENT_X(n.w).xyz, WEFT_ELEMENT_V(n.x), WEFT_ELEMENT_V(n.y), WEFT_ELEMENT_V(n.z),
                      WEFT_ELEMENT_V(n.w), params.wind.xyz);
  }
  return f;
}

// Sum of the element projections of particle i (Verlet), each from the positions in `positions`.
// Returns the summed correction of the kinds Verlet averages, `count` gaining one per such element;
// the others' corrections are summed into `direct`.
vec3 elementProjections(uint i, float h, inout uint count, inout vec3 direct) {
  vec3 dx = vec3(0.0);
  if (params.elementRefs == 0u && params.contactPairs == 0u) return dx;
  uint end = gatherEnd(i);
  for (uint k = gatherBegin(i); k < end; ++k) {
    uint slot;
    Element e = gatheredElement(i, k, slot);
    uvec4 n = e.nodes;
    vec4 x0 = WEFT_ELEMENT_X(n.x), x1 = WEFT_ELEMENT_X(n.y), x2 = WEFT_ELEMENT_X(n.z), x3 = WEFT_ELEMENT_X(n.w);
    Conditions c = elementConditions(e, x0.xyz, x1.xyz, x2.xyz, x3.xyz);
    if (c.count == 0u) continue;
    vec3 correction = conditionProjection(c, slot, x0.w, x1.w, x2.w, x3.w, h);
    if (elementProjectionAveraged(e.kind)) {
      dx += correction;
      ++count;
    } else {
      direct += correction;
    }
  }
  return dx;
}

// Diagonal block of sum_e (a + b d_e) K_e at particle i (the implicit preconditioners'), plus
// `dominance` times the bound on the row's off-diagonal blocks (conditionCouplingBound) on its
// diagonal: 0 for a preconditioner, 0.5 for a Jacobi iteration that must converge.
mat3 elementDiagonal(uint i, float a, float b, float dominance) {
  mat3 block = mat3(0.0);
  if (params.elementRefs == 0u && params.contactPairs == 0u) return block;
  uint end = gatherEnd(i);
  for (uint k = gatherBegin(i); k < end; ++k) {
    uint slot;
    Element e = gatheredElement(i, k, slot);
    uvec4 n = e.nodes;
    Conditions c = elementConditions(e, WEFT_ELEMENT_X(n.x).xyz, WEFT_ELEMENT_X(n.y).xyz, WEFT_ELEMENT_X(n.z).xyz,
                                     WEFT_ELEMENT_X(n.w).xyz);
    block += conditionDiagonal(c, slot, a + b * e.damping);
    if (dominance > 0.0) block += (dominance * conditionCouplingBound(c, slot, a + b * e.damping)) * mat3(1.0);
  }
  return block;
}
#endif  // WEFT_NO_ELEMENTS

#endif
