// The GPU's gather over elements: each particle walks its own incidence row (element, slot) and
// asks the element what it does to that slot. Included by solver_bindings.glsl; the product over a
// vector (implicit solves) is in element_product.glsl. Mirrors solver/integrators/cpu_elements.h.
#ifndef WEFT_ELEMENT_GATHER_GLSL
#define WEFT_ELEMENT_GATHER_GLSL

layout(std430, binding = WEFT_BIND_ELEMENTS) readonly buffer Elements { Element elements[]; };
layout(std430, binding = WEFT_BIND_ELEMENT_ROWS) readonly buffer ElementRows { uint elementRows[]; };
layout(std430, binding = WEFT_BIND_ELEMENT_REFS) readonly buffer ElementRefs { uint elementRefs[]; };

// Sum of the element forces on particle i at the state in `positions` and `velocities`; the
// elastic kinds only when `elastic` (Verlet projects those instead).
vec3 elementForces(uint i, bool elastic) {
  vec3 f = vec3(0.0);
  for (uint k = elementRows[i]; k < elementRows[i + 1]; ++k) {
    uint ref = elementRefs[k];
    Element e = elements[ref >> 2];
    if (!elastic && elementIsElastic(e.kind)) continue;
    uvec4 n = e.nodes;
    f += elementForce(e, ref & 3u, positions[n.x].xyz, positions[n.y].xyz, positions[n.z].xyz, positions[n.w].xyz,
                      velocities[n.x].xyz, velocities[n.y].xyz, velocities[n.z].xyz, velocities[n.w].xyz,
                      params.wind.xyz);
  }
  return f;
}

// Sum of the element projections of particle i (Verlet), each from the positions in `positions`.
// Returns the summed correction; w = the number of corrections, for Jacobi averaging.
vec3 elementProjections(uint i, float h, inout uint count) {
  vec3 dx = vec3(0.0);
  for (uint k = elementRows[i]; k < elementRows[i + 1]; ++k) {
    uint ref = elementRefs[k];
    Element e = elements[ref >> 2];
    uvec4 n = e.nodes;
    vec4 x0 = positions[n.x], x1 = positions[n.y], x2 = positions[n.z], x3 = positions[n.w];
    Conditions c = elementConditions(e, x0.xyz, x1.xyz, x2.xyz, x3.xyz);
    if (c.count == 0u) continue;
    dx += conditionProjection(c, ref & 3u, x0.w, x1.w, x2.w, x3.w, h);
    ++count;
  }
  return dx;
}

// Diagonal block of sum_e (a + b d_e) K_e at particle i (the implicit preconditioners').
mat3 elementDiagonal(uint i, float a, float b) {
  mat3 block = mat3(0.0);
  for (uint k = elementRows[i]; k < elementRows[i + 1]; ++k) {
    uint ref = elementRefs[k];
    Element e = elements[ref >> 2];
    uvec4 n = e.nodes;
    Conditions c = elementConditions(e, positions[n.x].xyz, positions[n.y].xyz, positions[n.z].xyz, positions[n.w].xyz);
    block += conditionDiagonal(c, ref & 3u, a + b * e.damping);
  }
  return block;
}

#endif
