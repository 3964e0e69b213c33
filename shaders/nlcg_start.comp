#version 450
// Non-linear CG, first pass of a step: r = residual() at the current state (p' = p, v' = v), then
// the seed's add(r, 1), which is one explicit Euler step: p' = p + v dt, v' = v + a dt. Zeroes the
// direction and leaves max_i |r_i|^2 of that start residual (the divergence reference) in the
// partials. The residual pass then evaluates the residual at this predicted iterate. Pinned particles stay where they are, at rest. Mirrors nlcgStartParticle() in
// solver/integrators/nonlinear_cg.cpp.
#include "nlcg_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float entry = 0.0;
  if (i < params.particleCount) {
    vec4 xi = positions[i];
    vec3 v = velocities[i].xyz;
    vec3 r0p = vec3(0.0), r0v = vec3(0.0);
    if (xi.w != 0.0) {
      vec3 a = particleAcceleration(i, xi, v);
      r0p = nlcgPositionResidual(xi.xyz, xi.xyz, v, params.dt);
      r0v = nlcgVelocityResidual(v, a, v, params.dt, nlcg.velocityScale);
    } else {
      v = vec3(0.0);
    }
    positionsOut[i] = vec4(xi.xyz + r0p, xi.w);
    velocitiesOut[i] = vec4(v + (1.0 / nlcg.velocityScale) * r0v, 0.0);
    dp[i] = vec4(0.0);
    dv[i] = vec4(0.0);
    entry = nlcgMaxEntry(r0p, r0v, xi.xyz);
  }
  writePartialMax(WEFT_NLCG_PARTIAL_MAX0, entry);
}
