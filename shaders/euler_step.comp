#version 450
// One explicit or symplectic Euler step (StepParams.mode), gathered per particle: the particle
// sums its own spring row, so no atomics and the same result as the CPU backend's loop.
// Mirrors eulerStepParticle() in solver/integrators/euler.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 xi = positions[i];
  vec3 x = xi.xyz;
  vec3 v = velocities[i].xyz;
  if (xi.w == 0.0) {  // pinned: never moves
    positionsOut[i] = xi;
    velocitiesOut[i] = vec4(0.0);
    return;
  }
  vec3 a = particleAcceleration(i, xi, v);
  float dt = params.dt;
  if (params.mode == WEFT_MODE_EXPLICIT_EULER) {  // seed 000: position advances with the old velocity
    x += v * dt;
    v += a * dt;
  } else {
    v += a * dt;
    x += v * dt;
  }
  collideAll(x, v, params.dt);
  positionsOut[i] = vec4(x, xi.w);
  velocitiesOut[i] = vec4(v, 0.0);
}
