#version 450
// Verlet, first pass: x* = x + (x - x_prev) + a dt^2 with x - x_prev = v dt, external forces only
// (gravity, drag, wind); springs act as distance constraints in verlet_relax.comp. The step's
// velocity v + a dt starts in velocitiesOut, which the relaxation passes correct.
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
    velocitiesOut[i] = vec4(0.0);
    return;
  }
  vec3 a = params.gravity.xyz + xi.w * (dragForce(v, params.wind) + elementForces(i, false));
  float dt = params.dt;
  // The step's velocity so far, carried beside the positions (see carryCorrection in physics.h);
  // x + dt (v + a dt) rounds x once: adding v dt and a dt^2 one by one far from the origin rounds
  // the same small a dt^2 the same way every step, a drift of 0.6 mm a second at 100 m.
  vec3 vNext = v + a * dt;
  positionsOut[i] = vec4(xi.xyz + vNext * dt, xi.w);
  velocitiesOut[i] = vec4(vNext, 0.0);
}
