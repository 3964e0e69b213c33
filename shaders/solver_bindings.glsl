// Buffer declarations shared by the solver kernels. A kernel includes this and uses what it needs;
// bindings it never touches are dropped by the compiler and so are not reflected or pushed.
#ifndef WEFT_SOLVER_BINDINGS_GLSL
#define WEFT_SOLVER_BINDINGS_GLSL

#include "shared.h"

#if defined(WEFT_NEWTON_SOLVE)
// Newton-Chebyshev passes push NewtonParams; `params` still names the step's parameters.
layout(push_constant) uniform NewtonPush { NewtonParams newton; };
#define params newton.step
#elif defined(WEFT_ITERATIVE_SOLVE)
// Passes of an iterative solve push SolveParams; `params` still names the step's parameters.
layout(push_constant) uniform SolvePush { SolveParams solve; };
#define params solve.step
#elif defined(WEFT_XPBD_SOLVE)
// XPBD's projection passes push XpbdParams; `params` still names the step's parameters.
layout(push_constant) uniform XpbdPush { XpbdParams xpbd; };
#define params xpbd.step
#elif defined(WEFT_NLCG_SOLVE)
// Passes of the non-linear CG push NonlinearCgParams; `params` still names the step's parameters.
layout(push_constant) uniform NlcgPush { NonlinearCgParams nlcg; };
#define params nlcg.step
#else
layout(push_constant) uniform StepPush { StepParams params; };
#endif

layout(std430, binding = WEFT_BIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = WEFT_BIND_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
// Read too by verlet_relax: with Chebyshev acceleration it holds the iterate before last.
layout(std430, binding = WEFT_BIND_POSITIONS_OUT) buffer PositionsOut { vec4 positionsOut[]; };
// Read too by verlet_relax and newton_update, which carry the step's velocity in it.
layout(std430, binding = WEFT_BIND_VELOCITIES_OUT) buffer VelocitiesOut { vec4 velocitiesOut[]; };
layout(std430, binding = WEFT_BIND_PREV_POSITIONS) buffer PrevPositions { vec4 prevPositions[]; };
layout(std430, binding = WEFT_BIND_SPRING_ROWS) readonly buffer SpringRows { uint springRows[]; };
layout(std430, binding = WEFT_BIND_SPRINGS) readonly buffer Springs { SpringEntry springs[]; };
layout(std430, binding = WEFT_BIND_SPRING_LINKS) readonly buffer SpringLinks { SpringLink springLinks[]; };
layout(std430, binding = WEFT_BIND_SPRING_BOUNDS) readonly buffer SpringBounds { StrainLimit springBounds[]; };
layout(std430, binding = WEFT_BIND_BASE_VELOCITIES) readonly buffer BaseVelocities { vec4 baseVelocities[]; };
layout(std430, binding = WEFT_BIND_ACCUM_POSITIONS) buffer AccumPositions { vec4 accumPositions[]; };
layout(std430, binding = WEFT_BIND_ACCUM_VELOCITIES) buffer AccumVelocities { vec4 accumVelocities[]; };
// Nesterov's last un-extrapolated Jacobi iterate (verlet_relax, newton_sweep), own entry only.
layout(std430, binding = WEFT_BIND_LAST_JACOBI) buffer LastJacobi { vec4 lastJacobi[]; };
// Newton-Chebyshev's iterate x_k (declared here so the element gather can read it).
layout(std430, binding = WEFT_BIND_NEWTON_ITERATE) buffer Iterate { vec4 iterate[]; };

#include "collider_bindings.glsl"
#include "element_gather.glsl"

// Spring entry s's force bound (springResponse): none where the table is the one-entry placeholder.
// Copied member by member: a ternary between the buffer's struct and a local one trips glslc's optimizer.
StrainLimit springBound(uint s) {
  StrainLimit bound = StrainLimit(0.0, 0.0);
  if (s < uint(springBounds.length())) {
    bound.minLength = springBounds[s].minLength;
    bound.maxLength = springBounds[s].maxLength;
  }
  return bound;
}

#ifdef WEFT_GRID_STENCIL
// The "+grid-stencil" variant (engine::kGridStencilVariant) of a kernel that gathers springs: the
// cloth is seed 004's grid, its springs found from the index (shaders/grid_stencil.h).
layout(std430, binding = WEFT_BIND_GRID_STENCIL) readonly buffer GridStencilBlock { GridStencil gridStencil; };
layout(std430, binding = WEFT_BIND_GRID_REST_LENGTHS) readonly buffer GridRestLengths { float gridRestLengths[]; };

// Stencil spring k of particle i, at (column, row), as the table's entry for it, into e; false where
// the particle has no such spring. Mirrors GridSprings::spring in solver/model/grid_stencil.h. The family
// is read from the buffer where it is used: a copy of the stencil passed to a function that indexes
// it by k costs lavapipe an array in memory per lane, a third of the explicit step at 250²
// (docs/benchmarks.md, "The grid path").
bool gridSpring(uint i, uint column, uint row, uint k, out SpringEntry e) {
  uint j = 0u;
  e = SpringEntry(0u, 0.0, 0.0, 0.0);
  if (!gridStencilNeighbour(gridStencil.width, gridStencil.height, column, row, k, j)) return false;
  e = gridStencilEntry(j, gridStencil.families[gridStencilFamily(k)], gridRestLengths[gridStencilRestIndex(i, j, k)]);
  return true;
}
#endif

// Acceleration of particle i (not pinned) from gravity, drag, its row of springs and its elements,
// with the state read from `positions` and `velocities`. Mirrors particleAcceleration() in the CPU backend.
vec3 particleAcceleration(uint i, vec4 xi, vec3 v) {
  vec3 force = dragForce(v, params.wind) + elementForces(i, true);
#ifdef WEFT_GRID_STENCIL
  // The same springs in the same order as the table's row, none of them bounded (GridStencil).
  uint column = i % gridStencil.width, row = i / gridStencil.width;
  for (uint k = 0u; k < WEFT_GRID_STENCIL_SPRINGS; ++k) {
    SpringEntry e;
    if (gridSpring(i, column, row, k, e))
      force += springForce(xi.xyz, v, positions[e.other].xyz, velocities[e.other].xyz, e, StrainLimit(0.0, 0.0));
  }
#else
  for (uint s = springRows[i]; s < springRows[i + 1]; ++s) {
    SpringEntry e = springs[s];
    force += springForce(xi.xyz, v, positions[e.other].xyz, velocities[e.other].xyz, e, springBound(s));
  }
#endif
  return params.gravity.xyz + xi.w * force;
}

void collideEvery(inout vec3 x, inout vec3 v, vec3 start, float dt) {
  for (uint c = 0; c < params.colliderCount; ++c) collideFrom(x, v, start, colliders[c], dt);
}

// After a step that moved the particle by v dt (dt = 0: the velocity alone is corrected):
// collideStep's friction takes back the tangential displacement it takes from the velocity. With the
// grid, the faces of the particle's cell, unless it moved too far for the cell to be sure of holding
// every face that touches it (colliderGridHeld): then every collider, from where it was.
void collideAll(inout vec3 x, inout vec3 v, float dt) {
  if (weftColliderKinds == 0u) return;  // built for no collider at all (LastPassCollides in solver/backend/backend_state.h)
  vec3 start = x - v * dt;
  if ((weftColliderKinds & WEFT_COLLIDER_GRID_BIT) == 0u || colliderGrid.tableSize == 0u) {
    collideEvery(x, v, start, dt);
    return;
  }
  vec3 x0 = x, v0 = v;
  float drift = 0.0;
  ColliderWalk w = colliderWalk(x0);
  uint c;
  while (nextCollider(w, c)) {
    collideFrom(x, v, start, colliders[c], dt);
    drift = max(drift, length(x - x0));
  }
  ColliderGrid g = colliderGrid;
  if (colliderGridHeld(x0, v0, dt, drift, g.reference, g.maxSpeed, g.maxSpin, g.allowance)) return;
  x = x0;
  v = v0;
  collideEvery(x, v, start, dt);
}

// The first collider (in index order) whose restingFilter constrains the particle at x moving at v
// with right-hand side b, or WEFT_NO_COLLIDER. A face its grid cell leaves out is too far for that.
uint firstRestingCollider(vec3 x, vec3 v, vec3 b) {
  if ((weftColliderKinds & WEFT_COLLIDER_GRID_BIT) == 0u || colliderGrid.tableSize == 0u) {
    for (uint c = 0; c < params.colliderCount; ++c)
      if (restingFilter(x, v, b, colliders[c]).w > WEFT_FILTER_FREE) return c;
    return WEFT_NO_COLLIDER;
  }
  ColliderWalk w = colliderWalk(x);
  uint c;
  while (nextCollider(w, c))
    if (restingFilter(x, v, b, colliders[c]).w > WEFT_FILTER_FREE) return c;
  return WEFT_NO_COLLIDER;
}

// That collider's constraint, or a free one.
vec4 firstRestingFilter(vec3 x, vec3 v, vec3 b) {
  uint c = firstRestingCollider(x, v, b);
  return c == WEFT_NO_COLLIDER ? vec4(0.0, 0.0, 0.0, WEFT_FILTER_FREE) : restingFilter(x, v, b, colliders[c]);
}

#endif
