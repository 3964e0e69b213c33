#version 450
// The contact hash grid, built on the device from the positions at the step's start
// (contact.mode):
//  WEFT_CONTACT_DRIFT: each vertex's move since the candidates were listed, folded into the box of
//    the step's moves (atomicMin, atomicMax on orderedFloatBits). While its drift keeps the list
//    (contactListHolds), the other modes, the scan and the search stand aside for the step;
//  WEFT_CONTACT_MEASURE: the bounding spheres of the triangles and edges each vertex owns (is the
//    smallest corner of), and each vertex's longest edge, folded into the step's longest (atomicMax
//    on the bits of a non-negative float), which sizes the cells (contactCellSize); and each
//    vertex's incidence count and dropped bound made ready for the search;
//  WEFT_CONTACT_COUNT: each vertex counts itself into its cell's bucket;
//  WEFT_CONTACT_SCATTER: after contact_scan turned the counts into starts, each vertex takes the
//    next slot of its bucket, which leaves every bucket's entry holding its run's end;
//  WEFT_CONTACT_SORT: one thread a bucket puts its run in particle order (an insertion sort: a run
//    holds the few vertices of one cell), undoing the order the atomics happened to take. The
//    search then meets its candidates in the CPU's order every time, so the float sums of the
//    pushes, and the whole motion, repeat bit for bit from run to run.
// Mirrors the hash part of solver/contact/contact.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "contact_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (contact.mode == WEFT_CONTACT_DRIFT) {
    if (i >= contact.particleCount) return;
    vec3 moved = start[i].xyz - listedStart[i].xyz;
    for (int a = 0; a < 3; ++a) {
      atomicMin(scalars.driftLow[a], orderedFloatBits(moved[a]));
      atomicMax(scalars.driftHigh[a], orderedFloatBits(moved[a]));
    }
    return;
  }
  if (contactListKept()) return;  // the candidates listed earlier still hold every pair: no search this step
  if (contact.mode == WEFT_CONTACT_SORT) {  // i is a bucket
    if (i >= contact.tableSize) return;
    uint begin = i > 0u ? cells[i - 1u] : 0u;
    uint end = cells[i];
    for (uint a = begin + 1u; a < end; ++a) {
      uint v = entries[a];
      uint b = a;
      for (; b > begin && entries[b - 1u] > v; --b) entries[b] = entries[b - 1u];
      entries[b] = v;
    }
    return;
  }
  if (i >= contact.particleCount) return;
  vec3 x = start[i].xyz;
  if (contact.mode == WEFT_CONTACT_MEASURE) {
    incidenceRows[i] = 0u;  // its vertex–triangle and edge–edge counts
    incidenceRows[contact.particleCount + i] = 0u;
    candidateCounts[i].z = floatBitsToUint(contactListReach(contact.radius));
    for (uint t = topology[contact.ownedTriangleRowsAt + i]; t < topology[contact.ownedTriangleRowsAt + i + 1u]; ++t) {
      uvec3 c = contactTriangle(t);
      spheres[t] = triangleSphere(start[c.x].xyz, start[c.y].xyz, start[c.z].xyz);
    }
    for (uint e = topology[contact.ownedEdgeRowsAt + i]; e < topology[contact.ownedEdgeRowsAt + i + 1u]; ++e) {
      uvec2 q = contactEdge(e);
      spheres[contact.triangleCount + e] = edgeSphere(start[q.x].xyz, start[q.y].xyz);
    }
    float longest = 0.0;
    for (uint k = topology[contact.edgeRowsAt + i]; k < topology[contact.edgeRowsAt + i + 1u]; ++k) {
      uvec2 q = contactEdge(topology[contact.edgeListAt + k]);
      longest = max(longest, length(start[q.x].xyz - start[q.y].xyz));
    }
    if (longest > 0.0) atomicMax(scalars.maxEdgeBits, floatBitsToUint(longest));
    return;
  }
  float cellSize = contactListCellSize(contact.radius, contactLongestEdge());
  uint h = contactBucket(contactCell(x, cellSize), contact.tableSize);
  uint slot = atomicAdd(cells[h], 1u);
  if (contact.mode == WEFT_CONTACT_SCATTER) entries[slot] = i;
}
