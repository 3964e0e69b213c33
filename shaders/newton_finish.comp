#version 450
// Newton-Chebyshev, last pass of a step: v = (x - x0)/h as the passes carried it, then the colliders, as the other
// integrators end. The iterate's buffer becomes the new positions.
// Mirrors newtonFinishParticle() in solver/integrators/newton_chebyshev.cpp.
#include "newton_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 xi = iterate[i];
  if (xi.w == 0.0) {
    velocitiesOut[i] = vec4(0.0);
    return;
  }
  vec3 x = xi.xyz;
  vec3 v = velocitiesOut[i].xyz;  // (x - x0) / h, carried by the update passes
  collideAll(x, v, params.dt);
  iterate[i] = vec4(x, xi.w);
  velocitiesOut[i] = vec4(v, 0.0);
}
