// Buffer declarations shared by the contact kernels (contact_hash, contact_scan, contact_search,
// contact_incidence, contact_pairs, contact_resolve).
// A kernel uses what it needs; bindings it never touches are dropped by the compiler.
#ifndef WEFT_CONTACT_BINDINGS_GLSL
#define WEFT_CONTACT_BINDINGS_GLSL

#include "shared.h"

layout(push_constant) uniform ContactPush { ContactParams contact; };

layout(std430, binding = WEFT_BIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = WEFT_BIND_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = WEFT_BIND_POSITIONS_OUT) writeonly buffer PositionsOut { vec4 positionsOut[]; };
layout(std430, binding = WEFT_BIND_VELOCITIES_OUT) writeonly buffer VelocitiesOut { vec4 velocitiesOut[]; };
layout(std430, binding = WEFT_BIND_CONTACT_START) readonly buffer Start { vec4 start[]; };
layout(std430, binding = WEFT_BIND_CONTACT_LISTED) buffer Listed { vec4 listedStart[]; };
layout(std430, binding = WEFT_BIND_CONTACT_TOPOLOGY) readonly buffer Topology { uint topology[]; };
layout(std430, binding = WEFT_BIND_CONTACT_CELLS) buffer Cells { uint cells[]; };
layout(std430, binding = WEFT_BIND_CONTACT_ENTRIES) buffer Entries { uint entries[]; };
layout(std430, binding = WEFT_BIND_CONTACT_SPHERES) buffer Spheres { vec4 spheres[]; };
layout(std430, binding = WEFT_BIND_CONTACT_SCALARS) buffer Scalars { ContactScalars scalars; };
layout(std430, binding = WEFT_BIND_CONTACT_MARKS) buffer Marks { uint marks[]; };
layout(std430, binding = WEFT_BIND_CONTACT_PAIRS) buffer ContactPairs { Element contactPairs[]; };
layout(std430, binding = WEFT_BIND_CONTACT_PAIR_COUNTS) writeonly buffer ContactPairCounts { uint contactPairCounts[]; };
layout(std430, binding = WEFT_BIND_CONTACT_CANDIDATES) buffer Candidates { uvec2 candidates[]; };
layout(std430, binding = WEFT_BIND_CONTACT_CANDIDATE_COUNTS) buffer CandidateCounts { uvec4 candidateCounts[]; };
layout(std430, binding = WEFT_BIND_CONTACT_INCIDENCE_ROWS) buffer IncidenceRows { uint incidenceRows[]; };
layout(std430, binding = WEFT_BIND_CONTACT_INCIDENCES) buffer Incidences { uint incidences[]; };
layout(std430, binding = WEFT_BIND_CONTACT_PAIR_LIVE) buffer PairLive { uint pairLive[]; };

float contactLongestEdge() { return uintBitsToFloat(scalars.maxEdgeBits); }
// The step's drift since the candidates were listed (contact_hash's WEFT_CONTACT_DRIFT pass).
float contactDrift() {
  vec3 low = vec3(orderedBitsFloat(scalars.driftLow[0]), orderedBitsFloat(scalars.driftLow[1]), orderedBitsFloat(scalars.driftLow[2]));
  vec3 high = vec3(orderedBitsFloat(scalars.driftHigh[0]), orderedBitsFloat(scalars.driftHigh[1]), orderedBitsFloat(scalars.driftHigh[2]));
  return contactDriftOf(low, high);
}
// true when this step evaluates an earlier search's candidates: the hash and the search stand aside.
bool contactListKept() { return contactListHolds(contactDrift(), contact.radius); }
// Triangle t's corners and edge e's ends (ContactParams' offsets; contactTriangle/contactEdge in solver/contact/contact.cpp).
uvec3 contactTriangle(uint t) {
  uint at = contact.trianglesAt + 3u * t;
  return uvec3(topology[at], topology[at + 1u], topology[at + 2u]);
}
uvec2 contactEdge(uint e) { return uvec2(topology[contact.edgesAt + 2u * e], topology[contact.edgesAt + 2u * e + 1u]); }
// The corners of listed pair `id` (contact_search's slot): a vertex and a triangle's, or two edges' ends.
uvec4 contactPairCorners(uint id, bool edges) {
  uvec2 pair = candidates[id];
  if (!edges) return uvec4(pair.x, contactTriangle(pair.y));
  return uvec4(contactEdge(pair.x), contactEdge(pair.y));
}

#endif
