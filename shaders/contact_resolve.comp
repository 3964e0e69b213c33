#version 450
// Contact after a step: each vertex takes the listed pairs it is a corner of (contact_search, in
// this step or in an earlier one whose list still holds: contactListHolds), vertex–triangle pairs
// first, then edge–edge, but for those its owner's cull put beyond the radius this step: its live
// runs, each pair as its owner evaluated and stored it (contact_pairs), in whatever order the
// owners' atomics took, which changes no sum (ContactSums) and no kept pair (keptBefore). The nearest
// limits how far the vertex may move (contactBound, with the lower bound of any pairs the search had
// no slot for); those nearer than the thickness push it (the Jacobi average of its shares, weighted
// by its part in each pair). The vertex then moves from its start towards its pushed target, cut to
// the bound (the move first gripped by any collider it rests on: colliderGripAll), and its velocity
// takes the same change of move / dt, and its marks record what contact
// did. When the integrator holds contact forces (collectPairs), the vertex also keeps its
// WEFT_CONTACT_PAIR_SLOTS nearest pairs as elements for the next step's solve (contactPairElement).
// Only the vertex's own entries are written.
// Mirrors evaluateListedPairs() and contactResolveVertex() in solver/contact/contact.cpp, which evaluate each
// pair once, for all four corners, and then sum each vertex's shares: the same arithmetic (each
// corner's share is still taken here, with the corner's own friction).
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "contact_bindings.glsl"
#include "contact_pair_states.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

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

// The pairs within the radius this vertex keeps for the next implicit solve: the least by
// keptBefore (contact.h), whose elements go straight to the vertex's slots, which are put in that
// order at the end (sortKept).
float keptRank[WEFT_CONTACT_PAIR_SLOTS];
uint keptId[WEFT_CONTACT_PAIR_SLOTS];
uint keptCount = 0u;
void keepPair(uint i, float d, uvec4 nodes, bool edges, uint corner, uint id) {
  if (contact.collectPairs == 0u || d >= contact.radius || !(d > 0.0)) return;
  float rank = contactKeepRank(d, edges, nodes, contact.thickness);
  uint slot = keptCount;
  if (keptCount == WEFT_CONTACT_PAIR_SLOTS) {
    slot = 0u;
    for (uint s = 1u; s < WEFT_CONTACT_PAIR_SLOTS; ++s)
      if (keptBefore(keptRank[slot], keptId[slot], keptRank[s], keptId[s])) slot = s;
    if (!keptBefore(rank, id, keptRank[slot], keptId[slot])) return;
  } else {
    ++keptCount;
  }
  keptRank[slot] = rank;
  keptId[slot] = id;
  vec4 x0 = start[nodes.x], x1 = start[nodes.y], x2 = start[nodes.z], x3 = start[nodes.w];
  vec4 g = edges ? edgeEdgeWeights(x0.xyz, x1.xyz, x2.xyz, x3.xyz) : vertexTriangleWeights(x0.xyz, x1.xyz, x2.xyz, x3.xyz);
  contactPairs[i * WEFT_CONTACT_PAIR_SLOTS + slot] =
      contactPairElement(nodes, g, x0, x1, x2, x3, corner, contact.thickness, contact.radius, contact.dt);
}
void sortKept(uint i) {
  for (uint a = 1u; a < keptCount; ++a)
    for (uint b = a; b > 0u && keptBefore(keptRank[b], keptId[b], keptRank[b - 1u], keptId[b - 1u]); --b) {
      float r = keptRank[b];
      keptRank[b] = keptRank[b - 1u];
      keptRank[b - 1u] = r;
      uint k = keptId[b];
      keptId[b] = keptId[b - 1u];
      keptId[b - 1u] = k;
      Element e = contactPairs[i * WEFT_CONTACT_PAIR_SLOTS + b];
      contactPairs[i * WEFT_CONTACT_PAIR_SLOTS + b] = contactPairs[i * WEFT_CONTACT_PAIR_SLOTS + b - 1u];
      contactPairs[i * WEFT_CONTACT_PAIR_SLOTS + b - 1u] = e;
    }
}

// Whether this step's live pairs are stored (livePairsStored): then vertex i walks its live runs
// (contact_pairs' WEFT_CONTACT_LIVE_SCATTER) and reads each pair's state; else it walks every listed
// pair it is a corner of (contact_incidence), passes over those its owner's cull put beyond the
// radius, and evaluates the others itself, which gives the same states.
bool stored;

// Vertex i's runs: its vertex-triangle run, then (edges) its edge-edge run.
uint incidenceBegin(uint i, bool edges) {
  uint row = edges ? contact.particleCount + i : i;
  if (row == 0u) return 0u;
  return stored ? liveRows[row - 1u] : incidenceRows[row - 1u];
}
uint incidenceEnd(uint i, bool edges) {
  uint row = edges ? contact.particleCount + i : i;
  return stored ? liveRows[row] : incidenceRows[row];
}

// Entry m of vertex i's run: false where its owner's cull found the pair beyond the radius; else the
// pair's id, i's corner among its corners, the pair's state at the step's start and targets, and its
// corners v (vertex v.x against triangle v.yzw, or edge v.xy against edge v.zw) where the step needs
// them (each particle's own friction, or pairs kept for the solve): a stored entry names its corner
// and state, and looking the corners up is most of what else it would read.
bool listedPair(uint i, uint m, bool edges, out uint id, out uvec4 v, out uint corner, out ContactPairState pair) {
  v = uvec4(0u);
  if (stored) {
    uvec2 entry = liveIncidences[m];
    id = entry.x;
    corner = liveEntryCorner(entry);
    pair = loadPairState(liveEntryState(entry));
    if (contact.frictionAt != 0u || contact.collectPairs != 0u) v = contactPairCorners(id, edges);
    return true;
  }
  id = incidences[m];
  if ((pairLive[id / 32u] & (1u << (id % 32u))) == 0u) return false;
  v = contactPairCorners(id, edges);
  corner = v.x == i ? 0u : (v.y == i ? 1u : (v.z == i ? 2u : 3u));
  pair = evaluatePair(v, edges);
  return true;
}

// Whether `move` takes vertex i away from every live pair within the hold distance of it
// (contactMovesApart): its pairs evaluated again, only for a held vertex.
bool movesApartFromHolders(uint i, vec3 move) {
  for (uint e = 0u; e < 2u; ++e) {
    bool edges = e != 0u;
    for (uint m = incidenceBegin(i, edges); m < incidenceEnd(i, edges); ++m) {
      uint id, corner;
      uvec4 v;
      ContactPairState pair;
      if (!listedPair(i, m, edges, id, v, corner, pair)) continue;
      if (contactHeldBy(pair.d, contact.thickness) && !contactMovesApart(move, pair, corner, edges)) return false;
    }
  }
  return true;
}

void main() {
  uint i = globalIndex();
  if (i >= contact.particleCount) return;
  stored = livePairsStored();
  vec4 si = start[i];
  vec4 xi = positions[i];
  vec4 vi = velocities[i];
  float thickness = contact.thickness;
  vec2 reach = vec2(thickness, contact.collectPairs != 0u ? contactForceReach(thickness, contact.radius) : 0.0);
  vec2 ownFriction = frictionOf(i);
  float nearest = contact.radius;
  float nearestFree = contact.radius;  // of the pairs beyond the hold distance (contactMovesApart)
  float weight = 0.0;
  ContactSums sums = noSums();
  uvec4 listed = candidateCounts[i];
  // Its vertex–triangle pairs, then its edge–edge pairs (contact_incidence's two runs), each passed
  // over when its owner's cull found it beyond the radius; the shares summed exactly (ContactSums),
  // since the runs come in the order the device's atomics took.
  for (uint m = incidenceBegin(i, false); m < incidenceEnd(i, false); ++m) {  // vertex v.x against triangle v.yzw
    uint id, corner;
    uvec4 v;
    ContactPairState pair;
    if (!listedPair(i, m, false, id, v, corner, pair)) continue;
    ContactGrip grip = noGrip();
    vec4 r = contactCornerShare(pair, corner, reach, pairFriction(ownFriction, corner == 0u ? v.y : v.x), weight, grip);
    keepPair(i, r.x, v, false, corner, id);
    nearest = min(nearest, r.x);
    if (!contactHeldBy(r.x, thickness)) nearestFree = min(nearestFree, r.x);
    addShare(sums, r, weight, grip);
  }
  for (uint m = incidenceBegin(i, true); m < incidenceEnd(i, true); ++m) {  // edge v.xy against edge v.zw; i an end of either
    uint id, corner;
    uvec4 v;
    ContactPairState pair;
    if (!listedPair(i, m, true, id, v, corner, pair)) continue;
    ContactGrip grip = noGrip();
    vec4 r = contactCornerShare(pair, corner, reach, pairFriction(ownFriction, corner < 2u ? v.z : v.x), weight, grip);
    // Kept as the keeper's edge against the other (the rank's hash and the element take that order).
    if (corner < 2u) keepPair(i, r.x, v, true, corner, id);
    else keepPair(i, r.x, uvec4(v.z, v.w, v.x, v.y), true, corner - 2u, id);
    nearest = min(nearest, r.x);
    if (!contactHeldBy(r.x, thickness)) nearestFree = min(nearestFree, r.x);
    addShare(sums, r, weight, grip);
  }
  if (contact.collectPairs != 0u) sortKept(i);
  vec3 push = sumsPush(sums);
  float weights = fixedValue(sums.weights);
  ContactGrip grip = sumsGrip(sums);
  vec3 pushed = xi.xyz + push / max(1.0, weights) + contactGripMove(grip);
  vec3 target = xi.xyz + colliderGripAll(xi.xyz, pushed - xi.xyz, contact.colliderCount);
  // Pairs past the list lay farther than its reach when listed, the dropped ones farther than their
  // bound; each has closed by at most twice the drift since.
  float dropped = contactDroppedNow(uintBitsToFloat(listed.z), contactListDrift(contactDrift(), contact.radius));
  float bound = contactBound(min(nearest, dropped), thickness);
  float free = min(nearestFree, dropped);
  if (bound == 0.0 && !contactHeldBy(free, thickness) && movesApartFromHolders(i, target - si.xyz)) bound = contactBound(free, thickness);
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
