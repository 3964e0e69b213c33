#version 450
// Implicit CG: dv += alpha c, r -= alpha q, s = P^-1 r (kept in q's buffer), partial sums of r.s.
// r is filtered again at every update, for 16 bytes more a particle. The filter removes a resting
// particle's normal component only to the rounding of b, which for a particle pressed onto a
// collider is mostly normal: left in r, that rounding was a part of r no iteration could reduce, and
// once the rest of r had come down to it the iterations diverged (r.s climbing 2-3 times an
// iteration, to NaN within a few hundred, for any tolerance under about 1e-7). Filtered each time,
// it stays at the rounding of r itself.
// Mirrors cgUpdateParticle() in solver/integrators/common/cg/cg_solve.cpp.
#include "cg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float contribution = 0.0;
  if (i < params.particleCount) {
    float alpha = scalars.alpha;
    dv[i] += alpha * c[i];
    vec3 ri = applyFilter(constraint[i], r[i].xyz - alpha * q[i].xyz);
    vec3 si = loadPreconditioner(i) * ri;
    r[i] = vec4(ri, 0.0);
    q[i] = vec4(si, 0.0);
    contribution = dot(ri, si);
  }
  writePartial(contribution);
}
