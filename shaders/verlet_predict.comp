#version 450
// Verlet, first pass: x* = x + (x - x_prev) + a dt^2 with x - x_prev = v dt, external forces only
// (gravity, drag, wind); springs act as distance constraints in verlet_relax.comp.
// Mirrors verletPredictParticle() in solver/integrators/verlet.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 xi = positions[i];
  vec3 v = velocities[i].xyz;
  prevPositions[i] = xi;
  if (xi.w == 0.0) {
    positionsOut[i] = xi;
    return;
  }
  vec3 a = params.gravity.xyz + xi.w * (dragForce(v, params.wind) + elementForces(i, false));
  float dt = params.dt;
  positionsOut[i] = vec4(xi.xyz + v * dt + a * (dt * dt), xi.w);
}
