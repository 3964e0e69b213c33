#version 450
// Non-linear CG: d = r + b d (b = 0 on the first iteration), the partials of t0 = r.d, then the
// trial move add(d, 1). Mirrors nlcgDirectionParticle() in solver/integrators/nonlinear_cg.cpp.
#include "nlcg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float t0 = 0.0;
  if (i < params.particleCount) {
    float beta = scalars.beta;
    vec3 ri_p = rp[i].xyz, ri_v = rv[i].xyz;
    vec3 di_p = ri_p + beta * dp[i].xyz;
    vec3 di_v = ri_v + beta * dv[i].xyz;
    dp[i] = vec4(di_p, 0.0);
    dv[i] = vec4(di_v, 0.0);
    t0 = dot(ri_p, di_p) + dot(ri_v, di_v);
    addDirection(i, 1.0);
  }
  writePartialSum(WEFT_NLCG_PARTIAL_T0, t0);
}
