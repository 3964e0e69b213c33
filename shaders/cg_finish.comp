#version 450
// CG, last pass of a solve: v' = v0 + dv, x' = x0 + d v' (d = solve.driftTime: the step h for
// implicit-cg and imex's first half step, 0 for imex's second), then the colliders. A particle
// held on a collider first gets Coulomb friction on the constraint's press (restingFriction).
// Mirrors cgFinishParticle() in solver/integrators/common/cg/cg_solve.cpp.
#include "cg_bindings.glsl"
#define WEFT_ELEMENT_VECTOR(j) dv[j].xyz
#include "cg_system_product.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 xi = positions[i];
  if (xi.w == 0.0) {
    positionsOut[i] = xi;
    velocitiesOut[i] = vec4(0.0);
    return;
  }
  vec3 v = velocities[i].xyz + dv[i].xyz;
  vec4 flt = constraint[i];
  if (flt.w == WEFT_FILTER_CONTACT) {  // friction on the press the solve's constraint gave it
    vec3 b = rhs[i].xyz;
    uint k = firstRestingCollider(xi.xyz, velocities[i].xyz, b);
    float press = dot(systemProduct(i) - b, flt.xyz) * xi.w;
    if (k != WEFT_NO_COLLIDER) v = restingFriction(xi.xyz, v, flt.xyz, press, colliders[k]);
  }
  vec3 x = xi.xyz + solve.driftTime * v;
  collideAll(x, v, solve.driftTime);
  positionsOut[i] = vec4(x, xi.w);
  velocitiesOut[i] = vec4(v, 0.0);
}
