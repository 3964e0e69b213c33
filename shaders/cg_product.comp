#version 450
// Implicit CG: q = filter(A c) with A = (M + h c_drag I) + sum over springs of (h D + h^2 S)
// applied to (c_i - c_j), gathered and matrix-free (the blocks are rebuilt from x0 each time:
// cheaper in bandwidth than storing 9 floats per spring end). Also the partial sums of c.q.
// Mirrors cgProductParticle() in solver/integrators/implicit_cg.cpp.
#include "cg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float contribution = 0.0;
  if (i < params.particleCount) {
    vec4 xi = positions[i];
    vec3 ci = c[i].xyz;
    vec3 product = vec3(0.0);
    if (xi.w > 0.0) {
      float h = params.dt;
      product = (1.0 / xi.w + h * params.wind.w) * ci;
      for (uint s = springRows[i]; s < springRows[i + 1]; ++s) {
        SpringEntry e = springs[s];
        vec3 xj = positions[e.other].xyz;
        mat3 block = h * springDampingBlock(xi.xyz, xj, e) + (h * h) * springStiffnessBlock(xi.xyz, xj, e);
        product += block * (ci - c[e.other].xyz);
      }
    }
    vec3 qi = applyFilter(constraint[i], product);
    q[i] = vec4(qi, 0.0);
    contribution = dot(ci, qi);
  }
  writePartial(contribution);
}
