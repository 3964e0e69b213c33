// Buffers of the linearised implicit Euler solve (Baraff & Witkin's modified PCG).
#ifndef WEFT_CG_BINDINGS_GLSL
#define WEFT_CG_BINDINGS_GLSL

#define WEFT_ITERATIVE_SOLVE
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"
#include "reduce.glsl"

layout(std430, binding = WEFT_BIND_SOLVE_SCALARS) buffer Scalars { SolveScalars scalars; };
layout(std430, binding = WEFT_BIND_PARTIALS) buffer Partials { float partials[]; };
layout(std430, binding = WEFT_BIND_INDIRECT) buffer Indirect { uint indirect[]; };
layout(std430, binding = WEFT_BIND_STEP_LOG) buffer Log { StepLog stepLog[]; };
layout(std430, binding = WEFT_BIND_CG_DV) buffer DeltaV { vec4 dv[]; };
layout(std430, binding = WEFT_BIND_CG_R) buffer Residual { vec4 r[]; };
layout(std430, binding = WEFT_BIND_CG_C) buffer Direction { vec4 c[]; };
layout(std430, binding = WEFT_BIND_CG_Q) buffer Product { vec4 q[]; };
layout(std430, binding = WEFT_BIND_CG_PRECONDITIONER) buffer Preconditioner { vec4 preconditioner[]; };
layout(std430, binding = WEFT_BIND_CG_FILTER) buffer Constraint { vec4 constraint[]; };
layout(std430, binding = WEFT_BIND_CG_BLOCKS) buffer Blocks { vec4 blocks[]; };
layout(std430, binding = WEFT_BIND_CG_RHS) buffer RightHandSide { vec4 rhs[]; };

mat3 loadPreconditioner(uint i) {
  return mat3(preconditioner[3 * i].xyz, preconditioner[3 * i + 1].xyz, preconditioner[3 * i + 2].xyz);
}

// One partial sum per workgroup, for the single-workgroup scalar pass to finish.
void writePartial(float value) {
  float total = workgroupSum(value);
  if (gl_LocalInvocationID.x == 0) partials[workgroupIndex()] = total;
}

#endif
