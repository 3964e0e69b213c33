#pragma once
// Linearised implicit Euler (Baraff & Witkin 1998, seed 001): one Newton step per time step,
//   (M - h df/dv - h^2 df/dx) dv = h (f0 + h df/dx v0),   v' = v0 + dv,   x' = x0 + h v'
// solved by their modified preconditioned CG: pins and resting contacts enter as a filter that
// removes constrained directions, and the preconditioner is the inverse of each particle's 3x3
// diagonal block. Matrix-free and gathered: each particle rebuilds its springs' 3x3 blocks from x0
// when it multiplies (cheaper in bandwidth than storing 9 floats per spring end, and the same
// code on CPU and GPU). Compressed springs drop their transverse stiffness (seed 002) so A stays
// positive definite. The solve itself is cg_solve.h, which imex shares with its own weights.
//
// GPU pass sequence per step (no host round trip): setup, BEGIN, then maxIterations times
// [product, ALPHA, update, BETA, direction], then finish. The scalar passes (one workgroup) keep
// alpha, beta and the residuals in a device buffer; once converged they write zero workgroups into
// the indirect arguments, so the remaining iterations of the recorded sequence are empty
// dispatches. The iterations and residual of each step are logged on the GPU and read per frame.
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

// Solves take SolverParams::tolerance (relative preconditioned residual sqrt(r.s / r0.s0)) and
// maxIterations. recordStep records the iteration cap (for a command buffer the caller submits,
// where nothing may wait on the host); advance() instead submits the iterations in chunks and stops
// at the first chunk after convergence, reading the 32-byte scalar state between chunks, instead
// of paying for the cap's empty dispatches (~35 us each on lavapipe).

}  // namespace weft::integrators
