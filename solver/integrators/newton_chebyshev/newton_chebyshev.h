#pragma once
// Implicit Euler as a minimisation (seed 002): the step's positions minimise
//   F(x) = 1/(2 h^2) |x - x0 - h v0|^2_M + E(x),
// E holding the springs and gravity (-m g.x). Newton iterations solve grad F = 0; each linear
// system (M/h^2 + H) dx = -grad F is solved by block-Jacobi iterations (each particle's 3x3
// diagonal block) accelerated by Chebyshev's semi-iterative method (Wang 2015). v = (x - x0)/h,
// then the colliders. Pins are filtered out of every system (their dx = 0).
//
// Dissipation enters implicitly, as implicit Euler treats it, rather than as an explicit pass:
// air drag -c (v - w) and each spring's axial damping are evaluated at v = (x - x0)/h in the
// gradient, and their derivatives (c/h I, D/h) join the Hessian. Both are positive semi-definite,
// so A stays symmetric positive definite and block Jacobi converges (2 diag(A) - A is positive
// definite for a sum of spring blocks plus a positive diagonal); and implicit damping is
// unconditionally stable where explicit damping of a stiff spring is not. The derivative of a
// damping force's axis is dropped (Baraff & Witkin's approximation), so with damping the Newton
// matrix is a symmetric approximation of the residual's Jacobian.
//
// Convergence: the Newton count is fixed (newtonIterations), because the nonlinear residual of
// a stiff cloth has a float32 floor: the nearest float positions leave k ulp(x) per spring
// (2000 N/m x 1.2e-7 m = 2.4e-4 N, a fifth of a hanging.json particle's weight), and on
// hanging.json the second Newton iteration already starts at 3-9 % of the first's residual and
// stalls there, so no relative test on it could be met. The linear solves are checked instead,
// every WEFT_NEWTON_CHECK_INTERVAL sweeps, on |b - A y| <= tolerance |b_first| with b_first the
// step's first right-hand side: a later Newton iteration whose correction is already that small
// costs no sweep. A stopped solve answers with its last measured iterate, so the logged residual
// is the residual of what was used. Two Newton iterations by default: the second corrects the
// linearisation about the predicted positions (on hanging.json its right-hand side starts at
// 3-9 % of the first's) for about 0.6 of the first solve's sweeps; one gives a linearised implicit
// Euler (what implicit-cg solves) at about 0.6 of the cost. maxIterations caps the Jacobi iterations of each linear
// solve: the GPU records that many sweeps per Newton iteration whatever the cap's meaning, and a
// cap per solve lets each use all of them (a cap on the step's sum would need twice the
// recording for the same work). The step log sums the iterations over the step.
//
// Wang's under-relaxation gamma (y_(j+1) = omega (gamma (jacobi(y_j) - y_j) + y_j - y_(j-1)) + ...)
// is left out: for these linear solves it only slowed convergence (measured while developing,
// hanging.json, h = 1/120 s, rho = 0.9993, one Newton iteration, a check every sweep: a mean of
// 216 sweeps a step at gamma = 1, 231 at 0.9, 290 at 0.7). It helps Wang's projective dynamics,
// whose system changes between iterations; here each solve's system is fixed.
//
// The system's blocks are built once per Newton iteration, by the gradient pass: each spring
// entry's block as 4 floats (B = u u^T + beta I, newtonCoupling()) and each particle's inverse
// diagonal block. A sweep then reads 16 bytes a spring entry, as many as a matrix-free sweep
// reading x_j would, and skips the square root, division and outer products per spring that
// rebuilding the blocks costs (implicit CG rebuilds them: it runs fewer iterations per build).
//
// With acceleration "nesterov" the sweeps take Nesterov's momentum instead (docs/integrators.md):
// half Jacobi steps (WEFT_NESTEROV_JACOBI_STEP in shaders/newton.h says why), the momenta pushed
// per sweep like the weights, and each particle's last un-extrapolated iterate in a fourth
// scratch buffer. "none" is plain Jacobi whatever chebyshevRho says.
//
// GPU pass sequence per step (no host round trip): predict, then per Newton iteration
// [gradient, BEGIN, sweeps with a CHECK after every WEFT_NEWTON_CHECK_INTERVAL-th, update], then
// finish. The Chebyshev weights depend only on rho and the sweep's index: the host computes them
// and pushes each sweep's. The residual of y_j falls out of the sweep that computes y_(j+1)
// (r_j = D (jacobi(y_j) - y_j)), so measuring needs no separate product; the scalar pass finishes
// its sum, and a stopped solve writes zero workgroups into the indirect arguments of its
// remaining sweeps. Those empty dispatches still cost ~35 us each on lavapipe: keep maxIterations
// near what a solve needs.
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

struct NewtonSettings {
  float tolerance;        // relative linear residual |r| / |b_first|
  int maxIterations;      // Jacobi iterations per linear solve (per Newton iteration)
  int newtonIterations;   // Newton iterations per step
  float chebyshevRho;     // estimate of the Jacobi iteration's spectral radius; 0: plain Jacobi
  Acceleration acceleration;
  float momentum;         // Nesterov: fixed momentum, or kMomentumSchedule
};

NewtonSettings newtonSettings(const SolverParams& params);

// omega_1 = 1, omega_2 = 2 / (2 - rho^2), omega_(k+1) = 4 / (4 - rho^2 omega_k): sweep j uses
// element j. All ones for rho = 0.
std::vector<float> chebyshevWeights(float rho, int count);

// Each sweep's acceleration weight (NewtonParams::omega): Chebyshev's omega, Nesterov's momentum
// (gpu::nesterovMomentum) or 1 (none).
std::vector<float> sweepWeights(const NewtonSettings& settings, int count);


}  // namespace weft::integrators
