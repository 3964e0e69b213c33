#version 450
// XPBD, after the last iteration: the step's velocity is the predicted one plus the projections'
// displacement over dt (carryCorrection: x* is kept beside the projected x, so no x - x_start
// cancellation far from the origin), then the colliders.
// Mirrors finishParticle() in solver/integrators/xpbd/xpbd.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 xi = positionsOut[i];
  if (xi.w == 0.0) return;
  vec3 x = xi.xyz;
  vec3 v = carryCorrection(velocitiesOut[i].xyz, x, positions[i].xyz, params.dt);
  collideAll(x, v, params.dt);
  positionsOut[i] = vec4(x, xi.w);
  velocitiesOut[i] = vec4(v, 0.0);
}
