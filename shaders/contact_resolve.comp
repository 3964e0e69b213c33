#version 450
// Contact after a step: each vertex gathers, from the hash grid of the step's start positions, every
// pair of primitives sharing no corner that it is a corner of and that lies within the radius:
//  1. itself against the triangles whose smallest corner is a neighbour u;
//  2. a neighbour u against the triangles around itself;
//  3. the edges around itself against the edges whose smaller end is u.
// Each such pair is met exactly once per corner. The nearest limits how far the vertex may move
// (contactBound); those nearer than the thickness push it (the Jacobi average of its shares, weighted by its part in each pair). The
// vertex then moves from its start towards its pushed target, cut to the bound, and its velocity
// takes the same change of move / dt, and its marks record what contact did. When the integrator
// holds contact forces (collectPairs), the vertex also keeps its WEFT_CONTACT_PAIR_SLOTS nearest
// pairs as elements for the next step's solve (contactPairElement). Only the vertex's own entries
// are written.
// Mirrors contactResolveVertex() in solver/contact.cpp, line for line.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "contact_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

uvec3 contactTriangle(uint t) {
  uint at = contact.trianglesAt + 3u * t;
  return uvec3(topology[at], topology[at + 1u], topology[at + 2u]);
}
uvec2 contactEdge(uint e) { return uvec2(topology[contact.edgesAt + 2u * e], topology[contact.edgesAt + 2u * e + 1u]); }
// A particle's own Coulomb coefficients (static, kinetic), or the scene's.
vec2 frictionOf(uint v) {
  vec2 scene = vec2(contact.staticFriction, contact.kineticFriction);
  if (contact.frictionAt == 0u) return scene;
  vec2 f = vec2(uintBitsToFloat(topology[contact.frictionAt + 2u * v]), uintBitsToFloat(topology[contact.frictionAt + 2u * v + 1u]));
  return f.x < 0.0 ? scene : f;
}
// A pair's, between a corner of ours (coefficients `own`) and particle v, a corner of the other
// primitive (whose corners are of one cloth).
vec2 pairFriction(vec2 own, uint v) { return contact.frictionAt == 0u ? own : contactPairFriction(own, frictionOf(v)); }

// The pairs within the radius this vertex keeps for the next implicit solve: those of lowest
// contactKeepRank (contact.h), in the order the search meets them (a higher rank gives up its slot
// to a lower one).
float keptRank[WEFT_CONTACT_PAIR_SLOTS];
uint keptCount = 0u;
void keepPair(uint i, float d, uvec4 nodes, bool edges, uint corner) {
  if (contact.collectPairs == 0u || d >= contact.radius || !(d > 0.0)) return;
  float rank = contactKeepRank(d, edges, nodes, contact.thickness);
  uint slot = keptCount;
  if (keptCount == WEFT_CONTACT_PAIR_SLOTS) {
    slot = 0u;
    for (uint s = 1u; s < WEFT_CONTACT_PAIR_SLOTS; ++s)
      if (keptRank[s] > keptRank[slot]) slot = s;
    if (rank >= keptRank[slot]) return;
  } else {
    ++keptCount;
  }
  keptRank[slot] = rank;
  vec4 x0 = start[nodes.x], x1 = start[nodes.y], x2 = start[nodes.z], x3 = start[nodes.w];
  vec4 g = edges ? edgeEdgeWeights(x0.xyz, x1.xyz, x2.xyz, x3.xyz) : vertexTriangleWeights(x0.xyz, x1.xyz, x2.xyz, x3.xyz);
  contactPairs[i * WEFT_CONTACT_PAIR_SLOTS + slot] =
      contactPairElement(nodes, g, x0, x1, x2, x3, corner, contact.thickness, contact.radius, contact.dt);
}

void main() {
  uint i = globalIndex();
  if (i >= contact.particleCount) return;
  vec4 si = start[i];
  vec4 xi = positions[i];
  vec4 vi = velocities[i];
  float longest = contactLongestEdge();
  float cellSize = contactCellSize(contact.radius, longest);
  float thickness = contact.thickness;
  vec2 reach = vec2(thickness, contact.collectPairs != 0u ? contactForceReach(thickness, contact.radius) : 0.0);
  vec2 ownFriction = frictionOf(i);
  float nearest = contact.radius;
  vec3 push = vec3(0.0);
  float weights = 0.0;
  float weight = 0.0;
  ContactGrip grip = noGrip();
  ivec3 home = contactCell(si.xyz, cellSize);
  uint trisBegin = topology[contact.triangleRowsAt + i];
  uint trisEnd = topology[contact.triangleRowsAt + i + 1u];
  uint edgesBegin = topology[contact.edgeRowsAt + i];
  uint edgesEnd = topology[contact.edgeRowsAt + i + 1u];
  uint edgeSpheresAt = contact.triangleCount;
  // Its longest edge: a tighter cull than the step's.
  float ownLongest = 0.0;
  for (uint k3 = edgesBegin; k3 < edgesEnd; ++k3) ownLongest = max(ownLongest, 2.0 * spheres[edgeSpheresAt + topology[contact.edgeListAt + k3]].w);
  float reach2 = cellSize * cellSize;
  float nearReach2 = (contact.radius + longest) * (contact.radius + longest);
  float ownReach2 = (contact.radius + ownLongest) * (contact.radius + ownLongest);
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
          if (sphereBeyond(si.xyz, spheres[t], contact.radius)) continue;
          uvec3 c = contactTriangle(t);
          if (c.x == i || c.y == i || c.z == i) continue;
          vec4 a = start[c.x], b = start[c.y], d = start[c.z];
          vec4 r = contactVertexTriangle(si, a, b, d, xi.xyz, positions[c.x].xyz, positions[c.y].xyz, positions[c.z].xyz, 0u, reach, pairFriction(ownFriction, c.x), weight, grip);
          keepPair(i, r.x, uvec4(i, c), false, 0u);
          nearest = min(nearest, r.x);
          push += r.yzw;
          weights += weight;
        }
      }
      if (apart2 < ownReach2) {  // u within the radius of a triangle around this vertex
        for (uint k2 = trisBegin; k2 < trisEnd; ++k2) {
          uint t = topology[contact.triangleListAt + k2];
          if (sphereBeyond(su.xyz, spheres[t], contact.radius)) continue;
          uvec3 c = contactTriangle(t);
          if (c.x == u || c.y == u || c.z == u) continue;
          vec4 a = start[c.x], b = start[c.y], d = start[c.z];
          uint corner = c.x == i ? 1u : (c.y == i ? 2u : 3u);
          vec4 r = contactVertexTriangle(su, a, b, d, positions[u].xyz, positions[c.x].xyz, positions[c.y].xyz, positions[c.z].xyz, corner, reach, pairFriction(ownFriction, u), weight, grip);
          keepPair(i, r.x, uvec4(u, c), false, corner);
          nearest = min(nearest, r.x);
          push += r.yzw;
          weights += weight;
        }
      }
      for (uint f = topology[contact.ownedEdgeRowsAt + u]; f < topology[contact.ownedEdgeRowsAt + u + 1u]; ++f) {
        vec4 fSphere = spheres[edgeSpheresAt + f];
        if (sphereBeyond(si.xyz, fSphere, contact.radius + ownLongest)) continue;  // every edge around i is within ownLongest of it
        uvec2 q = contactEdge(f);
        vec4 q0 = start[q.x], q1 = start[q.y];
        vec3 fAlong = q1.xyz - q0.xyz;
        float fInvLength2 = fSphere.w > 0.0 ? 0.25 / (fSphere.w * fSphere.w) : 0.0;
        for (uint k3 = edgesBegin; k3 < edgesEnd; ++k3) {
          uint e = topology[contact.edgeListAt + k3];
          vec4 eSphere = spheres[edgeSpheresAt + e];
          float eReach = contact.radius + eSphere.w;  // e lies within its half length of its middle
          if (pointSegmentDistance2(eSphere.xyz, q0.xyz, fAlong, fInvLength2) >= eReach * eReach) continue;
          uvec2 p = contactEdge(e);
          if (p.x == q.x || p.x == q.y || p.y == q.x || p.y == q.y) continue;
          vec4 p0 = start[p.x], p1 = start[p.y];
          float eInvLength2 = eSphere.w > 0.0 ? 0.25 / (eSphere.w * eSphere.w) : 0.0;
          float fReach = contact.radius + fSphere.w;
          if (pointSegmentDistance2(fSphere.xyz, p0.xyz, p1.xyz - p0.xyz, eInvLength2) >= fReach * fReach) continue;
          vec4 r = contactEdgeEdge(p0, p1, q0, q1, positions[p.x].xyz, positions[p.y].xyz, positions[q.x].xyz, positions[q.y].xyz,
                                 p.x == i ? 0u : 1u, reach, pairFriction(ownFriction, q.x), weight, grip);
          keepPair(i, r.x, uvec4(p, q), true, p.x == i ? 0u : 1u);
          nearest = min(nearest, r.x);
          push += r.yzw;
          weights += weight;
        }
      }
    }
  }
  vec3 target = xi.xyz + push / max(1.0, weights) + contactGripMove(grip);
  float bound = contactBound(nearest, thickness);
  vec3 x = limitMove(si.xyz, target, bound);
  positionsOut[i] = vec4(x, xi.w);
  velocitiesOut[i] = vec4(carryCorrection(vi.xyz, x, xi.xyz, contact.dt), vi.w);
  if (nearest < contact.radius) atomicMin(scalars.minDistanceBits, floatBitsToUint(nearest));
  if (weights > 0.0) atomicAdd(scalars.contactVertices, 1u);
  if (x != target) atomicAdd(scalars.limitedVertices, 1u);
  if (nearest < contact.radius) atomicAdd(scalars.nearVertices, 1u);
  marks[i] |= contactMarks(nearest, contact.radius, weights, x != target, bound);
  contactPairCounts[i] = keptCount;
}
