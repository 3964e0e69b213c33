#version 450
// Contact's search, after the hash grid of the step's start positions is built: each vertex lists
// the pairs of primitives sharing no corner that it owns and that the cheap bounds cannot rule out
// of the radius, each pair in the whole cloth exactly once:
//  1. itself against the triangles whose smallest corner is a neighbour u (the vertex of a
//     vertex–triangle pair owns it);
//  2. the edges it owns (is the smaller end of) against the edges owned by a neighbour u after it
//     (the owner of an edge–edge pair's lower edge owns it).
// Each listed pair counts itself into its four corners' incidence rows, which contact_incidence
// turns into each vertex's runs of the pairs it is a corner of; contact_resolve then evaluates them.
// The search and the evaluation are apart because a device that runs its lanes in lock step
// (lavapipe always, any GPU within a warp) pays for the exact tests of every candidate a neighbour
// lane visits: in one kernel the pile's contact took 47 ms a step on lavapipe before any pair came
// near, almost all of it exact tests of pairs the bounds had already ruled out.
// A pair whose corners' boxes lie the list's reach apart is not listed (vertexTriangleBeyond,
// edgeEdgeBeyond: the resolve's own cull): the spheres' bounds leave a third to a half of the listed
// pairs that far in a pile, and each would cost its corners an incidence a step.
// Pairs past the owner's slots (contact.candidateSlots) are not listed; the smallest lower bound on
// their distances (sphereGap) is, at each of their corners (candidateCounts' z, by atomicMin), and
// limits those corners' moves as their distances would.
// The list reaches past the radius by the skin (contactListReach) and serves the steps after this
// one while it holds (contactListHolds): in those steps this pass returns at once.
// Lane k takes the hash's k-th entry, not vertex k: the entries lie in cell order, so the lanes of
// one subgroup, which run in lock step, visit the same cells and neighbours and share their loads
// and their loop counts (the pile's find on lavapipe: 24.0 -> 20.2 ms a step, the same motion to the
// byte). Each vertex still lists its own pairs in its own slots, so the list does not depend on it.
// Mirrors contactSearchVertex() in solver/contact/contact.cpp, which takes the walk's distance test and the
// edge–edge tests in vector lanes and lists the same pairs in the same order.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "contact_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

// A pair past the slots: the lower bound on its distance, at each of its corners.
bool crowded = false;
void dropPair(uvec4 corners, float gap, float radius) {
  crowded = crowded || gap < radius;
  uint bits = floatBitsToUint(gap);
  atomicMin(candidateCounts[corners.x].z, bits);
  atomicMin(candidateCounts[corners.y].z, bits);
  atomicMin(candidateCounts[corners.z].z, bits);
  atomicMin(candidateCounts[corners.w].z, bits);
}
// A listed pair counts itself into its corners' incidence rows of its kind (vertex–triangle rows
// first, then edge–edge).
void countPair(uvec4 corners, bool edges) {
  uint rows = edges ? contact.particleCount : 0u;
  atomicAdd(incidenceRows[rows + corners.x], 1u);
  atomicAdd(incidenceRows[rows + corners.y], 1u);
  atomicAdd(incidenceRows[rows + corners.z], 1u);
  atomicAdd(incidenceRows[rows + corners.w], 1u);
}

void main() {
  uint thread = globalIndex();
  if (thread >= contact.particleCount || contactListKept()) return;
  uint i = entries[thread];
  vec4 si = start[i];
  listedStart[i] = si;
  if (i == 0u) atomicAdd(scalars.searchSteps, 1u);
  float radius = contactListReach(contact.radius);  // the list's reach: the radius and the skin
  float longest = contactLongestEdge();
  float cellSize = contactListCellSize(contact.radius, longest);
  uint at = i * contact.candidateSlots;
  uint triangles = 0u;  // vertex–triangle pairs listed, from slot 0 up
  uint edges = 0u;      // edge–edge pairs listed, from the last slot down
  ivec3 home = contactCell(si.xyz, cellSize);
  uint ownedBegin = topology[contact.ownedEdgeRowsAt + i];
  uint ownedEnd = topology[contact.ownedEdgeRowsAt + i + 1u];
  uint edgeSpheresAt = contact.triangleCount;
  // The longest edge it owns: every such edge lies within it of the vertex.
  float ownLongest = 0.0;
  for (uint e = ownedBegin; e < ownedEnd; ++e) ownLongest = max(ownLongest, 2.0 * spheres[edgeSpheresAt + e].w);
  float reach2 = cellSize * cellSize;
  float nearReach2 = (radius + longest) * (radius + longest);
  uint seen[27];
  uint seenCount = 0u;
  for (int dz = -1; dz <= 1; ++dz)
  for (int dy = -1; dy <= 1; ++dy)
  for (int dx = -1; dx <= 1; ++dx) {
    uint h = contactBucket(home + ivec3(dx, dy, dz), contact.tableSize);
    bool again = false;  // two of the 27 cells in one bucket: its vertices are visited once
    for (uint b = 0u; b < seenCount; ++b) again = again || seen[b] == h;
    if (again) continue;
    seen[seenCount++] = h;
    uint first = h > 0u ? cells[h - 1u] : 0u;
    for (uint k = first; k < cells[h]; ++k) {
      uint u = entries[k];
      vec4 su = start[u];
      vec3 gap = su.xyz - si.xyz;
      float apart2 = dot(gap, gap);
      if (u == i || apart2 >= reach2) continue;
      if (apart2 < nearReach2) {  // this vertex within the radius of a triangle of u's
        for (uint t = topology[contact.ownedTriangleRowsAt + u]; t < topology[contact.ownedTriangleRowsAt + u + 1u]; ++t) {
          if (sphereBeyond(si.xyz, spheres[t], radius)) continue;
          uvec3 c = contactTriangle(t);
          if (c.x == i || c.y == i || c.z == i) continue;
          if (vertexTriangleBeyond(si.xyz, start[c.x].xyz, start[c.y].xyz, start[c.z].xyz, radius)) continue;  // by their boxes
          if (triangles + edges < contact.candidateSlots) {
            candidates[at + triangles++] = uvec2(i, t);
            countPair(uvec4(i, c), false);
          } else {
            dropPair(uvec4(i, c), sphereGap(si.xyz, spheres[t]), radius);
          }
        }
      }
      if (u < i) continue;  // its edges are before this vertex's: their owner lists the pairs
      for (uint f = topology[contact.ownedEdgeRowsAt + u]; f < topology[contact.ownedEdgeRowsAt + u + 1u]; ++f) {
        vec4 fSphere = spheres[edgeSpheresAt + f];
        if (sphereBeyond(si.xyz, fSphere, radius + ownLongest)) continue;  // every edge it owns is within ownLongest of it
        uvec2 q = contactEdge(f);
        vec4 q0 = start[q.x], q1 = start[q.y];
        vec3 fAlong = q1.xyz - q0.xyz;
        float fInvLength2 = fSphere.w > 0.0 ? 0.25 / (fSphere.w * fSphere.w) : 0.0;
        for (uint e = ownedBegin; e < ownedEnd; ++e) {
          vec4 eSphere = spheres[edgeSpheresAt + e];
          float eReach = radius + eSphere.w;  // e lies within its half length of its middle
          float middleGap2 = pointSegmentDistance2(eSphere.xyz, q0.xyz, fAlong, fInvLength2);
          if (middleGap2 >= eReach * eReach) continue;
          uvec2 p = contactEdge(e);
          if (p.x == q.x || p.x == q.y || p.y == q.x || p.y == q.y) continue;
          vec4 p0 = start[p.x], p1 = start[p.y];
          float eInvLength2 = eSphere.w > 0.0 ? 0.25 / (eSphere.w * eSphere.w) : 0.0;
          float fReach = radius + fSphere.w;
          if (pointSegmentDistance2(fSphere.xyz, p0.xyz, p1.xyz - p0.xyz, eInvLength2) >= fReach * fReach) continue;
          if (edgeEdgeBeyond(p0.xyz, p1.xyz, q0.xyz, q1.xyz, radius)) continue;  // by their boxes
          if (triangles + edges < contact.candidateSlots) {
            candidates[at + contact.candidateSlots - 1u - edges++] = uvec2(e, f);
            countPair(uvec4(p, q), true);
          } else {
            dropPair(uvec4(p, q), max(sqrt(middleGap2) - eSphere.w, 0.0), radius);
          }
        }
      }
    }
  }
  if (crowded) atomicAdd(scalars.crowdedVertices, 1u);
  candidateCounts[i].x = triangles;  // z is the corners' atomicMin of dropped pairs
  candidateCounts[i].y = edges;
}
