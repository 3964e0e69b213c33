#version 450
// Non-linear CG, the scalar pass (one workgroup): finishes the reductions of the passes before it
// and takes the solve's decisions with the functions of nlcg.h (mode WEFT_NLCG_BEGIN / FRESH /
// SECANT; BEGIN opens the step and then tests its first residual as FRESH does), then writes the indirect arguments: the iteration passes run while the solve runs, the
// confirmation residual when the scalars ask for one, the finish once converged. Also the step's
// log, which the host reads back. Mirrors the scalar steps of nonlinearCgTryStepCpu().
#include "nlcg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

float partialSum(uint slot) {
  float sum = 0.0;
  for (uint k = gl_LocalInvocationID.x; k < nlcg.partialCount; k += WEFT_WORKGROUP_SIZE)
    sum += partials[slot * nlcg.partialCount + k];
  return workgroupSum(sum);
}

float partialMax(uint slot) {
  float m = 0.0;
  for (uint k = gl_LocalInvocationID.x; k < nlcg.partialCount; k += WEFT_WORKGROUP_SIZE)
    m = max(m, partials[slot * nlcg.partialCount + k]);
  return workgroupMax(m);
}

void setGroups(uint offset, bool run) {
  for (uint c = 0; c < 3; ++c) indirect[offset + c] = run ? indirect[WEFT_NLCG_GROUPS_FULL + c] : 0u;
}

void main() {
  uint mode = params.mode;
  // Uniform early outs (every thread reads the same scalars): a finished solve, or no residual taken.
  if (mode != WEFT_NLCG_BEGIN && scalars.status != WEFT_NLCG_RUNNING) return;
  if (mode == WEFT_NLCG_FRESH && scalars.confirm == 0u) return;
  float maxt = partialMax(WEFT_NLCG_PARTIAL_MAX);
  float t = partialSum(WEFT_NLCG_PARTIAL_RR);
  float maxt0 = 0.0, t0 = 0.0, t1 = 0.0;
  if (mode == WEFT_NLCG_BEGIN) maxt0 = partialMax(WEFT_NLCG_PARTIAL_MAX0);
  if (mode == WEFT_NLCG_SECANT) {
    t0 = partialSum(WEFT_NLCG_PARTIAL_T0);
    t1 = partialSum(WEFT_NLCG_PARTIAL_RD);
  }
  if (gl_LocalInvocationID.x != 0) return;

  NonlinearCgScalars s = scalars;
  if (mode == WEFT_NLCG_BEGIN) nlcgBegin(s, maxt0, nlcg.threshold, nlcg.relative);
  if (mode != WEFT_NLCG_SECANT) {
    nlcgFresh(s, t, maxt, nlcg.threshold, nlcg.maxIterations);
  } else {
    nlcgSecant(s, t0, t1, t, maxt, nlcg.threshold, nlcg.maxIterations);
  }
  s.log = nlcgLog(s, params.dt);
  scalars = s;
  setGroups(WEFT_NLCG_GROUPS_ITERATE, s.status == WEFT_NLCG_RUNNING);
  setGroups(WEFT_NLCG_GROUPS_CONFIRM, s.status == WEFT_NLCG_RUNNING && s.confirm != 0u);
  setGroups(WEFT_NLCG_GROUPS_FINISH, s.status == WEFT_NLCG_CONVERGED);
}
