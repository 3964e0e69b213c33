// A contact pair held by an implicit solve: a vertex and a triangle, or two edges, that contact found
// within its radius at a step's start (shaders/contact.h, contactPairElement), as one one-sided
// condition along the direction n between their nearest points then:
//   C = n . (sum_m g_m x_m) - reach,  active while C < 0,
// the weights g_m each corner's share of its side's nearest point (positive on side A, negative on
// side B), so sum_m g_m x_m is the gap A - B with the nearest points' parameters kept. C is linear in
// the positions, so the Gauss-Newton Jacobian k g_n g_m^T n n^T is the exact one. The solve thus
// sees a pair closing in before it reaches the reach, and its result already holds the layers apart;
// the contact pass after it still enforces the thickness and the displacement bounds.
// Element fields: nodes (the vertex that keeps it first), rest = g, shape = (n, reach),
// stiffness0 = k (N/m), damping (s). Included by elements.h.
#ifndef WEFT_ELEMENTS_CONTACT_PAIR_H
#define WEFT_ELEMENTS_CONTACT_PAIR_H

WEFT_FN Conditions contactPairConditions(Element e, vec3 x0, vec3 x1, vec3 x2, vec3 x3) {
  Conditions c = noConditions();
  vec3 n = xyz(e.shape);
  float along = dot(n, e.rest.x * x0 + e.rest.y * x1 + e.rest.z * x2 + e.rest.w * x3);
  if (along >= e.shape.w) return c;
  c.count = 1u;
  c.value[0] = along - e.shape.w;
  c.stiffness[0] = e.stiffness0;
  c.gradient[0] = e.rest.x * n;
  c.gradient[1] = e.rest.y * n;
  c.gradient[2] = e.rest.z * n;
  c.gradient[3] = e.rest.w * n;
  return c;
}

#endif  // WEFT_ELEMENTS_CONTACT_PAIR_H
