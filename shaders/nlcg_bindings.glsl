// Buffers of SimCloth3's non-linear CG (seed 000) on positions and velocities.
#ifndef WEFT_NLCG_BINDINGS_GLSL
#define WEFT_NLCG_BINDINGS_GLSL

#define WEFT_NLCG_SOLVE
#include "shared.h"
#include "physics.h"
#include "nlcg.h"
#include "common.glsl"
#include "solver_bindings.glsl"
#include "reduce.glsl"

layout(std430, binding = WEFT_BIND_NLCG_SCALARS) buffer Scalars { NonlinearCgScalars scalars; };
layout(std430, binding = WEFT_BIND_NLCG_PARTIALS) buffer Partials { float partials[]; };
layout(std430, binding = WEFT_BIND_NLCG_INDIRECT) buffer Indirect { uint indirect[]; };
layout(std430, binding = WEFT_BIND_NLCG_POSITIONS) buffer IteratePositions { vec4 iteratePositions[]; };
layout(std430, binding = WEFT_BIND_NLCG_VELOCITIES) buffer IterateVelocities { vec4 iterateVelocities[]; };
layout(std430, binding = WEFT_BIND_NLCG_RESIDUAL_P) buffer ResidualP { vec4 rp[]; };
layout(std430, binding = WEFT_BIND_NLCG_RESIDUAL_V) buffer ResidualV { vec4 rv[]; };
layout(std430, binding = WEFT_BIND_NLCG_DIRECTION_P) buffer DirectionP { vec4 dp[]; };
layout(std430, binding = WEFT_BIND_NLCG_DIRECTION_V) buffer DirectionV { vec4 dv[]; };

// One partial per workgroup into `slot`, for the scalar pass to finish.
void writePartialSum(uint slot, float value) {
  float total = workgroupSum(value);
  if (gl_LocalInvocationID.x == 0) partials[slot * nlcg.partialCount + workgroupIndex()] = total;
}

void writePartialMax(uint slot, float value) {
  float total = workgroupMax(value);
  if (gl_LocalInvocationID.x == 0) partials[slot * nlcg.partialCount + workgroupIndex()] = total;
}

// The seed's add(d, f): p' += f d_p, v' += (f / k) d_v.
void addDirection(uint i, float f) {
  iteratePositions[i].xyz += f * dp[i].xyz;
  iterateVelocities[i].xyz += (f / nlcg.velocityScale) * dv[i].xyz;
}

#endif
