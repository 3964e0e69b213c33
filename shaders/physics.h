// The per-particle physics, written once in the common subset of GLSL and C++ (GLM): the GPU
// kernels and the CPU backend call these same functions, so the two backends differ only by
// floating-point rounding. Pure functions of values: no buffer access here.
#ifndef WEFT_PHYSICS_H
#define WEFT_PHYSICS_H

#include "shared.h"

WEFT_GPU_BEGIN

WEFT_FN vec3 xyz(vec4 v) { return vec3(v.x, v.y, v.z); }

// Seed 004's bounded spring force: with a bound (maxLength > 0), the deformation the force sees is
// clamped to [minLength, maxLength] - L, so the force stops growing past the limit: it is capped, the
// spring is not held (past the limit it is softer, not stiffer). The length l's response (e, a): e the
// deformation the force acts on, a = de/dl, 1 inside the bound and 0 where it clamps.
WEFT_FN vec2 springResponse(float len, float restLength, StrainLimit bound) {
  float e = len - restLength;
  if (bound.maxLength <= 0.0f) return vec2(e, 1.0f);
  if (len > bound.maxLength) return vec2(bound.maxLength - restLength, 0.0f);
  if (len < bound.minLength) return vec2(bound.minLength - restLength, 0.0f);
  return vec2(e, 1.0f);
}

// The spring's stiffness factors (axial, transverse) for S = -df_i/dx_i = k (axial n n^T +
// transverse (I - n n^T)): axial = a, transverse = max(0, e / l), both from springResponse. Without a
// bound that is k (n n^T + (1 - L/l)(I - n n^T)); the transverse term is dropped for a compressed
// spring (e < 0), which keeps S positive semi-definite and the implicit system solvable by CG
// (seed 002's "drop the term"); a clamped spring keeps only its transverse term, also >= 0.
WEFT_FN vec2 springStiffnessFactors(float len, float restLength, StrainLimit bound) {
  vec2 r = springResponse(len, restLength, bound);
  // Inside the bound 1 - L/l, written as before bounds existed so unbounded springs keep every bit.
  float transverse = r.y > 0.0f ? 1.0f - restLength / len : r.x / len;
  return vec2(r.y, transverse > 0.0f ? transverse : 0.0f);
}

// Seed 004's spring force on endpoint i: f_i = -[ks e + kd (v_i - v_j).d/|d|] d/|d|, d = x_i - x_j,
// e = |d| - L, or its clamp where the spring's force is bounded (springResponse).
WEFT_FN vec3 springForce(vec3 xi, vec3 vi, vec3 xj, vec3 vj, SpringEntry s, StrainLimit bound) {
  vec3 d = xi - xj;
  float len = length(d);
  if (len < 1e-9f) return vec3(0.0f);  // coincident endpoints: no direction to push along
  vec3 n = d / len;
  float magnitude = s.stiffness * springResponse(len, s.restLength, bound).x + s.damping * dot(vi - vj, n);
  return -magnitude * n;
}

// Global air drag relative to the wind: f = -c (v - w). wind.w holds c (kg/s).
WEFT_FN vec3 dragForce(vec3 v, vec4 wind) { return -wind.w * (v - xyz(wind)); }

// Seed 003's distance-constraint correction of endpoint i: it moves by its inverse-mass share of
// `stiffness` times the length error, along the spring. Zero when both ends are pinned.
WEFT_FN vec3 distanceCorrection(vec3 xi, float wi, vec3 xj, float wj, float restLength, float stiffness) {
  vec3 d = xi - xj;
  float len = length(d);
  float wsum = wi + wj;
  if (len < 1e-9f || wsum <= 0.0f) return vec3(0.0f);
  float difference = (restLength - len) / len;
  return d * (wi / wsum) * stiffness * difference;
}

// The spring's stiffness block S = -df_i/dx_i (factors: springStiffnessFactors).
WEFT_FN mat3 springStiffnessBlock(vec3 xi, vec3 xj, SpringEntry s, StrainLimit bound) {
  vec3 d = xi - xj;
  float len = length(d);
  if (len < 1e-9f) return mat3(0.0f);
  vec3 n = d / len;
  mat3 nn = outerProduct(n, n);
  vec2 f = springStiffnessFactors(len, s.restLength, bound);
  return s.stiffness * (f.x * nn + f.y * (mat3(1.0f) - nn));
}

// The spring's damping block D = -df_i/dv_i = c n n^T (the damping force acts along the axis).
WEFT_FN mat3 springDampingBlock(vec3 xi, vec3 xj, SpringEntry s) {
  vec3 d = xi - xj;
  float len = length(d);
  if (len < 1e-9f) return mat3(0.0f);
  vec3 n = d / len;
  return s.damping * outerProduct(n, n);
}

// The spring's block of the implicit system, a D + a l S = beta n n^T + gamma I, in compact form
// (sqrt(beta) n, gamma): beta = a c + a l k (axial - t), gamma = a l k t (axial, t as in
// springStiffnessFactors), with a = forceTime and l = stiffnessTime of SolveParams (a = l = h:
// implicit Euler's h D + h^2 S; l = 0: the damping block alone). Built once per step; a product with
// it is then a dot and two scaled adds instead of two 3x3 matrices rebuilt per iteration. gamma >= 0;
// beta is floored at 0: a spring clamped in stretch (axial 0, t > 0) has an exact block
// a c n n^T + a l k t (I - n n^T), whose beta a c - a l k t may be negative, and then keeps
// a l k t along its axis too (the clamp's softening is taken explicitly, through the force). So the
// block is always positive semi-definite and CG keeps working.
WEFT_FN vec4 springSystemBlock(vec3 xi, vec3 xj, SpringEntry s, StrainLimit bound, float forceTime, float stiffnessTime) {
  vec3 d = xi - xj;
  float len = length(d);
  if (len < 1e-9f) return vec4(0.0f);
  vec3 n = d / len;
  vec2 f = springStiffnessFactors(len, s.restLength, bound);
  float stiffnessWeight = forceTime * stiffnessTime;
  float beta = forceTime * s.damping + stiffnessWeight * s.stiffness * (f.x - f.y);
  beta = beta > 0.0f ? beta : 0.0f;
  vec3 m = sqrt(beta) * n;
  return vec4(m.x, m.y, m.z, stiffnessWeight * s.stiffness * f.y);
}

WEFT_FN vec3 applySystemBlock(vec4 block, vec3 u) { return xyz(block) * dot(xyz(block), u) + block.w * u; }

WEFT_FN mat3 systemBlockMatrix(vec4 block) { return outerProduct(xyz(block), xyz(block)) + block.w * mat3(1.0f); }

// Baraff & Witkin's filter: removes the constrained directions of a vector (constraint.w: WEFT_FILTER_*).
WEFT_FN vec3 applyFilter(vec4 constraint, vec3 v) {
  if (constraint.w >= WEFT_FILTER_PINNED) return vec3(0.0f);
  if (constraint.w >= WEFT_FILTER_CONTACT) return v - dot(v, xyz(constraint)) * xyz(constraint);
  return v;
}

// Chebyshev semi-iterative acceleration (Wang 2015): y_{k+1} = omega (jacobi(y_k) - y_{k-1}) + y_{k-1}.
WEFT_FN vec3 chebyshevBlend(vec3 jacobi, vec3 beforeLast, float omega) {
  return omega * (jacobi - beforeLast) + beforeLast;
}

// Nesterov's momentum for Jacobi pass `pass` (0 the first), which makes x_k = jacobi(y_(k-1)) with
// k = pass + 1: `fixedMomentum` when it is >= 0, else the schedule beta_k = (k - 1) / (k + 2), which needs
// no estimate of the iteration's spectrum. The first pass has no x_(k-1) to extrapolate from: 0.
WEFT_FN float nesterovMomentum(uint pass, float fixedMomentum) {
  if (pass == 0u) return 0.0f;
  return fixedMomentum >= 0.0f ? fixedMomentum : float(pass) / float(pass + 3u);
}

// One accelerated Jacobi iterate from the plain one, jacobi = jacobi(y_k), for either accelerator
// (the next pass reads y_(k+1); each particle reads only its own beforeLast and lastJacobi):
//   Chebyshev: y_(k+1) = omega (jacobi - y_(k-1)) + y_(k-1),          weight = omega (1: none)
//   Nesterov:  y_(k+1) = x_(k+1) + beta (x_(k+1) - x_k), x_(k+1) = jacobi,  weight = beta (0: none)
// Nesterov keeps x_(k+1) (the caller stores `jacobi`) where Chebyshev keeps only the y's.
WEFT_FN vec3 accelerate(vec3 jacobi, vec3 beforeLast, vec3 lastJacobi, float weight, bool nesterov) {
  if (nesterov) return weight == 0.0f ? jacobi : jacobi + weight * (jacobi - lastJacobi);
  return weight == 1.0f ? jacobi : chebyshevBlend(jacobi, beforeLast, weight);
}

// Verlet's velocity without cancellation: v = (x - x_prev) / dt computed from float positions far
// from the origin loses ulp(x) / dt per step, and those errors integrate into a drift of n^2 ulp(x)
// (7 cm after 1 s at 100 m). The step's velocity is carried instead, and each pass that moves a
// particle from `before` to `after` adds that move / dt: the difference of two nearby floats is
// exact, so the carried v differs from the true (x - x_prev) / dt only by the rounding of x itself.
WEFT_FN vec3 carryCorrection(vec3 v, vec3 after, vec3 before, float dt) { return v + (after - before) / dt; }

#include "grid_stencil.h"
#include "elements.h"
#include "xpbd.h"
#include "strain_limit.h"
#include "tearing.h"
#include "contact.h"
#include "colliders.h"  // after contact.h: a mesh collider's triangles use its point-triangle geometry
#include "handles.h"

WEFT_GPU_END

#endif  // WEFT_PHYSICS_H
