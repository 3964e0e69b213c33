// Trispring: a triangle's three edges as one spring element whose stiffnesses come from an isotropic
// membrane's moduli (Delingette 2008, "Triangular springs for modeling nonlinear membranes"). Edge k
// is opposite node k and runs from node k+1 to node k+2, with rest length L_k and current length l_k.
// For a linear triangle the strain is a sum over its edges (g_i = grad N_i, the rest shape
// functions' gradients; edge k joins nodes i and j):
//   E = -1/2 sum_k L_k (l_k - L_k) (g_i g_j^T + g_j g_i^T)
// (Delingette's identity with l_k^2 - L_k^2 taken to first order, as 2 L_k (l_k - L_k): springs
// quadratic in the length changes, whose conditions stay near-linear for projections), and the
// plane-stress energy A (mu tr E^2 + lambda/2 tr^2 E) falls apart into three modes, the conditions:
//   C_0 = sqrt(A) tr E          area,  k = lambda + mu = Y / (2 (1 - nu))   (stiffness0)
//   C_1 = sqrt(A) (Exx - Eyy)   shear, k = mu = Y / (2 (1 + nu))            (stiffness1)
//   C_2 = sqrt(A) 2 Exy         shear, k = mu
// each a weighted sum of the three edges' length changes. The frame (x along edge 2, node 0 to 1)
// only splits the shear between C_1 and C_2; their sum, and so the energy, does not depend on it.
// Rest: rest = (L0, L1, L2, A), shape.xy = (p, q), node 2's rest position in that frame (node 0 at
// the origin, node 1 at (L2, 0)). Included by elements.h.
#ifndef WEFT_ELEMENTS_TRISPRING_H
#define WEFT_ELEMENTS_TRISPRING_H

// The three conditions' weights on edge k's measure L_k (l_k - L_k), from the gradients g_i, g_j of
// its end nodes: -(g_i . g_j, g_i.x g_j.x - g_i.y g_j.y, g_i.x g_j.y + g_i.y g_j.x), times sqrt(A).
// (Plain floats: vec2 is not in the vocabulary shared with C++.)
WEFT_FN vec3 trispringWeights(float gix, float giy, float gjx, float gjy, float rootArea) {
  return -rootArea * vec3(gix * gjx + giy * gjy, gix * gjx - giy * gjy, gix * gjy + giy * gjx);
}

WEFT_FN Conditions trispringConditions(Element e, vec3 x0, vec3 x1, vec3 x2) {
  Conditions c = noConditions();
  float a = e.rest.z, p = e.shape.x, q = e.shape.y, twiceArea = 2.0f * e.rest.w;
  // g_i = J (P_(i+2) - P_(i+1)) / 2A, J the quarter turn: grad N_i points from the opposite edge to
  // node i. g0 = (-q, p - a) / 2A, g1 = (q, -p) / 2A, g2 = (0, a) / 2A.
  float g0x = -q / twiceArea, g0y = (p - a) / twiceArea, g1x = q / twiceArea, g1y = -p / twiceArea;
  float g2x = 0.0f, g2y = a / twiceArea;
  float rootArea = sqrt(e.rest.w);
  vec3 w0 = trispringWeights(g1x, g1y, g2x, g2y, rootArea);  // edge 0: nodes 1, 2
  vec3 w1 = trispringWeights(g2x, g2y, g0x, g0y, rootArea);  // edge 1: nodes 2, 0
  vec3 w2 = trispringWeights(g0x, g0y, g1x, g1y, rootArea);  // edge 2: nodes 0, 1
  vec3 d0 = x2 - x1, d1 = x0 - x2, d2 = x1 - x0;
  float l0 = length(d0), l1 = length(d1), l2 = length(d2);
  if (l0 < 1e-12f || l1 < 1e-12f || l2 < 1e-12f) return c;  // a collapsed edge has no direction
  // Each edge's measure m_k = L_k (l_k - L_k) and its gradient L_k u_k at node k+2 (minus at k+1).
  float m0 = e.rest.x * (l0 - e.rest.x), m1 = e.rest.y * (l1 - e.rest.y), m2 = e.rest.z * (l2 - e.rest.z);
  vec3 u0 = (e.rest.x / l0) * d0, u1 = (e.rest.y / l1) * d1, u2 = (e.rest.z / l2) * d2;
  c.count = 3u;
  for (uint k = 0u; k < 3u; ++k) {
    c.value[k] = w0[k] * m0 + w1[k] * m1 + w2[k] * m2;
    c.stiffness[k] = k == 0u ? e.stiffness0 : e.stiffness1;
    c.gradient[4u * k] = w1[k] * u1 - w2[k] * u2;       // node 0 ends edge 1, starts edge 2
    c.gradient[4u * k + 1u] = w2[k] * u2 - w0[k] * u0;  // node 1 ends edge 2, starts edge 0
    c.gradient[4u * k + 2u] = w0[k] * u0 - w1[k] * u1;  // node 2 ends edge 0, starts edge 1
  }
  return c;
}

#endif  // WEFT_ELEMENTS_TRISPRING_H
