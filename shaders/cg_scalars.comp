#version 450
// Implicit CG, the scalar pass (one workgroup): finishes a reduction from the partial sums and
// updates the solve's scalars in place (mode WEFT_SOLVE_BEGIN / ALPHA / BETA). Once converged, it
// writes zero groups into the indirect arguments so the remaining per-particle passes of the
// step's fixed sequence cost nothing. The decisions themselves are cgScalarStep() in cg.h,
// which the CPU step calls too.
#include "cg_bindings.glsl"
#include "cg.h"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint mode = params.mode;
  if (mode != WEFT_SOLVE_BEGIN && scalars.converged != 0u) return;  // uniform: all threads agree
  float sum = 0.0;
  for (uint k = gl_LocalInvocationID.x; k < solve.partialCount; k += WEFT_WORKGROUP_SIZE) sum += partials[k];
  float total = workgroupSum(sum);
  if (gl_LocalInvocationID.x != 0) return;

  SolveScalars s = scalars;
  bool stopped = cgScalarStep(s, mode, total, solve.tolerance, solve.maxIterations);
  scalars = s;
  // The per-particle passes dispatch from entry 0: the full grid while running, none once stopped.
  indirect[0] = stopped ? 0u : indirect[3];
  indirect[1] = stopped ? 0u : indirect[4];
  indirect[2] = stopped ? 0u : indirect[5];
  float relative = cgRelativeResidual(s);
  stepLog[solve.substep] = StepLog(s.iterations, relative, relative <= solve.tolerance ? 1u : 0u, params.dt);
}
