#version 450
// Implicit CG, the scalar pass (one workgroup): finishes a reduction from the partial sums and
// updates the solve's scalars in place (mode WEFT_SOLVE_BEGIN / ALPHA / BETA). Once converged, it
// writes zero groups into the indirect arguments so the remaining per-particle passes of the
// step's fixed sequence cost nothing. Mirrors the scalar steps of cgSolveCpu().
#include "cg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void stopIterating() {
  scalars.converged = 1u;
  indirect[0] = 0u;
  indirect[1] = 0u;
  indirect[2] = 0u;
}

void main() {
  uint mode = params.mode;
  if (mode != WEFT_SOLVE_BEGIN && scalars.converged != 0u) return;  // uniform: all threads agree
  float sum = 0.0;
  for (uint k = gl_LocalInvocationID.x; k < solve.partialCount; k += WEFT_WORKGROUP_SIZE) sum += partials[k];
  float total = workgroupSum(sum);
  if (gl_LocalInvocationID.x != 0) return;

  if (mode == WEFT_SOLVE_BEGIN) {
    scalars.delta0 = total;
    scalars.deltaNew = total;
    scalars.deltaOld = total;
    scalars.alpha = 0.0;
    scalars.beta = 0.0;
    scalars.iterations = 0u;
    scalars.converged = 0u;
    indirect[0] = indirect[3];
    indirect[1] = indirect[4];
    indirect[2] = indirect[5];
    if (!(total > 0.0) || solve.maxIterations == 0u) stopIterating();  // nothing to solve
  } else if (mode == WEFT_SOLVE_ALPHA) {
    scalars.pAp = total;
    if (total > 0.0) {
      scalars.alpha = scalars.deltaNew / total;
    } else {  // A is positive definite on the free space; a zero here means c = 0: done
      scalars.alpha = 0.0;
      stopIterating();
    }
  } else {
    scalars.deltaOld = scalars.deltaNew;
    scalars.deltaNew = total;
    scalars.beta = total / scalars.deltaOld;
    scalars.iterations += 1u;
    if (total <= solve.tolerance * solve.tolerance * scalars.delta0 || scalars.iterations >= solve.maxIterations)
      stopIterating();
  }
  float relative = scalars.delta0 > 0.0 ? sqrt(max(scalars.deltaNew, 0.0) / scalars.delta0) : 0.0;
  stepLog[solve.substep] = StepLog(scalars.iterations, relative,
                                   relative <= solve.tolerance ? 1u : 0u, params.dt);
}
