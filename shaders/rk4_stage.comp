#version 450
// Classical fourth-order Runge-Kutta on (x, v), one stage per dispatch (StepParams.mode = stage):
// the slope k = (v_s, a(x_s, v_s)) of the stage's state is added to the weighted sums
// (weights 1, 2, 2, 1), and the next stage's state x0 + c h k (c = 1/2, 1/2, 1) is written; the last
// stage writes x0 + h/6 (sum) and collides. Stages ping-pong through scratch buffers because each
// gathers its neighbours' stage state. Mirrors rk4StageParticle() in solver/integrators/rk4.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  uint stage = params.mode;
  vec4 x0 = prevPositions[i];  // the step's starting state
  vec3 v0 = baseVelocities[i].xyz;
  if (x0.w == 0.0) {  // pinned: never moves
    positionsOut[i] = x0;
    velocitiesOut[i] = vec4(0.0);
    return;
  }
  vec4 xs = positions[i];
  vec3 vs = velocities[i].xyz;
  vec3 kx = vs;
  vec3 kv = particleAcceleration(i, xs, vs);
  float weight = (stage == 0u || stage == 3u) ? 1.0 : 2.0;
  vec3 sumX = weight * kx, sumV = weight * kv;
  if (stage > 0u) {
    sumX += accumPositions[i].xyz;
    sumV += accumVelocities[i].xyz;
  }
  float h = params.dt;
  if (stage < 3u) {
    accumPositions[i] = vec4(sumX, 0.0);
    accumVelocities[i] = vec4(sumV, 0.0);
    float c = stage == 2u ? 1.0 : 0.5;
    positionsOut[i] = vec4(x0.xyz + c * h * kx, x0.w);
    velocitiesOut[i] = vec4(v0 + c * h * kv, 0.0);
  } else {
    vec3 x = x0.xyz + (h / 6.0) * sumX;
    vec3 v = v0 + (h / 6.0) * sumV;
    collideAll(x, v, params.dt);
    positionsOut[i] = vec4(x, x0.w);
    velocitiesOut[i] = vec4(v, 0.0);
  }
}
