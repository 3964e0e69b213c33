#version 450
// CG: q = filter(A c) (cg_system_product.glsl), and the partial sums of c.q.
// Mirrors cgProductParticle() in solver/integrators/common/cg/cg_solve.cpp.
#include "cg_bindings.glsl"
#define WEFT_ELEMENT_VECTOR(j) c[j].xyz
#include "cg_system_product.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float contribution = 0.0;
  if (i < params.particleCount) {
    vec3 qi = applyFilter(constraint[i], systemProduct(i));
    q[i] = vec4(qi, 0.0);
    contribution = dot(c[i].xyz, qi);
  }
  writePartial(contribution);
}
