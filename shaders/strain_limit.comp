#version 450
// Strain limiting after a step, one Jacobi iteration in two dispatches (params.mode):
//  WEFT_STRAIN_MEASURE: each particle sums its springs' |excess| over their limits, which the
//    corrections' symmetric shares need (strainShare: a gather cannot know its neighbour's sum);
//  WEFT_STRAIN_CORRECT(_FINAL): each particle moves by the sum of its springs' shared corrections,
//    its velocity by the same move / dt; the final iteration collides, so colliders keep the last word.
// Mirrors strainLimitMeasure() and strainLimitCorrect() in solver/passes/strain_limit.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"

layout(std430, binding = WEFT_BIND_STRAIN_LIMITS) readonly buffer StrainLimits { StrainLimit strainLimits[]; };
layout(std430, binding = WEFT_BIND_STRAIN_EXCESS) buffer StrainExcess { float strainExcessSums[]; };

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 xi = positions[i];
  if (params.mode == WEFT_STRAIN_MEASURE) {
    float sum = 0.0;
    if (xi.w > 0.0)
      for (uint s = springRows[i]; s < springRows[i + 1]; ++s)
        sum += abs(strainExcess(length(xi.xyz - positions[springLinks[s].other].xyz), strainLimits[s]));
    strainExcessSums[i] = sum;
    return;
  }
  vec4 vi = velocities[i];
  vec3 x = xi.xyz;
  vec3 v = vi.xyz;
  float sumI = strainExcessSums[i];
  if (xi.w > 0.0) {
    if (sumI > 0.0) {
      vec3 sum = vec3(0.0);
      for (uint s = springRows[i]; s < springRows[i + 1]; ++s) {
        uint j = springLinks[s].other;
        vec4 xj = positions[j];
        sum += strainCorrection(x, xi.w, xj.xyz, xj.w, strainLimits[s], sumI, strainExcessSums[j]);
      }
      x += sum;
      v = carryCorrection(v, x, xi.xyz, params.dt);
    }
    if (params.mode == WEFT_STRAIN_CORRECT_FINAL) collideAll(x, v, 0.0);  // a projection, not a step of v dt
  }
  positionsOut[i] = vec4(x, xi.w);
  velocitiesOut[i] = vec4(v, vi.w);
}
