// What every condition-based element kind shares. A kind describes itself by up to
// WEFT_MAX_CONDITIONS conditions C_c(x) over its (up to four) particles, each with a stiffness
// k_c, so that its energy is E = sum_c k_c / 2 C_c^2 (Baraff & Witkin 1998, section 3). From the
// conditions and their gradients alone follow, written once here for every kind:
//   the force          f_n = -sum_c (k_c C_c + d k_c dC_c/dt) grad_n C_c,   dC/dt = sum_m grad_m C . v_m
//   the Jacobian       K_nm = sum_c k_c grad_n C_c grad_m C_c^T
//                      (the Gauss-Newton part of -df/dx: the term k_c C_c hess C_c is dropped, which
//                      keeps K positive semi-definite for CG and is exact where C_c = 0)
//   the damping block  D_nm = d K_nm (stiffness-proportional, d in seconds)
//   the projection     dx_n = -w_n grad_n C_c C_c / (sum_m w_m |grad_m C_c|^2 + 1 / (k_c h^2))
//                      (one XPBD step from zero multiplier: compliance in physical units)
// Included inside shaders/physics.h (its WEFT_FN macros and, in C++, its namespace).
#ifndef WEFT_ELEMENTS_CONDITIONS_H
#define WEFT_ELEMENTS_CONDITIONS_H

struct Conditions {
  uint count;                                   // conditions in use, 0..WEFT_MAX_CONDITIONS
  float value[WEFT_MAX_CONDITIONS];             // C_c (units of sqrt(energy / stiffness))
  float stiffness[WEFT_MAX_CONDITIONS];         // k_c
  vec3 gradient[4 * WEFT_MAX_CONDITIONS];       // gradient[4 c + n] = dC_c / dx_n
};

WEFT_FN Conditions noConditions() {
  Conditions c;
  c.count = 0u;
  for (int k = 0; k < WEFT_MAX_CONDITIONS; ++k) {
    c.value[k] = 0.0f;
    c.stiffness[k] = 0.0f;
    for (int n = 0; n < 4; ++n) c.gradient[4 * k + n] = vec3(0.0f);
  }
  return c;
}

// sum_m grad_m C_c . u_m: the rate of change of condition c along the node vectors u.
WEFT_FN float conditionRate(Conditions c, uint k, vec3 u0, vec3 u1, vec3 u2, vec3 u3) {
  return dot(c.gradient[4u * k], u0) + dot(c.gradient[4u * k + 1u], u1) + dot(c.gradient[4u * k + 2u], u2) +
         dot(c.gradient[4u * k + 3u], u3);
}

// Elastic and damping force on node `slot`.
WEFT_FN vec3 conditionForce(Conditions c, uint slot, float damping, vec3 v0, vec3 v1, vec3 v2, vec3 v3) {
  vec3 f = vec3(0.0f);
  for (uint k = 0u; k < c.count; ++k) {
    float magnitude = c.stiffness[k] * (c.value[k] + damping * conditionRate(c, k, v0, v1, v2, v3));
    f -= magnitude * c.gradient[4u * k + slot];
  }
  return f;
}

// Row `slot` of (scale K) u: with scale = h d + h^2 it is the element's part of the implicit
// system's product (h D + h^2 K) u; with scale = 1 it is K u.
WEFT_FN vec3 conditionProduct(Conditions c, uint slot, float scale, vec3 u0, vec3 u1, vec3 u2, vec3 u3) {
  vec3 q = vec3(0.0f);
  for (uint k = 0u; k < c.count; ++k)
    q += (scale * c.stiffness[k] * conditionRate(c, k, u0, u1, u2, u3)) * c.gradient[4u * k + slot];
  return q;
}

// The diagonal block scale K_nn of node `slot` (the preconditioner's share).
WEFT_FN mat3 conditionDiagonal(Conditions c, uint slot, float scale) {
  mat3 block = mat3(0.0f);
  for (uint k = 0u; k < c.count; ++k) {
    vec3 g = c.gradient[4u * k + slot];
    block += (scale * c.stiffness[k]) * outerProduct(g, g);
  }
  return block;
}

// A bound on the off-diagonal blocks of scale K in node `slot`'s row: sum over the conditions of
// scale k |dC/dx_slot| sum_(n != slot) |dC/dx_n| (the norm of k g_slot g_n^T is k |g_slot| |g_n|).
// Half of it added to a block-Jacobi diagonal D makes 2D - K positive semi-definite (a Gershgorin
// argument: |y^T O y| <= sum_i bound_i |y_i|^2), so Jacobi sweeps converge however the element's
// nodes couple; without it three- and four-node elements stiffer than the masses' m/h^2 make
// them diverge. Unused slots have zero gradients and add nothing.
WEFT_FN float conditionCouplingBound(Conditions c, uint slot, float scale) {
  float bound = 0.0f;
  for (uint k = 0u; k < c.count; ++k) {
    float others = 0.0f;
    for (uint n = 0u; n < 4u; ++n)
      if (n != slot) others += length(c.gradient[4u * k + n]);
    bound += scale * c.stiffness[k] * length(c.gradient[4u * k + slot]) * others;
  }
  return bound;
}

// Position correction of node `slot` (inverse masses w), each condition projected once from a zero
// multiplier with compliance 1 / (k h^2): stiff conditions are met, soft ones move in proportion.
WEFT_FN vec3 conditionProjection(Conditions c, uint slot, float w0, float w1, float w2, float w3, float h) {
  float wSlot = slot == 0u ? w0 : (slot == 1u ? w1 : (slot == 2u ? w2 : w3));
  vec3 dx = vec3(0.0f);
  if (wSlot == 0.0f) return dx;
  for (uint k = 0u; k < c.count; ++k) {
    vec3 g0 = c.gradient[4u * k], g1 = c.gradient[4u * k + 1u], g2 = c.gradient[4u * k + 2u], g3 = c.gradient[4u * k + 3u];
    float denominator = w0 * dot(g0, g0) + w1 * dot(g1, g1) + w2 * dot(g2, g2) + w3 * dot(g3, g3);
    if (c.stiffness[k] > 0.0f) denominator += 1.0f / (c.stiffness[k] * h * h);
    if (denominator > 1e-20f) dx -= (wSlot * c.value[k] / denominator) * c.gradient[4u * k + slot];
  }
  return dx;
}

#endif  // WEFT_ELEMENTS_CONDITIONS_H
