// Co-rotational linear membrane (Etzmuss, Keckeisen & Strasser 2003; Mueller & Gross 2004; seed
// 002's "A Co-Rotational Method"): linear elasticity of a triangle in the frame that rotates with
// it. With the deformation's columns [w_u w_v] = F = [dx1 dx2] M as the Baraff-Witkin membrane's
// (membrane.h; rest = M, shape.x = the rest area A), the polar decomposition F = R S gives the
// rotation R (3 x 2, orthonormal columns) and the stretch S = sqrt(F^T F) (2 x 2, symmetric), and
// the energy of plane-stress linear elasticity in the rotated frame,
//   E = A (mu |S - I|^2 + lambda/2 tr^2 (S - I)),
// falls apart into three conditions (k in N/m: stiffness0 = lambda + mu, stiffness1 = mu):
//   C_0 = sqrt(A) (S_uu + S_vv - 2)   area,   k = lambda + mu
//   C_1 = sqrt(A) (S_uu - S_vv)       shear,  k = mu
//   C_2 = sqrt(A) 2 S_uv              shear,  k = mu
// Their gradients are taken with R held fixed (S = R^T F): for this energy that is the exact
// gradient, P = 2 mu (F - R) + lambda tr(S - I) R (McAdams et al. 2011), so forces, Jacobians and
// projections follow from the conditions as for every kind. A rigid motion leaves S = I: no force.
// Included by elements.h.
#ifndef WEFT_ELEMENTS_COROTATIONAL_H
#define WEFT_ELEMENTS_COROTATIONAL_H

WEFT_FN Conditions corotationalConditions(Element e, vec3 x0, vec3 x1, vec3 x2) {
  Conditions c = noConditions();
  vec3 dx1 = x1 - x0, dx2 = x2 - x0;
  float du1 = e.rest.x, du2 = e.rest.z;  // d w_u / d x1, d w_u / d x2 (membrane.h)
  float dv1 = e.rest.y, dv2 = e.rest.w;  // d w_v / d x1, d w_v / d x2
  vec3 wu = dx1 * du1 + dx2 * du2;
  vec3 wv = dx1 * dv1 + dx2 * dv2;
  // S = sqrt(C), C = F^T F = [[a, b], [b, d]]: with s = sqrt(det C) = |w_u x w_v| (det S) and
  // t = sqrt(tr C + 2 s), S = (C + s I) / t.
  float a = dot(wu, wu), b = dot(wu, wv), d = dot(wv, wv);
  float s = length(cross(wu, wv));
  if (s < 1e-12f) return c;  // a collapsed triangle has no rotation to measure in
  float t = sqrt(a + d + 2.0f * s);
  float suu = (a + s) / t, suv = b / t, svv = (d + s) / t;
  // R = F S^-1, S^-1 = [[svv, -suv], [-suv, suu]] / det S, det S = s.
  vec3 ru = (svv * wu - suv * wv) / s;
  vec3 rv = (suu * wv - suv * wu) / s;
  float root = sqrt(e.shape.x);
  c.count = 3u;
  // Each condition's gradient with respect to (w_u, w_v), then through w to the nodes.
  vec3 gu[3];
  vec3 gv[3];
  c.value[0] = root * (suu + svv - 2.0f);
  c.stiffness[0] = e.stiffness0;
  gu[0] = root * ru;
  gv[0] = root * rv;
  c.value[1] = root * (suu - svv);
  c.stiffness[1] = e.stiffness1;
  gu[1] = root * ru;
  gv[1] = -root * rv;
  c.value[2] = root * 2.0f * suv;
  c.stiffness[2] = e.stiffness1;
  gu[2] = root * rv;
  gv[2] = root * ru;
  for (int k = 0; k < 3; ++k) {
    vec3 g1 = du1 * gu[k] + dv1 * gv[k];
    vec3 g2 = du2 * gu[k] + dv2 * gv[k];
    c.gradient[4 * k] = -(g1 + g2);
    c.gradient[4 * k + 1] = g1;
    c.gradient[4 * k + 2] = g2;
  }
  return c;
}

#endif  // WEFT_ELEMENTS_COROTATIONAL_H
