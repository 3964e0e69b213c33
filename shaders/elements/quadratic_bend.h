// Quadratic (isometric) bending across an interior edge, after Bergou, Wardetzky, Harmon, Zorin &
// Grinspun 2006 ("A Quadratic Bending Model for Inextensible Surfaces"): for a surface that bends
// without stretching, bending energy is quadratic in the positions, E = 1/2 k |sum_n K_n x_n|^2,
// with weights K_n fixed by the flat rest state. Its Hessian k K K^T (x) I is constant, so the
// implicit solvers' blocks are exact at any fold, not only near rest.
// Nodes as the dihedral hinge's (hinge.h): the edge (x0, x1), the tip x2 of triangle 1 (x0 x1 x2)
// and the tip x3 of triangle 2 (x1 x0 x3). The weights (rest) are the affine dependency of the four
// flat rest points: x3 in barycentric coordinates of triangle 1, K = (l0, l1, l2, -1) / h_3 with h_3
// the tip's height over the edge. Sum K_n = 0 and sum K_n x_n = 0 for any affine image of the rest
// state, so rigid motions and in-plane stretch cost nothing; folding either tip about the edge by a
// small angle theta gives |sum K_n x_n| = theta (|K_3| h_3 = |K_2| h_2 = 1). The stiffness is the
// dihedral's B s (s = |e|^2 / (A1 + A2)): the same modulus B stores the same energy for small folds.
// Three conditions, one per axis: C_a = sum_n K_n x_n . e_a. Included by elements.h.
#ifndef WEFT_ELEMENTS_QUADRATIC_BEND_H
#define WEFT_ELEMENTS_QUADRATIC_BEND_H

WEFT_FN Conditions quadraticBendConditions(Element e, vec3 x0, vec3 x1, vec3 x2, vec3 x3) {
  Conditions c = noConditions();
  vec3 curvature = e.rest.x * x0 + e.rest.y * x1 + e.rest.z * x2 + e.rest.w * x3;
  c.count = 3u;
  for (int a = 0; a < 3; ++a) {
    vec3 axis = vec3(0.0f);
    axis[a] = 1.0f;
    c.value[a] = curvature[a];
    c.stiffness[a] = e.stiffness0;
    c.gradient[4 * a] = e.rest.x * axis;
    c.gradient[4 * a + 1] = e.rest.y * axis;
    c.gradient[4 * a + 2] = e.rest.z * axis;
    c.gradient[4 * a + 3] = e.rest.w * axis;
  }
  return c;
}

#endif  // WEFT_ELEMENTS_QUADRATIC_BEND_H
