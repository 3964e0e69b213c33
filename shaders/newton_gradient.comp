#version 450
// Newton-Chebyshev, first pass of a Newton iteration: b = -grad F(x_k), the implicit Euler
// residual f(x_k, v_k) - M/h (v_k - v0), with v_k = (x_k - x0)/h carried in velocitiesOut (springs with their
// damping, gravity, air drag), zero for pins; the system's blocks at x_k for the solve's sweeps
// (each spring entry's coupling, the inverse diagonal block and mass term); opens the linear
// solve at y = 0 and writes the partial sums of |b|^2.
// Mirrors newtonGradientParticle() in solver/integrators/newton_chebyshev.cpp.
#include "newton_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float contribution = 0.0;
  if (i < params.particleCount) {
    vec4 xi = iterate[i];
    vec3 b = vec3(0.0);
    mat3 inverseBlock = mat3(0.0);
    float massTerm = 0.0;  // marks a pinned row
    if (xi.w > 0.0) {
      float h = params.dt;
      float mass = 1.0 / xi.w;
      massTerm = mass / (h * h) + params.wind.w / h;
      vec3 vi = velocitiesOut[i].xyz;
      vec3 force = mass * params.gravity.xyz + dragForce(vi, params.wind);
      mat3 block = massTerm * mat3(1.0);
      for (uint s = springRows[i]; s < springRows[i + 1]; ++s) {
        SpringEntry e = springs[s];
        vec3 xj = iterate[e.other].xyz;
        vec3 vj = velocitiesOut[e.other].xyz;
        StrainLimit bound = springBound(s);
        force += springForce(xi.xyz, vi, xj, vj, e, bound);
        vec4 coupling = newtonCoupling(xi.xyz, xj, e, bound, h);
        couplings[s] = coupling;
        block += systemBlockMatrix(coupling);
      }
      force += elementForces(i, true);
      block += elementDiagonal(i, 1.0, 1.0 / h, 0.5);  // K + D/h of the elements at x_k, made Jacobi-safe
      b = force - (mass / h) * (vi - velocities[i].xyz);
      inverseBlock = inverse(block);
    }
    rhs[i] = vec4(b, 0.0);
    diagonal[2 * i] = symmetricDiagonal(inverseBlock);
    diagonal[2 * i + 1] = symmetricRest(inverseBlock, massTerm);
    dx[i] = vec4(0.0);
    dxPrev[i] = vec4(0.0);
    contribution = dot(b, b);
  }
  writePartial(contribution);
}
