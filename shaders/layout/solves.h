// The iterative solves of the implicit integrators (implicit-cg and imex's CG, newton-chebyshev,
// nonlinear-cg): scalar state, reductions, step logs and push constants, all kept on the device.
// One module of shaders/shared.h, which includes shaders/interop.h before it: include shared.h, not
// this file. std430 on the device; the static_asserts pin the C++ side to the same sizes.
#ifndef WEFT_LAYOUT_SOLVES_H
#define WEFT_LAYOUT_SOLVES_H

WEFT_GPU_BEGIN

// ---- Iterative solves (implicit integrators): scalar state and reductions stay on the GPU. ----
#define WEFT_BIND_SOLVE_SCALARS 11  // SolveScalars: the running solve's scalars (alpha, beta, residuals)
#define WEFT_BIND_PARTIALS 12       // float[]: one partial sum per workgroup of the last reducing pass
#define WEFT_BIND_INDIRECT 13       // uint[6]: [0..2] VkDispatchIndirectCommand of the per-particle
                                    // passes, zero groups once converged; [3..5] the full-size one
#define WEFT_BIND_STEP_LOG 14       // StepLog[substeps]: iterations and residual of every step
// Baraff & Witkin's modified preconditioned CG on the velocity change: implicit-cg's linearised
// implicit Euler, and imex's damping-only half steps (SolveParams' times choose the system).
#define WEFT_BIND_CG_DV 15          // vec4[N]: the unknown, delta v
#define WEFT_BIND_CG_R 16           // vec4[N]: residual r
#define WEFT_BIND_CG_C 17           // vec4[N]: search direction c
#define WEFT_BIND_CG_Q 18           // vec4[N]: A c, then the preconditioned residual s
#define WEFT_BIND_CG_PRECONDITIONER 19  // vec4[3N]: inverse of each particle's 3x3 diagonal block
#define WEFT_BIND_CG_FILTER 20      // vec4[N]: xyz contact normal, w = WEFT_FILTER_* (the constraint)
#define WEFT_BIND_CG_BLOCKS 40      // vec4[2S]: each spring end's system block (springSystemBlock)
#define WEFT_BIND_CG_RHS 69         // vec4[N]: b, the step's right-hand side, unfiltered (the finish's friction)
// Implicit Euler as a minimisation, by Newton iterations whose linear systems are solved by
// Chebyshev-accelerated block Jacobi (newton_*.comp). The partials, indirect arguments and step
// log are the shared ones above.
#define WEFT_BIND_NEWTON_ITERATE 30  // vec4[N]: the Newton iterate x_k (xyz m, w inverse mass)
#define WEFT_BIND_NEWTON_RHS 31      // vec4[N]: b = -grad F(x_k), pinned rows zero
#define WEFT_BIND_NEWTON_DX 32       // vec4[N]: Jacobi iterate y_j of the running linear solve
#define WEFT_BIND_NEWTON_DX_PREV 33  // vec4[N]: y_(j-1) in, y_(j+1) out (each particle its own entry)
#define WEFT_BIND_NEWTON_SCALARS 34  // NewtonScalars
#define WEFT_BIND_NEWTON_DIAGONAL 35   // vec4[2N]: inverse of each particle's 3x3 diagonal block, packed
                                       // symmetric, and its mass term m/h^2 + c/h (0: pinned)
#define WEFT_BIND_NEWTON_COUPLINGS 36  // vec4[2S]: each spring entry's block as (u, beta), B = u u^T + beta I
// Implicit Euler by SimCloth3's non-linear CG on positions and velocities (seed 000). The state at
// the step's start is bound as WEFT_BIND_PREV_POSITIONS / WEFT_BIND_BASE_VELOCITIES, the iterate
// (p', v') as WEFT_BIND_POSITIONS / WEFT_BIND_VELOCITIES where a pass gathers forces from it.
#define WEFT_BIND_NLCG_SCALARS 21       // NonlinearCgScalars: the running solve's scalars and its log
#define WEFT_BIND_NLCG_PARTIALS 22      // float[4 * groups]: per-workgroup partials, WEFT_NLCG_PARTIAL_* slots
#define WEFT_BIND_NLCG_INDIRECT 23      // uint[12]: WEFT_NLCG_GROUPS_* dispatch arguments
#define WEFT_BIND_NLCG_POSITIONS 24     // vec4[N]: the iterate p', updated in place (w inverse mass)
#define WEFT_BIND_NLCG_VELOCITIES 25    // vec4[N]: the iterate v', updated in place
#define WEFT_BIND_NLCG_RESIDUAL_P 26    // vec4[N]: residual, position half (m)
#define WEFT_BIND_NLCG_RESIDUAL_V 27    // vec4[N]: residual, velocity half times the velocity scale (m)
#define WEFT_BIND_NLCG_DIRECTION_P 28   // vec4[N]: search direction, position half
#define WEFT_BIND_NLCG_DIRECTION_V 29   // vec4[N]: search direction, velocity half

// SolveParams.step.mode of the single-workgroup scalar pass (cg_scalars.comp).
#define WEFT_SOLVE_BEGIN 0   // delta0 = deltaNew = sum of partials; open the iteration
#define WEFT_SOLVE_ALPHA 1   // pAp = sum; alpha = deltaNew / pAp
#define WEFT_SOLVE_BETA 2    // deltaNew = sum; beta = deltaNew / deltaOld; converged?
#define WEFT_SOLVE_WARM 3    // sum = r.s from the last solve's answer: kept when below delta0 (cgScalarStep)

// SolveParams.step.mode of cg_warm.comp, the warm start of a solve (SolveParams.warmStart).
#define WEFT_CG_WARM_RESIDUAL 0  // q = filter(b - A dv0) of the guess cg_setup left in dv; partials r.s
#define WEFT_CG_WARM_CHOOSE 1    // the guess kept: r = q, c = filter(P q); else dv = 0 (b's own residual)

// NewtonParams.step.mode of the single-workgroup scalar pass (newton_scalars.comp).
#define WEFT_NEWTON_BEGIN 0  // after newton_gradient: sum = |b|^2; open a linear solve
#define WEFT_NEWTON_CHECK 1  // after a measuring sweep: sum = |r_j|^2 of the iterate it read; stop?
// Sweeps between convergence checks. A check costs a reduction inside the sweep and a
// one-workgroup pass (a dispatch, ~35 us on lavapipe, about an eighth of a 48x48 sweep); checking
// every 8th sweep overshoots by 3.5 sweeps on average and saves 7 of 8 of those costs.
#define WEFT_NEWTON_CHECK_INTERVAL 8
// NonlinearCgParams.step.mode of the single-workgroup scalar pass (nlcg_scalars.comp).
#define WEFT_NLCG_BEGIN 0    // maxt0 = max of the start residual; open the step; then as FRESH
#define WEFT_NLCG_FRESH 1    // a residual taken at the iterate: converged, diverged, or the next beta
#define WEFT_NLCG_SECANT 2   // t0 and the trial point's residual: alpha, and whether to confirm

// NonlinearCgScalars.status, also StepLog.converged of a nonlinear-cg step.
#define WEFT_NLCG_RUNNING 0u
#define WEFT_NLCG_CONVERGED 1u
#define WEFT_NLCG_DIVERGED 2u    // the host retries the step at half the time step

// Slots of the partials buffer: partials[slot * partialCount + workgroup].
#define WEFT_NLCG_PARTIAL_RR 0   // sum of r.r
#define WEFT_NLCG_PARTIAL_MAX 1  // max over entries of |r_i|^2
#define WEFT_NLCG_PARTIAL_RD 2   // sum of r.d (the residual pass: t1 at the trial point)
#define WEFT_NLCG_PARTIAL_T0 3   // sum of r.d (the direction pass: t0)
#define WEFT_NLCG_PARTIAL_MAX0 4  // max over entries of |r_i|^2 at the step's start (the start pass)
#define WEFT_NLCG_PARTIAL_SLOTS 5

// VkDispatchIndirectCommand offsets (in uints) in the indirect buffer; the scalar pass sets each
// to the full size or to zero groups.
#define WEFT_NLCG_GROUPS_ITERATE 0   // direction, trial residual, add: while running
#define WEFT_NLCG_GROUPS_CONFIRM 3   // the residual at the iterate: when the scalars ask for one
#define WEFT_NLCG_GROUPS_FINISH 6    // collide the result: once converged
#define WEFT_NLCG_GROUPS_FULL 9      // the full-size dispatch, written by the host

#define WEFT_FILTER_FREE 0.0        // three free directions
#define WEFT_FILTER_CONTACT 1.0     // the normal direction is constrained (resting on a collider)
#define WEFT_FILTER_PINNED 2.0      // all three constrained
#define WEFT_NO_COLLIDER 0xffffffffu  // firstRestingCollider: none holds the particle

// The scalar state of an iterative solve, in a device buffer: passes read alpha and beta from
// here, so no iteration needs the host.
struct SolveScalars {
  float deltaNew;    // r.s of this iteration
  float deltaOld;    // r.s of the last one
  float delta0;      // r.s at the start: the solve stops once deltaNew <= tolerance^2 delta0
  float alpha;       // step length along the direction
  float beta;        // weight of the old direction in the new one
  float pAp;         // c.(A c), the reduction alpha divides by
  uint iterations;   // iterations done in this step
  uint converged;    // 1 once stopped (later iterations do nothing): converged, capped or stalled
  float deltaLeast;  // the smallest r.s so far: a solve whose r.s climbs far above it has stalled (cg.h)
};

// What one step's solve did, logged on the GPU and read once per frame (implicit-cg) or once per
// step (nonlinear-cg, whose host decides from it whether to retry the step).
struct StepLog {
  uint iterations;
  float residual;    // implicit-cg: sqrt(deltaNew / delta0); nonlinear-cg: sqrt(max_i |r_i|^2) (m)
  uint converged;    // 1 converged; nonlinear-cg: WEFT_NLCG_RUNNING / CONVERGED / DIVERGED
  float dt;          // s, the step actually taken (adaptive integrators)
};

// Push constants of an iterative-solve pass: the step's parameters plus the solve's own.
// The CG passes (cg_*.comp) solve one linearised velocity update, weighted by three times:
//   (M - a df/dv - a l df/dx) dv = a (f0 + l df/dx v0),   v' = v0 + dv,   x' = x0 + d v'
// with a = forceTime, l = stiffnessTime, d = driftTime. implicit-cg: a = l = d = h (linearised
// implicit Euler). imex: a = h/2 and l = 0 (elastic forces explicit, damping implicit), d = h on
// the first half step and 0 on the second. One set of kernels for both; the host chooses the times.
struct SolveParams {
  StepParams step;
  float tolerance;      // relative: stop when |r|_P <= tolerance |r0|_P
  uint maxIterations;
  uint partialCount;    // workgroups that wrote partial sums (single-workgroup passes sum these)
  uint substep;         // index into the step log
  float forceTime;      // s: a, the time the forces act over (the damping Jacobian's weight)
  float stiffnessTime;  // s: l, how far ahead the elastic forces are taken implicitly (0: explicitly)
  float driftTime;      // s: d, how far the finish pass moves positions with the new velocity
  uint warmStart;       // 1: start from the last solve's answer (filtered) where it leaves a smaller residual
};

// The scalar state of a Newton step's linear solves, in a device buffer (newton_scalars.comp and
// newtonScalarStep() in shaders/newton.h).
struct NewtonScalars {
  float rhsNorm2First;  // |b|^2 of the step's first Newton iteration: every solve aims at tolerance times its root
  float residualNorm2;  // |r|^2 of the running solve's last measured iterate
  uint iterations;      // index j of that iterate (the answer once the solve stops)
  uint stopped;         // 1 once the running solve stopped (tolerance reached or the cap)
  uint stepIterations;  // Jacobi iterations of the whole step, summed over its Newton iterations
  float worstResidual;  // largest relative residual a solve of this step stopped at
  uint stepConverged;   // 1 while every solve of the step reached the tolerance
  uint pad;
};

// Push constants of the Newton passes: an iterative solve's parameters plus the sweep's own.
struct NewtonParams {
  StepParams step;
  float tolerance;       // relative: a solve stops when |r| <= tolerance |b_first|
  uint maxIterations;    // Jacobi iterations per linear solve (per Newton iteration)
  uint partialCount;     // workgroups that wrote partial sums
  uint substep;          // index into the step log
  float omega;           // this sweep's acceleration weight (accelerate())
  uint measure;          // 1: the sweep writes partial sums of |r|^2 for a check; 0: it skips the reduction
  uint newtonIteration;  // 0 opens the step's log
  uint nesterov;         // 1: omega is Nesterov's momentum; 0: Chebyshev's weight
};

// The scalar state of a nonlinear-cg step, in a device buffer (names as in seed 000, except its
// line-search step k, here alpha: k is the velocity scale). The log at the end is what the host
// reads back after each step.
struct NonlinearCgScalars {
  float t;           // r.r of the current residual
  float oldt;        // t when the last direction was chosen
  float t0;          // r.d before the trial move
  float t1;          // r.d at the trial point x + d
  float alpha;       // secant step along d: -t0 / (t1 - t0)
  float beta;        // weight of the old direction: t / oldt (0 on the first iteration)
  float maxt;        // max_i |r_i|^2 of the current residual (m^2)
  float maxt0;       // the same at the step's start: the divergence reference
  uint iterations;   // line searches done
  uint status;       // WEFT_NLCG_RUNNING / CONVERGED / DIVERGED
  uint confirm;      // 1: the next confirmation pass evaluates the residual at the iterate
  float limit;       // the step's convergence test: every |r_i|^2 below it (nlcgBegin)
  StepLog log;       // iterations, sqrt(maxt) (m), status, dt
};

// Push constants of the nonlinear-cg passes.
struct NonlinearCgParams {
  StepParams step;       // step.mode: WEFT_NLCG_* in the scalar pass
  float threshold;       // seed 000's precision: converged when every |r_i|^2 < threshold (m^2),
                         // the tolerance squared
  float velocityScale;   // k (s): velocity residuals are scaled by it, velocity moves divided by it
  uint maxIterations;
  uint partialCount;     // workgroups of a per-particle pass (partials per slot)
  float relative;        // 0, or every |r_i| also below this fraction of the step's explicit move
  uint pad0;
  uint pad1;
  uint pad2;
};

#ifdef __cplusplus
static_assert(sizeof(SolveScalars) == 36);
static_assert(sizeof(StepLog) == 16);
static_assert(sizeof(SolveParams) == 112);
static_assert(sizeof(NewtonScalars) == 32);
static_assert(sizeof(NewtonParams) == 112);
static_assert(sizeof(NonlinearCgScalars) == 64);
static_assert(sizeof(NonlinearCgParams) == 112);
#endif

WEFT_GPU_END

#endif  // WEFT_LAYOUT_SOLVES_H
