#version 450
// Implicit CG: dv += alpha c, r -= alpha q, s = P^-1 r (kept in q's buffer), partial sums of r.s.
// Mirrors cgUpdateParticle() in solver/integrators/implicit_cg/cg_solve.cpp.
#include "cg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float contribution = 0.0;
  if (i < params.particleCount) {
    float alpha = scalars.alpha;
    dv[i] += alpha * c[i];
    vec3 ri = r[i].xyz - alpha * q[i].xyz;
    vec3 si = loadPreconditioner(i) * ri;
    r[i] = vec4(ri, 0.0);
    q[i] = vec4(si, 0.0);
    contribution = dot(ri, si);
  }
  writePartial(contribution);
}
