#version 450
// Implicit CG: c = filter(s + beta c). Mirrors cgDirectionParticle() in solver/integrators/common/cg/cg_solve.cpp.
#include "cg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  c[i] = vec4(applyFilter(constraint[i], q[i].xyz + scalars.beta * c[i].xyz), 0.0);
}
