// SimCloth3's non-linear CG (seed 000), written once in the common subset of GLSL and C++ (GLM):
// the residual of implicit Euler per particle, and every scalar decision of the solve. The GPU's
// one-workgroup scalar pass and the CPU backend's loop call these same functions, so both backends
// take the same branch at the same iteration unless rounding puts a sum on the other side of a test.
#ifndef WEFT_NLCG_H
#define WEFT_NLCG_H

#include "shared.h"

WEFT_GPU_BEGIN

// How far max_i |r_i|^2 may climb above the step's start (or the threshold, if larger) before the
// step counts as diverged: 1e6, a thousandfold growth of the largest residual. A converging solve
// never comes near it; a diverging one passes it within a few iterations (the error of the stiffest
// mode grows about h omega per iteration once h omega > 1), so a failed step costs little.
#define WEFT_NLCG_DIVERGENCE_GROWTH 1.0e6f
#define WEFT_NLCG_FLOAT_MAX 3.0e38f

// With a relative tolerance, a step converges when every |r_i| is below the absolute tolerance
// (m/s, times k) and below that fraction of the step's own explicit move, max_i |r_i| at its
// start (v dt, a dt k). The absolute test alone accepts the explicit prediction of any motion
// small enough, so small oscillations lose less than implicit Euler takes from them.
// Below this fraction of the absolute tolerance the relative test no longer tightens it: a motion
// that small is rounding (spring forces balancing gravity in float, at the cloth's scale).
#define WEFT_NLCG_FLOOR 1.0e-2f
// A position residual within this many float epsilons of the iterate's distance from the origin
// is rounding and counts as zero: far from the origin no iterate resolves finer.
#define WEFT_NLCG_ROUNDING 4.8e-7f

// The position half of the residual: r_p = (p + v' dt) - p'.
WEFT_FN vec3 nlcgPositionResidual(vec3 p, vec3 pIterate, vec3 vIterate, float dt) {
  return (p + vIterate * dt) - pIterate;
}

// The velocity half: r_v = ((v + a(p', v') dt) - v') k, with a = im f' (gravity included).
WEFT_FN vec3 nlcgVelocityResidual(vec3 v, vec3 acceleration, vec3 vIterate, float dt, float k) {
  return ((v + acceleration * dt) - vIterate) * k;
}

// max(|r_p|^2, |r_v|^2): the two entries of the seed's M-vector that belong to one particle; a
// position residual at the rounding of p (the iterate's position) counts as zero.
WEFT_FN float nlcgMaxEntry(vec3 rp, vec3 rv, vec3 p) {
  float rounding = WEFT_NLCG_ROUNDING * WEFT_NLCG_ROUNDING * dot(p, p);
  float a = dot(rp, rp);
  a = a > rounding ? a : 0.0f;
  float b = dot(rv, rv);
  return a > b ? a : b;
}

// NaN fails every comparison, so a non-finite residual counts as diverged. The test needs t, the
// sum r.r, as well as maxt: a sum carries a NaN through, a max may drop it (max(0, NaN) is 0).
WEFT_FN bool nlcgDiverged(float t, float maxt, float maxt0, float threshold) {
  float reference = maxt0 > threshold ? maxt0 : threshold;
  return !(t <= WEFT_NLCG_FLOAT_MAX) || !(maxt <= WEFT_NLCG_DIVERGENCE_GROWTH * reference);
}

// The step opens with the residual at its start (before the seed's add(r, 1)) as the reference;
// nlcgFresh then tests the residual at the predicted iterate.
WEFT_FN void nlcgBegin(WEFT_INOUT(NonlinearCgScalars) s, float maxt0, float threshold, float relative) {
  s.t = 0.0f;
  s.oldt = 0.0f;
  s.t0 = 0.0f;
  s.t1 = 0.0f;
  s.alpha = 0.0f;
  s.beta = 0.0f;
  s.maxt = maxt0;
  s.maxt0 = maxt0;
  s.iterations = 0u;
  s.status = WEFT_NLCG_RUNNING;
  s.confirm = 1u;  // the first test needs the residual at the predicted iterate
  float tight = relative * relative * maxt0;
  float floor = WEFT_NLCG_FLOOR * WEFT_NLCG_FLOOR * threshold;
  s.limit = relative > 0.0f && tight < threshold ? (tight > floor ? tight : floor) : threshold;
}

// Not converged: give up at the cap or on divergence, else the seed's direction rule.
WEFT_FN void nlcgContinue(WEFT_INOUT(NonlinearCgScalars) s, float threshold, uint maxIterations) {
  if (nlcgDiverged(s.t, s.maxt, s.maxt0, threshold) || s.iterations >= maxIterations) {
    s.status = WEFT_NLCG_DIVERGED;
    return;
  }
  s.beta = s.iterations == 0u ? 0.0f : s.t / s.oldt;  // s == 0: d = r
  s.oldt = s.t;
}

// A residual evaluated at the iterate itself: the only one a convergence is accepted on.
WEFT_FN void nlcgFresh(WEFT_INOUT(NonlinearCgScalars) s, float t, float maxt, float threshold, uint maxIterations) {
  s.confirm = 0u;
  s.t = t;
  s.maxt = maxt;
  if (maxt < s.limit && t <= WEFT_NLCG_FLOAT_MAX) {
    s.status = WEFT_NLCG_CONVERGED;
    return;
  }
  nlcgContinue(s, threshold, maxIterations);
}

// The secant line search: t0 = r.d before the trial move, t1 = r.d at x + d. As in the seed, the
// trial point's residual becomes the current one (saving a force evaluation per iteration), but
// the solve moves on to x + alpha d: when that stale residual passes the test, the next
// confirmation pass re-evaluates it at the iterate before the step is accepted.
// A secant that turns back (alpha <= 0: the residual does not shrink along d, so the directions
// have lost their conjugacy) counts as divergence: measured on the stiff test cloth, 1516 of 1517
// diverging attempts showed it first, 38 of 4691 converging ones ever did, and it ends a doomed
// attempt after 2-5 iterations instead of the 6-14 that the growth test needs.
WEFT_FN void nlcgSecant(WEFT_INOUT(NonlinearCgScalars) s, float t0, float t1, float t, float maxt, float threshold,
                        uint maxIterations) {
  s.t0 = t0;
  s.t1 = t1;
  s.alpha = -t0 / (t1 - t0);
  s.iterations += 1u;
  s.t = t;
  s.maxt = maxt;
  if (!(s.alpha > 0.0f && s.alpha <= WEFT_NLCG_FLOAT_MAX)) {  // turned back, or no curvature along d
    s.status = WEFT_NLCG_DIVERGED;
    return;
  }
  if (maxt < s.limit && t <= WEFT_NLCG_FLOAT_MAX) {
    s.confirm = 1u;
    return;
  }
  nlcgContinue(s, threshold, maxIterations);
}

WEFT_FN StepLog nlcgLog(NonlinearCgScalars s, float dt) {
  StepLog log;
  log.iterations = s.iterations;
  log.residual = sqrt(s.maxt);
  log.converged = s.status;
  log.dt = dt;
  return log;
}

WEFT_GPU_END

#endif  // WEFT_NLCG_H
