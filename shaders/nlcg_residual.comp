#version 450
// Non-linear CG: r = residual() at the iterate (bound as positions/velocities, so forces gather
// from it; the step's start state is prevPositions/baseVelocities), with the partials of r.r,
// max_i |r_i|^2 and r.d. Dispatched at the trial point of every line search and, when the scalars
// ask for it, at the iterate itself. Pinned particles have a zero residual. Mirrors
// nlcgResidualParticle() in solver/integrators/nonlinear_cg.cpp.
#include "nlcg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float rr = 0.0, entry = 0.0, rd = 0.0;
  if (i < params.particleCount) {
    vec4 xi = positions[i];
    vec3 ri_p = vec3(0.0), ri_v = vec3(0.0);
    if (xi.w != 0.0) {
      vec3 vi = velocities[i].xyz;
      vec3 a = particleAcceleration(i, xi, vi);
      ri_p = nlcgPositionResidual(prevPositions[i].xyz, xi.xyz, vi, params.dt);
      ri_v = nlcgVelocityResidual(baseVelocities[i].xyz, a, vi, params.dt, nlcg.velocityScale);
    }
    rp[i] = vec4(ri_p, 0.0);
    rv[i] = vec4(ri_v, 0.0);
    rr = dot(ri_p, ri_p) + dot(ri_v, ri_v);
    entry = nlcgMaxEntry(ri_p, ri_v, xi.xyz);
    rd = dot(ri_p, dp[i].xyz) + dot(ri_v, dv[i].xyz);
  }
  writePartialSum(WEFT_NLCG_PARTIAL_RR, rr);
  writePartialMax(WEFT_NLCG_PARTIAL_MAX, entry);
  writePartialSum(WEFT_NLCG_PARTIAL_RD, rd);
}
