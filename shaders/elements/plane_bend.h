// Bending by plane projection across an interior edge (seed 000 names it only): each wing tip's
// signed distance from the plane of the opposite triangle, the height by which it stands off the
// plane it would lie in were the hinge flat. The force pulls each tip towards its projection on that
// plane, along the face normals as in Bridson et al. 2003's bending modes.
// Nodes as the dihedral hinge's (hinge.h): the edge (x0, x1), the tip x2 of triangle 1 (x0 x1 x2)
// and the tip x3 of triangle 2 (x1 x0 x3). The tips' distances
//   d_2 = n(x1, x0, x3) . (x2 - x1),   d_3 = n(x0, x1, x2) . (x3 - x0)
// are both 3 V / A of the tetrahedron x0..x3 (V its volume, A the area of the face each is measured
// from), so d_2 / h_2 = d_3 / h_3 = sin(theta) with h_k the tip's height over the edge: one fold
// seen from either side. The condition is their symmetric mean, one condition (two would be met
// twice over by a projection):
//   C = w_2 (d_2 - d_2rest) + w_3 (d_3 - d_3rest),   w_k = sqrt(s) / (2 h_k) from the rest state,
// s = |e|^2 / (A1 + A2) the dihedral's scale (rest = (d_2rest, d_3rest, w_2, w_3)), stiffness0 =
// the bending modulus B (N m). A hinge folded rigidly by theta stores B/2 s sin^2(theta): the
// dihedral's B/2 s theta^2 to first order, so the same B bends alike (tests/test_plane_bend_trispring.cpp).
// Every gradient lies along a face normal. Included by elements.h.
#ifndef WEFT_ELEMENTS_PLANE_BEND_H
#define WEFT_ELEMENTS_PLANE_BEND_H

// The signed distance of p from the plane of triangle (a, b, c) (its normal wound a b c), and its
// gradient. With q the projection of p - a onto the plane and N = (b - a) x (c - a):
//   dd/dp = n,  dd/db = (c - a) x q / |N|,  dd/dc = q x (b - a) / |N|,  dd/da = -(the other three).
struct PlaneDistance {
  float distance;
  vec3 da, db, dc, dp;
};

WEFT_FN PlaneDistance planeDistance(vec3 a, vec3 b, vec3 c, vec3 p) {
  PlaneDistance r;
  vec3 normal = cross(b - a, c - a);
  float twiceArea = length(normal);
  vec3 n = normal / twiceArea;
  r.distance = dot(n, p - a);
  vec3 q = p - a - r.distance * n;
  r.dp = n;
  r.db = cross(c - a, q) / twiceArea;
  r.dc = cross(q, b - a) / twiceArea;
  r.da = -(r.dp + r.db + r.dc);
  return r;
}

WEFT_FN Conditions planeBendConditions(Element e, vec3 x0, vec3 x1, vec3 x2, vec3 x3) {
  Conditions c = noConditions();
  vec3 edge = x1 - x0;
  float a1 = length(cross(edge, x2 - x0)), a2 = length(cross(x3 - x0, edge));
  if (a1 < 1e-12f || a2 < 1e-12f) return c;  // a collapsed wing has no plane
  PlaneDistance tip2 = planeDistance(x1, x0, x3, x2);  // x2 against triangle 2
  PlaneDistance tip3 = planeDistance(x0, x1, x2, x3);  // x3 against triangle 1
  float w2 = e.rest.z, w3 = e.rest.w;
  c.count = 1u;
  c.value[0] = w2 * (tip2.distance - e.rest.x) + w3 * (tip3.distance - e.rest.y);
  c.stiffness[0] = e.stiffness0;
  c.gradient[0] = w2 * tip2.db + w3 * tip3.da;
  c.gradient[1] = w2 * tip2.da + w3 * tip3.db;
  c.gradient[2] = w2 * tip2.dp + w3 * tip3.dc;
  c.gradient[3] = w2 * tip2.dc + w3 * tip3.dp;
  return c;
}

#endif  // WEFT_ELEMENTS_PLANE_BEND_H
