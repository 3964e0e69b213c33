#pragma once
// Implicit Euler solved by SimCloth3's non-linear conjugate gradient (seed 000), on positions AND
// velocities: M = 2N unknowns (p'_i, v'_i), the residual
//   r_p = (p + v' dt) - p',   r_v = ((v + im f(p', v') dt) - v') k,
// add(d, f): p' += f d_p, v' += (f / k) d_v, with the velocity scale k (s) making both halves
// lengths (m). Matrix-free and without force derivatives: each iteration is one force evaluation.
//
// The listing of the seed, pass for pass: r = residual(); add(r, 1) (one explicit Euler step from
// the current state); then each iteration tests max_i |r_i|^2 < precision, picks d = r (first) or
// d = r + (t / oldt) d, and searches along d by the secant t0 = r.d, add(d, 1), r = residual(),
// t1 = r.d, alpha = -t0 / (t1 - t0), add(d, alpha - 1). Two additions to the listing, both so that
// the test is always of the point returned: after add(r, 1) the residual is re-evaluated, and a
// stale residual (the seed keeps the trial point's) that passes the test is confirmed by one more
// evaluation at the iterate; if it fails, the iteration goes on from the fresh residual.
// Pinned particles have a zero residual (they stay put, at rest); colliders project the converged
// result, as the other integrators' last pass does.
//
// Precision: seed 000 stops when max_i |r_i|^2 < precision; here precision = (k tolerance)^2, so
// the tolerance (m/s) bounds every particle's velocity error and k times it (m) its position
// error, in every step. The reported residual is sqrt(max_i |r_i|^2) / k in m/s: a step converged
// only if residual < tolerance. With SolverParams::relativeTolerance > 0 the precision is also
// relative (nlcg.h, nlcgBegin): every |r_i| below that fraction of the step's explicit move
// max_i |(v dt, a dt k)|, down to 1 % of the absolute one. The absolute test alone accepts a small
// motion's explicit prediction: a 1 mm oscillation keeps 0.099 of its energy after 1 s where
// implicit Euler at the steps taken keeps 0.062; at relativeTolerance 1e-3 it is within 5 %.
// It is off by default because it costs steps: stiff cloth iterates more, and steps that count
// as hard shrink. Position residuals at the rounding of the position itself count as zero.
//
// The velocity scale k (s, default 0.01). In the variables (p', k v') the Jacobian's off-diagonal
// blocks are h/k and k h omega^2 for a spring mode omega: they balance at k = 1/omega, and a larger
// k lets the velocity half amplify what the position half hands it. Measured steps per 1/60 s
// frame on one undamped spring (omega = 1000/s, 1e-3 m/s): 61 at k = 1e-3, 310 at 1e-2, 572 at
// 0.1. On cloth the stiff modes are damped and spread over many omega: with the position
// tolerance held at 1e-6 m, the 8x8 test cloth and test_implicit.cpp's 16x16 one take 17 and 56
// steps per frame at k = 1e-3, 22 and 158 at 1e-2, 76 and 629 at 0.1; a 64x64 one ~1200-1400
// whatever k in [1e-4, 1e-2]. But k times the tolerance is the position tolerance, which must stay
// well above the float resolution of positions (~1e-7 |x|): at the default tolerance of 1e-3 m/s,
// k = 0.01 gives 1e-5 m (1e-3 would give 1e-6 m); there the test cloths take 17 and 56 steps.
//
// The time step adapts (seed 000). A step diverges when max_i |r_i|^2 grows past 1e6 times its
// start value (or the precision, if larger), turns non-finite, the secant turns back (alpha <= 0:
// see nlcgSecant in shaders/nlcg.h), or the iteration cap is reached without convergence; it is
// then retried from the saved state (the current state, untouched: the iterate lives in the output
// buffers) at half the step. After an accepted step the step grows x1.25 (up to the requested one)
// if it took fewer than a quarter of the cap in iterations, shrinks x0.8 if more than three
// quarters. Each frame still advances exactly frameDt: the last step is clamped to land on it.
// One SolveStats per accepted step.
//
// What to expect: the iteration converges only while h omega stays below about 1 for the stiffest
// spring mode omega (less when k is far from 1/omega): whatever k, the linearised system has
// eigenvalues 1 +- i h omega, and past that the search directions lose their conjugacy and the
// error of that mode grows. The adaptive step therefore settles near h ~ 1 / omega_max or below
// (the steps per frame above), retrying about one step in three as it grows back into the limit.
//
// GPU: per step, start, residual, BEGIN (which also tests that first residual), then per
// iteration [direction, residual, SECANT, add, residual, FRESH], then finish; the one-workgroup
// scalar pass (nlcg_scalars.comp) keeps the scalars in a device buffer and writes indirect
// arguments so that passes no longer needed dispatch zero groups (the second residual of an
// iteration runs only when a stale residual asks for confirmation). The retry decision needs the
// host, so each step is a submission ending with a copy of its 16-byte StepLog to host memory: that
// is the one readback per step. A submission records as many iterations as the last step took; a
// step that needs more continues in further submissions (doubling), each with its own readback:
// on lavapipe an extra submission (~20 us) costs less than one iteration of empty dispatches.
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

// Steps take SolverParams::tolerance (m/s), maxIterations (line searches per attempt) and
// velocityScale (k, s). The adaptive step persists across frames, in the CPU state or the unit's
// GPU resources. A step that keeps diverging below a millionth of the requested step (a non-finite
// state, or an impossible scene) throws std::runtime_error.

}  // namespace weft::integrators
