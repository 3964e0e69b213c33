// A listed pair's state this step (ContactPairState, contact.h) as the contact pass takes it, its
// stored copy (WEFT_BIND_CONTACT_PAIR_STATES) and the live incidence table: contact_pairs evaluates
// each live pair once and hands it to its corners, contact_resolve reads it at each of them.
#ifndef WEFT_CONTACT_PAIR_STATES_GLSL
#define WEFT_CONTACT_PAIR_STATES_GLSL

#include "shared.h"
#include "physics.h"
#include "contact_bindings.glsl"
#include "collider_bindings.glsl"

layout(std430, binding = WEFT_BIND_CONTACT_PAIR_STATES) buffer PairStates { vec4 pairStates[]; };
layout(std430, binding = WEFT_BIND_CONTACT_PAIR_STATE_BASES) buffer PairStateBases { uint pairStateBases[]; };
layout(std430, binding = WEFT_BIND_CONTACT_LIVE_ROWS) buffer LiveRows { uint liveRows[]; };
layout(std430, binding = WEFT_BIND_CONTACT_LIVE_INCIDENCES) buffer LiveIncidences { uvec2 liveIncidences[]; };

// An entry of a corner's live run: the pair's id, and its state's place with the corner's place
// among the pair's corners (0..3) in the low WEFT_CONTACT_LIVE_CORNER_BITS, so that the corner need
// not look the pair's corners up (contactPairCorners) unless it needs them. The places stay below
// 2^(32 - WEFT_CONTACT_LIVE_CORNER_BITS) (contactPairStateCapacity).
uvec2 liveEntry(uint id, uint stateAt, uint corner) { return uvec2(id, (stateAt << WEFT_CONTACT_LIVE_CORNER_BITS) | corner); }
uint liveEntryState(uvec2 entry) { return entry.y >> WEFT_CONTACT_LIVE_CORNER_BITS; }
uint liveEntryCorner(uvec2 entry) { return entry.y & ((1u << WEFT_CONTACT_LIVE_CORNER_BITS) - 1u); }

// Whether the step's live pairs all found room (contact_pairs): then their states are stored and the
// live incidence table holds them; else each is evaluated at its corners from the whole table.
bool livePairsStored() { return scalars.pairStates <= contact.pairStateCapacity; }

// Corner u of a pair as the pass takes it (contactPassCorner): held where it rests on a collider.
vec4 passCorner(uint u) { return contactPassCorner(start[u], restsOnAnyCollider(start[u].xyz, contact.colliderCount)); }

// The pair with corners v (vertex v.x against triangle v.yzw, or edge v.xy against edge v.zw) at the
// step's start and at its corners' targets.
ContactPairState evaluatePair(uvec4 v, bool edges) {
  vec4 c0 = passCorner(v.x), c1 = passCorner(v.y), c2 = passCorner(v.z), c3 = passCorner(v.w);
  vec3 t0 = positions[v.x].xyz, t1 = positions[v.y].xyz, t2 = positions[v.z].xyz, t3 = positions[v.w].xyz;
  return edges ? edgeEdgeState(c0, c1, c2, c3, t0, t1, t2, t3) : vertexTriangleState(c0, c1, c2, c3, t0, t1, t2, t3);
}

// State k of the stored ones, as WEFT_CONTACT_PAIR_STATE_VEC4S vec4s: g, w, (n, d), (slip, along), (denom).
void storePairState(uint k, ContactPairState s) {
  uint at = WEFT_CONTACT_PAIR_STATE_VEC4S * k;
  pairStates[at] = s.g;
  pairStates[at + 1u] = s.w;
  pairStates[at + 2u] = vec4(s.n, s.d);
  pairStates[at + 3u] = vec4(s.slip, s.along);
  pairStates[at + 4u] = vec4(s.denom, 0.0, 0.0, 0.0);
}
ContactPairState loadPairState(uint k) {
  uint at = WEFT_CONTACT_PAIR_STATE_VEC4S * k;
  ContactPairState s;
  s.g = pairStates[at];
  s.w = pairStates[at + 1u];
  vec4 nd = pairStates[at + 2u];
  vec4 sa = pairStates[at + 3u];
  s.n = nd.xyz;
  s.d = nd.w;
  s.slip = sa.xyz;
  s.along = sa.w;
  s.denom = pairStates[at + 4u].x;
  return s;
}

#endif
