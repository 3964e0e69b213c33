#version 450
// CG, first pass of a solve: builds b = a (f0 - l S v0), each particle's constraint (pinned,
// resting on a collider, free), b itself for the finish, the inverse of its 3x3 diagonal block of
// A = M - a df/dv - a l df/dx as the preconditioner, and the first residual and direction
// (a = solve.forceTime, l = solve.stiffnessTime: see SolveParams), and the warm start's guess in dv.
// Mirrors cgSetupParticle() in solver/integrators/common/cg/cg_solve.cpp.
#include "cg_bindings.glsl"
#define WEFT_ELEMENT_VECTOR(j) velocities[j].xyz  // K v0 for the right-hand side
#include "element_product.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float contribution = 0.0;
  if (i < params.particleCount) {
    vec4 xi = positions[i];
    vec3 vi = velocities[i].xyz;
    float a = solve.forceTime, l = solve.stiffnessTime;
    vec4 flt = vec4(0.0, 0.0, 0.0, WEFT_FILTER_FREE);
    mat3 block = mat3(1.0);
    vec3 b = vec3(0.0);
    if (xi.w == 0.0) {
      flt.w = WEFT_FILTER_PINNED;
    } else {
      float mass = 1.0 / xi.w;
      float drag = params.wind.w;
      block = (mass + a * drag) * mat3(1.0);
      vec3 force = mass * params.gravity.xyz + dragForce(vi, params.wind);
      vec3 sv = vec3(0.0);
      for (uint s = springRows[i]; s < springRows[i + 1]; ++s) {
        SpringEntry e = springs[s];
        vec3 xj = positions[e.other].xyz, vj = velocities[e.other].xyz;
        StrainLimit bound = springBound(s);
        force += springForce(xi.xyz, vi, xj, vj, e, bound);
        vec4 system = springSystemBlock(xi.xyz, xj, e, bound, a, l);
        blocks[s] = system;
        block += systemBlockMatrix(system);
        if (l != 0.0) sv += springStiffnessBlock(xi.xyz, xj, e, bound) * (vi - vj);
      }
      force += elementForces(i, true);
      block += elementDiagonal(i, a * l, a, 0.0);
      if (l != 0.0) sv += elementProduct(i, 1.0, 0.0);
      b = a * (force - l * sv);
      flt = firstRestingFilter(xi.xyz, vi, b);
    }
    mat3 inverseBlock = inverse(block);
    vec3 ri = applyFilter(flt, b);
    vec3 ci = applyFilter(flt, inverseBlock * ri);
    constraint[i] = flt;
    rhs[i] = vec4(b, 0.0);
    preconditioner[3 * i] = vec4(inverseBlock[0], 0.0);
    preconditioner[3 * i + 1] = vec4(inverseBlock[1], 0.0);
    preconditioner[3 * i + 2] = vec4(inverseBlock[2], 0.0);
    // The warm start's guess: the last solve's answer within this one's constraints (cg_warm.comp).
    dv[i] = solve.warmStart != 0u ? vec4(applyFilter(flt, dv[i].xyz), 0.0) : vec4(0.0);
    r[i] = vec4(ri, 0.0);
    c[i] = vec4(ci, 0.0);
    contribution = dot(ri, ci);
  }
  writePartial(contribution);
}
