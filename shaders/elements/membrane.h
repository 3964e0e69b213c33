// Triangle membrane: Baraff & Witkin's (1998, section 4.2) stretch and shear conditions on the
// rest-state (u, v) parameterisation. Nodes (x0, x1, x2); with dx1 = x1 - x0, dx2 = x2 - x0 the
// deformation's columns are
//   [w_u w_v] = [dx1 dx2] M,   M = [[du1 du2], [dv1 dv2]]^-1   (rest: rest = (M00, M01, M10, M11))
// and the conditions, scaled by the square root of the rest area A (shape.x) so the stiffnesses are
// moduli per unit area (N/m) and a refined mesh stores the same energy:
//   C_u = sqrt(A) (|w_u| - 1)   warp stretch, k = stiffness0
//   C_v = sqrt(A) (|w_v| - 1)   weft stretch, k = stiffness1
//   C_s = sqrt(A) w_u . w_v     shear,        k = shape.y
// A rigid motion keeps |w_u| = |w_v| = 1 and w_u . w_v = 0: no force. Included by elements.h.
#ifndef WEFT_ELEMENTS_MEMBRANE_H
#define WEFT_ELEMENTS_MEMBRANE_H

WEFT_FN Conditions membraneConditions(Element e, vec3 x0, vec3 x1, vec3 x2) {
  Conditions c = noConditions();
  vec3 dx1 = x1 - x0, dx2 = x2 - x0;
  // dw/dx_n is a multiple of the identity: these are the multiples for nodes 1, 2 (node 0: minus their sum).
  float du1 = e.rest.x, du2 = e.rest.z;  // d w_u / d x1, d w_u / d x2
  float dv1 = e.rest.y, dv2 = e.rest.w;  // d w_v / d x1, d w_v / d x2
  vec3 wu = dx1 * du1 + dx2 * du2;
  vec3 wv = dx1 * dv1 + dx2 * dv2;
  float root = sqrt(e.shape.x);
  float lu = length(wu), lv = length(wv);
  vec3 nu = lu > 1e-12f ? wu / lu : vec3(0.0f);
  vec3 nv = lv > 1e-12f ? wv / lv : vec3(0.0f);
  c.count = 3u;
  c.value[0] = root * (lu - 1.0f);
  c.stiffness[0] = e.stiffness0;
  c.gradient[0] = (-root * (du1 + du2)) * nu;
  c.gradient[1] = (root * du1) * nu;
  c.gradient[2] = (root * du2) * nu;
  c.value[1] = root * (lv - 1.0f);
  c.stiffness[1] = e.stiffness1;
  c.gradient[4] = (-root * (dv1 + dv2)) * nv;
  c.gradient[5] = (root * dv1) * nv;
  c.gradient[6] = (root * dv2) * nv;
  c.value[2] = root * dot(wu, wv);
  c.stiffness[2] = e.shape.y;
  c.gradient[8] = root * (-(du1 + du2) * wv - (dv1 + dv2) * wu);
  c.gradient[9] = root * (du1 * wv + dv1 * wu);
  c.gradient[10] = root * (du2 * wv + dv2 * wu);
  return c;
}

#endif  // WEFT_ELEMENTS_MEMBRANE_H
