// The Newton-Chebyshev solve's shared arithmetic, written once for GLSL and C++ like physics.h:
// a spring's block of the system matrix and the scalar logic that opens, checks and stops each
// linear solve. The GPU's scalar pass and the CPU step call the same newtonScalarStep(), so the
// two backends stop their solves by the same rule.
#ifndef WEFT_NEWTON_H
#define WEFT_NEWTON_H

#include "physics.h"

WEFT_GPU_BEGIN

// A spring's block B of A = M/h^2 + (c/h) I + sum_springs B (c: air drag): B = K + D/h, with
// K the stiffness block kept positive semi-definite (compressed springs drop their transverse
// term) and D/h the derivative of the axial damping force through v = (x - x0)/h (the derivative
// of the axis direction is dropped, as Baraff & Witkin do). A_ij = -B for the spring's other end.
WEFT_FN mat3 newtonSpringBlock(vec3 xi, vec3 xj, SpringEntry s, StrainLimit bound, float h) {
  return springStiffnessBlock(xi, xj, s, bound) + (1.0f / h) * springDampingBlock(xi, xj, s);
}

// The same block in the form the Jacobi sweeps read, 16 bytes a spring entry: B = u u^T + beta I.
// K = k (a - t) n n^T + k t I (a, t: springStiffnessFactors; unbounded, a = 1 and t = max(0, 1 - L/l))
// and D/h = (c/h) n n^T, so u = sqrt(alpha) n with alpha = k (a - t) + c/h, and beta = k t: implicit
// CG's system block (springSystemBlock, physics.h) with the force's time 1/h and the stiffness's h,
// whose floor of alpha at 0 keeps a spring clamped by its force bound at k t along its axis and the
// block positive semi-definite. Built once per Newton iteration: every sweep of the solve reuses it
// instead of rebuilding the block (a square root, a division and two outer products per spring, the
// bulk of a matrix-free sweep's work).
WEFT_FN vec4 newtonCoupling(vec3 xi, vec3 xj, SpringEntry s, StrainLimit bound, float h) {
  return springSystemBlock(xi, xj, s, bound, 1.0f / h, h);
}

// A coupling has implicit CG's system block form (u u^T + beta I), so the sweeps apply it with
// applySystemBlock and the gradient pass sums it with systemBlockMatrix (physics.h).

// A symmetric 3x3 matrix in two vec4: (m00, m11, m22, m01) and (m02, m12, extra, 0).
WEFT_FN vec4 symmetricDiagonal(mat3 m) { return vec4(m[0][0], m[1][1], m[2][2], m[1][0]); }
WEFT_FN vec4 symmetricRest(mat3 m, float extra) { return vec4(m[2][0], m[2][1], extra, 0.0f); }
WEFT_FN vec3 symmetricProduct(vec4 a, vec4 b, vec3 y) {
  return vec3(a.x * y.x + a.w * y.y + b.x * y.z, a.w * y.x + a.y * y.y + b.y * y.z, b.x * y.x + b.y * y.y + a.z * y.z);
}

// The Jacobi step of a Nesterov sweep, y + s D^-1 r with s = 1/2. Momentum beta amplifies every
// mode the plain step multiplies by mu < -1 / (1 + 2 beta), and block Jacobi of these systems has
// mu down to nearly -1 (D^-1 A's eigenvalues reach towards 2, 2D - A being positive definite: the
// checkerboard modes of a stiff grid), so a full step diverges for any momentum. Half a step maps
// mu into (0, 1), where any beta in [0, 1) is stable (Nesterov's step 1/L, L = 2 bounding the
// spectrum). Chebyshev's polynomial is symmetric about 0 and needs no such damping.
#define WEFT_NESTEROV_JACOBI_STEP 0.5f
WEFT_FN float newtonJacobiStep(uint nesterov) { return nesterov != 0u ? WEFT_NESTEROV_JACOBI_STEP : 1.0f; }

// |r| / |b_first|: every solve of a step is measured against the step's first right-hand side,
// so a later Newton iteration whose correction is already that small costs no Jacobi iteration.
WEFT_FN float newtonRelative(NewtonScalars s, float norm2) {
  return s.rhsNorm2First > 0.0f ? sqrt(max(norm2, 0.0f) / s.rhsNorm2First) : 0.0f;
}

WEFT_FN void newtonStop(WEFT_INOUT(NewtonScalars) s, float relative, bool reached) {
  s.stopped = 1u;
  s.worstResidual = max(s.worstResidual, relative);
  if (!reached) s.stepConverged = 0u;
}

// One scalar pass. WEFT_NEWTON_BEGIN: `norm2` = |b|^2 of Newton iteration `newtonIteration`, the
// residual of the solve's start y_0 = 0. WEFT_NEWTON_CHECK, after WEFT_NEWTON_CHECK_INTERVAL more
// sweeps: `norm2` = |r_j|^2 of the iterate the last sweep read (that sweep also wrote y_(j+1),
// which a stopped solve leaves unused: its answer is the measured y_j). `iterations` counts
// sweeps, so the cap is checked in whole intervals. Returns true when this call stopped the solve.
WEFT_FN bool newtonScalarStep(WEFT_INOUT(NewtonScalars) s, uint mode, float norm2, float tolerance,
                              uint maxIterations, uint newtonIteration) {
  if (mode == WEFT_NEWTON_BEGIN) {
    if (newtonIteration == 0u) {
      s.rhsNorm2First = norm2;
      s.stepIterations = 0u;
      s.worstResidual = 0.0f;
      s.stepConverged = 1u;
    }
    s.iterations = 0u;
    s.stopped = 0u;
  } else {
    if (s.stopped != 0u) return false;
    s.iterations += uint(WEFT_NEWTON_CHECK_INTERVAL);
    s.stepIterations += uint(WEFT_NEWTON_CHECK_INTERVAL);
  }
  s.residualNorm2 = norm2;
  float relative = newtonRelative(s, norm2);
  if (relative <= tolerance) {
    newtonStop(s, relative, true);
    return true;
  }
  if (s.iterations >= maxIterations) {
    newtonStop(s, relative, false);
    return true;
  }
  return false;
}

// Which iterate a stopped solve answers with: y_0 when it stopped before any sweep, else the one
// its last sweep measured. Even indices live in the WEFT_BIND_NEWTON_DX buffer of the first sweep.
WEFT_FN uint newtonAnswer(NewtonScalars s) { return s.iterations > 0u ? s.iterations - 1u : 0u; }

WEFT_GPU_END

#endif  // WEFT_NEWTON_H
