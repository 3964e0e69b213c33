#version 450
// Newton-Chebyshev, first pass of a step: the starting iterate x = x0 + h v0 + h^2 g (Wang's
// inertial prediction with the external force; exact for a free particle) and its velocity
// v0 + h g, which the update passes carry along; pins stay at x0.
// Mirrors newtonPredictParticle() in solver/integrators/newton_chebyshev.cpp.
#include "newton_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 x0 = positions[i];
  float h = params.dt;
  if (x0.w == 0.0) {
    iterate[i] = x0;
    velocitiesOut[i] = vec4(0.0);
    return;
  }
  vec3 v = velocities[i].xyz + h * params.gravity.xyz;  // its v_k; x rounded once (verlet_predict)
  iterate[i] = vec4(x0.xyz + h * v, x0.w);
  velocitiesOut[i] = vec4(v, 0.0);
}
