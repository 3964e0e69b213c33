#version 450
// The incidence table: each pair contact_search listed, handed to its four corners, so that
// contact_resolve can evaluate at each vertex every pair it is a corner of (contact.mode):
//  WEFT_CONTACT_INCIDENCE_SCATTER: after contact_scan turned the search's counts into starts, each
//    owner puts the id of each of its pairs (its slot in the candidate buffer) in the next place of
//    each corner's run of the pair's kind, which leaves every row holding its run's end. The runs
//    come in the order the atomics happened to take: the vertex sums its shares exactly
//    (ContactSums) and keeps its pairs by a total order (KeptPairs), so no sort is needed;
//  WEFT_CONTACT_PAIR_CULL, in every step: each owner tests each of its pairs against the radius once,
//    by their boxes and then their nearest points (vertexTrianglePairBeyond, edgeEdgePairBeyond), for
//    its corners to read as a bit.
// The scatter stands aside while an earlier search's list holds (contactListHolds).
// Mirrors buildContactIncidence() and evaluateListedPairs() in solver/contact.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "contact_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void place(uint row, uint id) { incidences[atomicAdd(incidenceRows[row], 1u)] = id; }

// Whether listed pair `id` lies beyond the radius at the step's start.
bool pairBeyond(uint id, bool edges) {
  uvec4 v = contactPairCorners(id, edges);
  if (edges) return edgeEdgePairBeyond(start[v.x].xyz, start[v.y].xyz, start[v.z].xyz, start[v.w].xyz, contact.radius);
  return vertexTrianglePairBeyond(start[v.x].xyz, start[v.y].xyz, start[v.z].xyz, start[v.w].xyz, contact.radius);
}

void main() {
  uint i = globalIndex();
  if (i >= contact.particleCount) return;
  uvec4 counts = candidateCounts[i];
  uint at = i * contact.candidateSlots;
  if (contact.mode == WEFT_CONTACT_PAIR_CULL) {  // the owner's words that hold listed slots, slot by slot
    uint words = contact.candidateSlots / 32u;
    uint triangleWords = (counts.x + 31u) / 32u;  // then the words of the edge–edge pairs at the top
    uint edgeWordsFrom = max((contact.candidateSlots - counts.y) / 32u, triangleWords);
    for (uint w = 0u; w < words; ++w) {
      if (w >= triangleWords && w < edgeWordsFrom) continue;  // no listed slot
      uint bits = 0u;
      for (uint b = 0u; b < 32u; ++b) {
        uint slot = 32u * w + b;
        bool edges = slot >= contact.candidateSlots - counts.y;
        if ((slot < counts.x || edges) && !pairBeyond(at + slot, edges)) bits |= 1u << b;
      }
      pairLive[at / 32u + w] = bits;
    }
    return;
  }
  if (contactListKept()) return;
  for (uint k = 0u; k < counts.x + counts.y; ++k) {  // WEFT_CONTACT_INCIDENCE_SCATTER
    bool edges = k >= counts.x;
    uint id = at + (edges ? contact.candidateSlots - 1u - (k - counts.x) : k);
    uvec4 corners = contactPairCorners(id, edges);
    uint rows = edges ? contact.particleCount : 0u;
    place(rows + corners.x, id);
    place(rows + corners.y, id);
    place(rows + corners.z, id);
    place(rows + corners.w, id);
  }
}
