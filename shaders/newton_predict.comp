#version 450
// Newton-Chebyshev, first pass of a step: the starting iterate x = x0 + h v0 + h^2 g (Wang's
// inertial prediction with the external force; exact for a free particle), pins stay at x0.
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
    return;
  }
  iterate[i] = vec4(x0.xyz + h * velocities[i].xyz + (h * h) * params.gravity.xyz, x0.w);
}
