// Bending by the face angle (dihedral angle) across an interior edge, the discrete-shells energy
// (Grinspun et al. 2003; gradient as Bridson et al. 2003's bending modes). Nodes: the edge
// (x0, x1) and the wing tips x2 (triangle x0 x1 x2, wound as the cloth) and x3 (triangle x1 x0 x3).
// With N1 = e x (x2 - x0), N2 = (x3 - x0) x e, e = x1 - x0, the signed angle between the normals is
//   theta = atan2((n1 x n2) . e/|e|, n1 . n2),
// and the single condition C = sqrt(s) (theta - theta0), s = |e|^2 / (A1 + A2) from the rest
// state (rest = (theta0, s)), stiffness0 = the bending modulus B (N m). The energy
// B/2 s (theta - theta0)^2 is the discrete form of B/2 kappa^2 over the two triangles: discrete
// shells' 3 |e|^2 / (A1 + A2) divided by 3, the constant that makes a regular grid bent into a
// cylinder of radius R store B A / (2 R^2) (tests/test_elements.cpp), so the same B bends alike at
// any resolution. Included by elements.h.
#ifndef WEFT_ELEMENTS_HINGE_H
#define WEFT_ELEMENTS_HINGE_H

#define WEFT_PI 3.14159265358979f

WEFT_FN float dihedralAngle(vec3 x0, vec3 x1, vec3 x2, vec3 x3) {
  vec3 e = x1 - x0;
  vec3 n1 = cross(e, x2 - x0), n2 = cross(x3 - x0, e);
  float le = length(e);
  if (le < 1e-12f) return 0.0f;
  return atan(dot(cross(n1, n2), e) / le, dot(n1, n2));
}

WEFT_FN Conditions hingeConditions(Element e, vec3 x0, vec3 x1, vec3 x2, vec3 x3) {
  Conditions c = noConditions();
  vec3 edge = x1 - x0;
  vec3 n1 = cross(edge, x2 - x0), n2 = cross(x3 - x0, edge);
  float le = length(edge), a1 = dot(n1, n1), a2 = dot(n2, n2);
  if (le < 1e-12f || a1 < 1e-24f || a2 < 1e-24f) return c;  // a collapsed wing has no angle
  float angle = atan(dot(cross(n1, n2), edge) / le, dot(n1, n2)) - e.rest.x;
  if (angle > WEFT_PI) angle -= 2.0f * WEFT_PI;  // the shorter way round
  if (angle < -WEFT_PI) angle += 2.0f * WEFT_PI;
  float root = sqrt(e.rest.y);
  vec3 m1 = n1 / a1, m2 = n2 / a2;
  c.count = 1u;
  c.value[0] = root * angle;
  c.stiffness[0] = e.stiffness0;
  c.gradient[0] = -root * ((dot(edge, x2 - x1) / le) * m1 + (dot(edge, x3 - x1) / le) * m2);
  c.gradient[1] = root * ((dot(edge, x2 - x0) / le) * m1 + (dot(edge, x3 - x0) / le) * m2);
  c.gradient[2] = (-root * le) * m1;
  c.gradient[3] = (-root * le) * m2;
  return c;
}

#endif  // WEFT_ELEMENTS_HINGE_H
