// A regular grid's springs found from the particle's index (GridStencil in shared.h), in the common
// subset of GLSL and C++: the "+grid-stencil" kernels and the CPU backend both gather through it.
// Included by physics.h inside its namespace.
#ifndef WEFT_GRID_STENCIL_H
#define WEFT_GRID_STENCIL_H

// The twelve springs a particle of seed 004's grid can have, in the order buildSpringTable lists
// them in its row (buildGrid adds the families in turn, each row-major, and a row lists a particle's
// springs in that order):
//   0-3   structural: up, left, right, down
//   4-7   shear: up-left, up-right, down-left, down-right
//   8-11  bend: two up, two left, two right, two down
// ("up" is the row before, "left" the column before.) A particle at the border lacks some of them.
#define WEFT_GRID_STENCIL_SPRINGS 12u
// Rest lengths are kept per particle (WEFT_GRID_REST_SLOTS in shared.h): those of the six springs
// it starts (buildGrid's first end), in the slots right, down, down-right, down-left, two right, two
// down. Its other six are its neighbours' (its "up" spring is the "down" of the particle above).

// Stencil spring k's column and row offsets.
WEFT_FN int gridStencilColumnStep(uint k) {
  uint j = k & 3u;
  if (k >= 4u && k < 8u) return (j & 1u) != 0u ? 1 : -1;  // shear: left on even k, right on odd
  int step = j == 1u ? -1 : (j == 2u ? 1 : 0);
  return k >= 8u ? 2 * step : step;
}
WEFT_FN int gridStencilRowStep(uint k) {
  uint j = k & 3u;
  if (k >= 4u && k < 8u) return (j & 2u) != 0u ? 1 : -1;  // shear: up for the first two, down for the last two
  int step = j == 0u ? -1 : (j == 3u ? 1 : 0);
  return k >= 8u ? 2 * step : step;
}

// Stencil spring k's family, an index into GridStencil.families: structural along a row (0) or a
// column (1), shear (2), bend along a row (3) or a column (4).
WEFT_FN uint gridStencilFamily(uint k) {
  if (k >= 4u && k < 8u) return 2u;
  bool alongRow = gridStencilRowStep(k) == 0;
  return (k >= 8u ? 3u : 0u) + (alongRow ? 0u : 1u);
}

// Whether stencil spring k is started by the particle itself (its rest length in its own slots)
// rather than by the neighbour at its far end: the springs that point right or down.
WEFT_FN bool gridStencilOwnSpring(uint k) {
  int r = gridStencilRowStep(k);
  return r > 0 || (r == 0 && gridStencilColumnStep(k) > 0);
}

// The rest-length slot (WEFT_GRID_REST_SLOTS) of stencil spring k in the particle that starts it.
WEFT_FN uint gridStencilRestSlot(uint k) {
  int c = gridStencilColumnStep(k), r = gridStencilRowStep(k);
  if (r < 0) {  // seen from its far end: the spring its neighbour above started, pointing down
    r = -r;
    c = -c;
  } else if (r == 0 && c < 0) {
    c = -c;
  }
  if (r == 0) return c == 1 ? 0u : 4u;   // right, two right
  if (c == 0) return r == 1 ? 1u : 5u;   // down, two down
  return c > 0 ? 2u : 3u;                // down-right, down-left
}

// The particle at stencil spring k's far end from the particle at (column, row) of a width x height
// grid (particle row * width + column), into j; false where that spring would leave the grid. The
// caller splits the particle's index once: a division per spring is paid in full by a device that
// divides lane by lane (lavapipe).
WEFT_FN bool gridStencilNeighbour(uint width, uint height, uint column, uint row, uint k, WEFT_INOUT(uint) j) {
  int c = int(column) + gridStencilColumnStep(k);
  int r = int(row) + gridStencilRowStep(k);
  if (c < 0 || r < 0 || c >= int(width) || r >= int(height)) return false;
  j = uint(r) * width + uint(c);
  return true;
}

// Where stencil spring k between particles i and j (its far end) keeps its rest length: an index
// into the grid's rest lengths (WEFT_GRID_REST_SLOTS per particle).
WEFT_FN uint gridStencilRestIndex(uint i, uint j, uint k) {
  return (gridStencilOwnSpring(k) ? i : j) * WEFT_GRID_REST_SLOTS + gridStencilRestSlot(k);
}

// The table entry of a spring to particle j of the given family (a GridStencil.families value:
// stiffness, damping) and rest length.
WEFT_FN SpringEntry gridStencilEntry(uint j, vec4 family, float restLength) {
  SpringEntry e;
  e.other = j;
  e.restLength = restLength;
  e.stiffness = family.x;
  e.damping = family.y;
  return e;
}

#endif  // WEFT_GRID_STENCIL_H
