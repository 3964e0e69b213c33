#version 450
// CG: q = filter(A c) with A = (M + a c_drag I) + sum over springs of (a D + a l S)
// applied to (c_i - c_j), gathered; each spring end's block is the compact (sqrt(beta) n, gamma)
// built by cg_setup (16 bytes instead of 9 floats, and no square root per iteration).
// Also the partial sums of c.q. (a = solve.forceTime, l = solve.stiffnessTime: see SolveParams.)
// Mirrors cgProductParticle() in solver/integrators/implicit_cg/cg_solve.cpp.
#include "cg_bindings.glsl"
#define WEFT_ELEMENT_VECTOR(j) c[j].xyz
#include "element_product.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float contribution = 0.0;
  if (i < params.particleCount) {
    vec4 xi = positions[i];
    vec3 ci = c[i].xyz;
    vec3 product = vec3(0.0);
    if (xi.w > 0.0) {
      float a = solve.forceTime;
      product = (1.0 / xi.w + a * params.wind.w) * ci;
      for (uint s = springRows[i]; s < springRows[i + 1]; ++s)
        product += applySystemBlock(blocks[s], ci - c[springs[s].other].xyz);
      product += elementProduct(i, a * solve.stiffnessTime, a);
    }
    vec3 qi = applyFilter(constraint[i], product);
    q[i] = vec4(qi, 0.0);
    contribution = dot(ci, qi);
  }
  writePartial(contribution);
}
