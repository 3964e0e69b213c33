// Implicit CG's scalar decisions (Baraff & Witkin's modified PCG, seed 001): what alpha, beta and
// the stopping test are after each reduction. The GPU's one-workgroup scalar pass
// (cg_scalars.comp) and the CPU step (solver/integrators/implicit_cg/) call the same cgScalarStep(),
// so the two backends stop their solves by the same rule, as newton.h does for Newton-Chebyshev.
#ifndef WEFT_CG_H
#define WEFT_CG_H

#include "shared.h"

WEFT_GPU_BEGIN

// One scalar pass; `total` is the reduction the pass before it finished:
// - WEFT_SOLVE_BEGIN: r0.s0 of the setup; the solve starts (stops at once if there is nothing to
//   solve or no iteration allowed);
// - WEFT_SOLVE_ALPHA: c.(A c); alpha = r.s / c.Ac. A is positive definite on the free space, so a
//   non-positive value means c = 0: the solve is done;
// - WEFT_SOLVE_BETA: the new r.s; beta = new / old, and the stopping test
//   r.s <= tolerance^2 r0.s0 or the iteration cap;
// - WEFT_SOLVE_WARM (after BEGIN, when the solve starts warm): r.s of the residual the last solve's
//   answer leaves. It is kept as the start when smaller than b's own (delta0), which stays the
//   measure of the stopping test, as in Baraff & Witkin's start from a guess; a worse guess, or
//   none (a NaN from a buffer never written), leaves the start at zero. cgWarmKept says which.
// - any reduction that comes back non-finite, or an r.s more than WEFT_CG_STALL_RISE times the
//   smallest so far, stops the solve where it is (see below).
// Returns true when the solve is stopped (s.converged = 1: the remaining iterations do nothing).
// A solve whose r.s climbs far above its least is no longer converging: CG's directions have lost
// their conjugacy (the filter's rounding left in r did this, to NaN within a few hundred iterations,
// before cg_update.comp filtered r at every update). It is stopped there, and reported as not
// converged, before NaN reaches the state. Ill-conditioned solves that do converge climb a long way
// first, so the bound is wide: a stiff membrane's cantilever (Cantilever.*, MembraneLockingTest.*,
// tolerance 1e-5, up to 4000 iterations) climbs 2.5e5 times above its least, and 2.5e5 times above
// where it started, then converges; drop_pile.json's contact pairs, 14 times; layers.json, 2.1.
#define WEFT_CG_STALL_RISE 1.0e9f

WEFT_FN bool cgScalarStep(WEFT_INOUT(SolveScalars) s, uint mode, float total, float tolerance, uint maxIterations) {
  if (mode == WEFT_SOLVE_BEGIN) {
    s.delta0 = total;
    s.deltaNew = total;
    s.deltaOld = total;
    s.alpha = 0.0f;
    s.beta = 0.0f;
    s.pAp = 0.0f;
    s.iterations = 0u;
    s.deltaLeast = total;
    s.converged = (!(total > 0.0f) || maxIterations == 0u) ? 1u : 0u;
  } else if (mode == WEFT_SOLVE_ALPHA) {
    s.pAp = total;
    if (total > 0.0f) {
      s.alpha = s.deltaNew / total;
    } else {
      s.alpha = 0.0f;
      s.converged = 1u;
    }
  } else if (mode == WEFT_SOLVE_WARM) {
    if (total < s.deltaNew) {
      s.deltaNew = total;
      s.deltaOld = total;
      s.deltaLeast = total;
      if (total <= tolerance * tolerance * s.delta0) s.converged = 1u;
    }
  } else {
    s.deltaOld = s.deltaNew;
    s.deltaNew = total;
    s.beta = total / s.deltaOld;
    s.iterations += 1u;
    bool stalled = !(total <= WEFT_CG_STALL_RISE * s.deltaLeast);  // a NaN or infinity too
    s.deltaLeast = total < s.deltaLeast ? total : s.deltaLeast;
    if (total <= tolerance * tolerance * s.delta0 || s.iterations >= maxIterations || stalled) s.converged = 1u;
  }
  return s.converged != 0u;
}

// After WEFT_SOLVE_WARM: whether the solve starts from the last one's answer. Only a kept guess
// leaves deltaNew below delta0 before the first iteration.
WEFT_FN bool cgWarmKept(SolveScalars s) { return s.deltaNew < s.delta0; }

// The relative preconditioned residual sqrt(r.s / r0.s0) the step log reports.
WEFT_FN float cgRelativeResidual(SolveScalars s) {
  return s.delta0 > 0.0f ? sqrt(max(s.deltaNew, 0.0f) / s.delta0) : 0.0f;
}

WEFT_GPU_END

#endif  // WEFT_CG_H
