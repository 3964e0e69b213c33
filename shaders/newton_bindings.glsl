// Buffers of the Newton-Chebyshev solve (solver/integrators/newton_chebyshev.h): the Newton
// iterate, the right-hand side, two Jacobi iterates, the system's blocks and the solve's scalars, beside the shared
// partial sums, indirect arguments and step log of the iterative solves.
#ifndef WEFT_NEWTON_BINDINGS_GLSL
#define WEFT_NEWTON_BINDINGS_GLSL

#define WEFT_NEWTON_SOLVE
// Elements are evaluated at the Newton iterate x_k with its velocity v_k = (x_k - x0) / h, which
// the passes carry in velocitiesOut (predict starts it, update adds y / h): deriving it from x_k
// and x0 would lose ulp(x) / h to cancellation far from the origin.
#define WEFT_ELEMENT_X(j) iterate[j]
#define WEFT_ELEMENT_V(j) velocitiesOut[j].xyz
#include "shared.h"
#include "physics.h"
#include "newton.h"
#include "common.glsl"
#include "solver_bindings.glsl"
#include "reduce.glsl"

layout(std430, binding = WEFT_BIND_PARTIALS) buffer Partials { float partials[]; };
layout(std430, binding = WEFT_BIND_INDIRECT) buffer Indirect { uint indirect[]; };
layout(std430, binding = WEFT_BIND_STEP_LOG) buffer Log { StepLog stepLog[]; };
layout(std430, binding = WEFT_BIND_NEWTON_SCALARS) buffer Scalars { NewtonScalars scalars; };
layout(std430, binding = WEFT_BIND_NEWTON_RHS) buffer Rhs { vec4 rhs[]; };
layout(std430, binding = WEFT_BIND_NEWTON_DX) buffer Dx { vec4 dx[]; };
layout(std430, binding = WEFT_BIND_NEWTON_DX_PREV) buffer DxPrev { vec4 dxPrev[]; };
layout(std430, binding = WEFT_BIND_NEWTON_DIAGONAL) buffer Diagonal { vec4 diagonal[]; };
layout(std430, binding = WEFT_BIND_NEWTON_COUPLINGS) buffer Couplings { vec4 couplings[]; };

// One partial sum per workgroup, for the single-workgroup scalar pass to finish.
void writePartial(float value) {
  float total = workgroupSum(value);
  if (gl_LocalInvocationID.x == 0) partials[workgroupIndex()] = total;
}

#endif
