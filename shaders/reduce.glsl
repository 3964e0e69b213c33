// Workgroup reductions for the iterative solvers. Every invocation of the workgroup must call
// these (no early return before them): out-of-range threads contribute 0.
#ifndef WEFT_REDUCE_GLSL
#define WEFT_REDUCE_GLSL

shared float reduceScratch[WEFT_WORKGROUP_SIZE];

// Sum over the workgroup, in a fixed tree order (deterministic run to run).
float workgroupSum(float value) {
  uint t = gl_LocalInvocationID.x;
  reduceScratch[t] = value;
  barrier();
  for (uint stride = WEFT_WORKGROUP_SIZE / 2; stride > 0; stride >>= 1) {
    if (t < stride) reduceScratch[t] += reduceScratch[t + stride];
    barrier();
  }
  float total = reduceScratch[0];
  barrier();
  return total;
}

float workgroupMax(float value) {
  uint t = gl_LocalInvocationID.x;
  reduceScratch[t] = value;
  barrier();
  for (uint stride = WEFT_WORKGROUP_SIZE / 2; stride > 0; stride >>= 1) {
    if (t < stride) reduceScratch[t] = max(reduceScratch[t], reduceScratch[t + stride]);
    barrier();
  }
  float total = reduceScratch[0];
  barrier();
  return total;
}

// Index of this workgroup among all of the dispatch (dispatches fold into 2-D past 65535 groups).
uint workgroupIndex() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }

#endif
