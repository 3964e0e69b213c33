// The element part of an implicit solve's matrix, gathered per particle (mirrors the products in
// solver/integrators/cpu_elements.h). The including kernel defines WEFT_ELEMENT_VECTOR(j), the
// vector the product reads at particle j, before including this after its buffers.
#ifndef WEFT_ELEMENT_PRODUCT_GLSL
#define WEFT_ELEMENT_PRODUCT_GLSL

// Row i of sum_e (a + b d_e) K_e u, K_e an element's Gauss-Newton stiffness at WEFT_ELEMENT_X and d_e
// its damping: (a, b) = (h^2, h) gives the implicit system's h D + h^2 K, (1, 0) gives K. A contact
// pair the particle keeps adds its diagonal block alone (see elementCouplesNodes).
#ifdef WEFT_NO_ELEMENTS
vec3 elementProduct(uint i, float a, float b) { return vec3(0.0); }  // springs only: see element_gather.glsl
#else
vec3 elementProduct(uint i, float a, float b) {
  vec3 q = vec3(0.0);
  if (params.elementRefs == 0u && params.contactPairs == 0u) return q;
  uint end = gatherEnd(i);
  for (uint k = gatherBegin(i); k < end; ++k) {
    uint slot;
    Element e = gatheredElement(i, k, slot);
    uvec4 n = e.nodes;
    Conditions conditions = elementConditions(e, WEFT_ELEMENT_X(n.x).xyz, WEFT_ELEMENT_X(n.y).xyz,
                                              WEFT_ELEMENT_X(n.z).xyz, WEFT_ELEMENT_X(n.w).xyz);
    if (elementCouplesNodes(e.kind)) {
      q += conditionProduct(conditions, slot, a + b * e.damping, WEFT_ELEMENT_VECTOR(n.x), WEFT_ELEMENT_VECTOR(n.y),
                            WEFT_ELEMENT_VECTOR(n.z), WEFT_ELEMENT_VECTOR(n.w));
    } else {  // its keeper's diagonal block alone (the keeper is node 0: slot 0)
      q += conditionProduct(conditions, 0u, a + b * e.damping, WEFT_ELEMENT_VECTOR(n.x), vec3(0.0), vec3(0.0), vec3(0.0));
    }
  }
  return q;
}
#endif  // WEFT_NO_ELEMENTS

#endif
