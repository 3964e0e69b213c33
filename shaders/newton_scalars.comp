#version 450
// Newton-Chebyshev, the scalar pass (one workgroup): finishes a reduction from the partial sums
// and runs newtonScalarStep() (shaders/newton.h) on the solve's scalars: WEFT_NEWTON_BEGIN opens
// a linear solve, WEFT_NEWTON_CHECK measures the last sweep. A stopped solve gets zero groups in
// the indirect arguments, so the rest of its recorded sweeps cost nothing. Logs the step.
#include "newton_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint mode = params.mode;
  if (mode == WEFT_NEWTON_CHECK && scalars.stopped != 0u) return;  // uniform: all threads agree
  float sum = 0.0;
  for (uint k = gl_LocalInvocationID.x; k < newton.partialCount; k += WEFT_WORKGROUP_SIZE) sum += partials[k];
  float total = workgroupSum(sum);
  if (gl_LocalInvocationID.x != 0) return;

  NewtonScalars s = scalars;
  bool stop = newtonScalarStep(s, mode, total, newton.tolerance, newton.maxIterations, newton.newtonIteration);
  scalars = s;
  if (mode == WEFT_NEWTON_BEGIN || stop) {
    indirect[0] = stop ? 0u : indirect[3];
    indirect[1] = stop ? 0u : indirect[4];
    indirect[2] = stop ? 0u : indirect[5];
  }
  stepLog[newton.substep] = StepLog(s.stepIterations, s.worstResidual, s.stepConverged, params.dt);
}
