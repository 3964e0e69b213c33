// The colliders' buffers and the walk over those a particle may touch, shared by the solver kernels
// (through solver_bindings.glsl: collideAll, firstRestingCollider) and the contact pass's resolve
// (contact_resolve.comp: colliderGripAll). Bindings a kernel never touches are dropped by the compiler.
#ifndef WEFT_COLLIDER_BINDINGS_GLSL
#define WEFT_COLLIDER_BINDINGS_GLSL

#include "shared.h"
#include "physics.h"

layout(std430, binding = WEFT_BIND_COLLIDERS) readonly buffer Colliders { Collider colliders[]; };
layout(std430, binding = WEFT_BIND_COLLIDER_GRID) readonly buffer ColliderGridBlock { ColliderGrid colliderGrid; };
layout(std430, binding = WEFT_BIND_COLLIDER_CELLS) readonly buffer ColliderCells { uint colliderCells[]; };

// The colliders a particle at x tests when the grid is on, in ascending order as a pass over every
// collider meets them: the always-tested ones merged with the faces of its cell (ColliderGrid).
// Mirrors ColliderWalk in solver/model/collider_grid.h.
struct ColliderWalk {
  uint always, alwaysEnd, cell, cellEnd;
};
ColliderWalk colliderWalk(vec3 x) {
  ColliderWalk w;
  uint alwaysCount = colliderGrid.alwaysCount;
  uint b = colliderGridBucket(x, colliderGrid.cellSize, colliderGrid.tableSize);
  uint entriesAt = alwaysCount + colliderGrid.tableSize;
  w.always = 0u;
  w.alwaysEnd = alwaysCount;
  w.cell = entriesAt + (b > 0u ? colliderCells[alwaysCount + b - 1u] : 0u);
  w.cellEnd = entriesAt + colliderCells[alwaysCount + b];
  return w;
}
// The next collider of the walk into c; false when none is left.
bool nextCollider(inout ColliderWalk w, out uint c) {
  uint a = w.always < w.alwaysEnd ? colliderCells[w.always] : 0xffffffffu;
  uint f = w.cell < w.cellEnd ? colliderCells[w.cell] : 0xffffffffu;
  c = min(a, f);
  if (c == 0xffffffffu) return false;
  if (a < f) ++w.always;
  else ++w.cell;
  return true;
}

// A move the contact pass gives a particle at x, after colliderGripMove against each of the
// `colliderCount` colliders it rests on: with the grid, those of its cell (a face the cell leaves
// out is too far for the particle to rest on it). Mirrors colliderGripAll in
// solver/cpu/cpu_forces.h.
vec3 colliderGripAll(vec3 x, vec3 move, uint colliderCount) {
  if (weftColliderKinds == 0u) return move;  // built for no collider at all
  if ((weftColliderKinds & WEFT_COLLIDER_GRID_BIT) == 0u || colliderGrid.tableSize == 0u) {
    for (uint c = 0u; c < colliderCount; ++c) move = colliderGripMove(x, move, colliders[c]);
    return move;
  }
  ColliderWalk w = colliderWalk(x);
  uint c;
  while (nextCollider(w, c)) move = colliderGripMove(x, move, colliders[c]);
  return move;
}

// Whether a particle at x rests on one of the `colliderCount` colliders (restsOnCollider): with the
// grid, those of its cell, as colliderGripAll walks them. Mirrors restsOnAnyCollider in
// solver/cpu/cpu_forces.h.
bool restsOnAnyCollider(vec3 x, uint colliderCount) {
  if (weftColliderKinds == 0u) return false;  // built for no collider at all
  if ((weftColliderKinds & WEFT_COLLIDER_GRID_BIT) == 0u || colliderGrid.tableSize == 0u) {
    for (uint c = 0u; c < colliderCount; ++c)
      if (restsOnCollider(x, colliders[c])) return true;
    return false;
  }
  ColliderWalk w = colliderWalk(x);
  uint c;
  while (nextCollider(w, c))
    if (restsOnCollider(x, colliders[c])) return true;
  return false;
}

#endif
