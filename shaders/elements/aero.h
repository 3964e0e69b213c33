// Per-triangle aerodynamics (seed 001's "aerodynamic drag" made directional, as in Keckeisen et
// al. 2004): the triangle moves at the mean of its corners' velocities, u = v - wind relative to the
// air; n is its unit normal turned to face u, A its area, cos = n . u/|u|. Then
//   drag  f_D = -(rho C_D / 2) A cos |u|^2 u/|u|              (along -u, on the projected area)
//   lift  f_L = -(rho C_L / 2) A cos |u|^2 (n - cos u/|u|)   (across u, largest at 45 degrees)
// with stiffness0 = rho C_D / 2 and stiffness1 = rho C_L / 2 (kg/m^3); each corner takes a third.
// |f_L| / |f_D| = (C_L / C_D) cos(angle of attack); edge-on (cos = 0) and in still air both vanish.
// Velocity-driven, not an energy: it has no conditions and every integrator treats it explicitly.
// Included by elements.h.
#ifndef WEFT_ELEMENTS_AERO_H
#define WEFT_ELEMENTS_AERO_H

WEFT_FN vec3 aeroTriangleForce(Element e, vec3 x0, vec3 x1, vec3 x2, vec3 v0, vec3 v1, vec3 v2, vec3 wind) {
  vec3 u = (v0 + v1 + v2) / 3.0f - wind;
  float speed = length(u);
  vec3 areaNormal = 0.5f * cross(x1 - x0, x2 - x0);
  float area = length(areaNormal);
  if (speed < 1e-9f || area < 1e-18f) return vec3(0.0f);
  vec3 along = u / speed;
  vec3 n = areaNormal / area;
  float cosine = dot(n, along);
  if (cosine < 0.0f) {
    n = -n;
    cosine = -cosine;
  }
  float pressure = area * cosine * speed * speed;
  vec3 drag = -(e.stiffness0 * pressure) * along;
  vec3 lift = -(e.stiffness1 * pressure) * (n - cosine * along);
  return (drag + lift) / 3.0f;
}

#endif  // WEFT_ELEMENTS_AERO_H
