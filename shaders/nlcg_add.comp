#version 450
// Non-linear CG: add(d, alpha - 1) moves the iterate from the trial point x + d to x + alpha d.
// Mirrors nlcgAddParticle() in solver/integrators/nonlinear_cg.cpp.
#include "nlcg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  addDirection(i, scalars.alpha - 1.0);
}
