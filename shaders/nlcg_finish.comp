#version 450
// Non-linear CG, last pass of a converged step: the colliders' projection on the solution, in
// place. Mirrors nlcgFinishParticle() in solver/integrators/nonlinear_cg.cpp.
#include "nlcg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 xi = iteratePositions[i];
  if (xi.w == 0.0) return;
  vec3 x = xi.xyz, v = iterateVelocities[i].xyz;
  collideAll(x, v, params.dt);
  iteratePositions[i] = vec4(x, xi.w);
  iterateVelocities[i] = vec4(v, 0.0);
}
