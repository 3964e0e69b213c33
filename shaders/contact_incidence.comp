#version 450
// The incidence table: each pair contact_search listed, handed to its four corners, so that
// contact_resolve can evaluate at each vertex every pair it is a corner of (contact.mode):
//  WEFT_CONTACT_INCIDENCE_SCATTER: after contact_scan turned the search's counts into starts, each
//    owner puts the entry of each of its pairs (its slot in the candidate buffer, or-ed with
//    WEFT_CONTACT_INCIDENCE_EDGES for an edge–edge pair) in the next place of each corner's run,
//    which leaves every row holding its run's end;
//  WEFT_CONTACT_INCIDENCE_SORT: each vertex puts its run in increasing entries (a heap sort in place:
//    a run holds a few hundred pairs where the cloth is piled), undoing the order the atomics
//    happened to take, so the vertex sums its pairs' pushes in the CPU's order every time, and meets
//    its vertex–triangle pairs before its edge–edge ones (lanes in lock step then take one branch);
//  WEFT_CONTACT_PAIR_CULL, in every step: each owner tests each of its pairs' boxes against the
//    radius once (vertexTriangleBeyond, edgeEdgeBeyond), for its corners to read as a bit.
// The first two stand aside while an earlier search's list holds (contactListHolds).
// Mirrors buildContactIncidence() and evaluateListedPairs() in solver/contact.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "contact_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void place(uint corner, uint id) { incidences[atomicAdd(incidenceRows[corner], 1u)] = id; }

// Sift the entry at `root` down the max-heap held in incidences[begin, begin + size).
void siftDown(uint begin, uint root, uint size) {
  uint v = incidences[begin + root];
  for (;;) {
    uint child = 2u * root + 1u;
    if (child >= size) break;
    uint c = incidences[begin + child];
    if (child + 1u < size) {
      uint right = incidences[begin + child + 1u];
      if (right > c) {
        child += 1u;
        c = right;
      }
    }
    if (c <= v) break;
    incidences[begin + root] = c;
    root = child;
  }
  incidences[begin + root] = v;
}

// Whether listed pair `id` lies beyond the radius by its boxes at the step's start.
bool pairBeyond(uint id, bool edges) {
  uvec4 v = contactPairCorners(id, edges);
  if (edges) return edgeEdgeBeyond(start[v.x].xyz, start[v.y].xyz, start[v.z].xyz, start[v.w].xyz, contact.radius);
  return vertexTriangleBeyond(start[v.x].xyz, start[v.y].xyz, start[v.z].xyz, start[v.w].xyz, contact.radius);
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
  if (contact.mode == WEFT_CONTACT_INCIDENCE_SCATTER) {
    for (uint k = 0u; k < counts.x + counts.y; ++k) {
      bool edges = k >= counts.x;
      uint id = at + (edges ? contact.candidateSlots - 1u - (k - counts.x) : k);
      uvec4 corners = contactPairCorners(id, edges);
      uint entry = edges ? id | WEFT_CONTACT_INCIDENCE_EDGES : id;
      place(corners.x, entry);
      place(corners.y, entry);
      place(corners.z, entry);
      place(corners.w, entry);
    }
    return;
  }
  uint begin = i > 0u ? incidenceRows[i - 1u] : 0u;
  uint size = incidenceRows[i] - begin;
  if (size < 2u) return;
  for (uint root = size / 2u; root-- > 0u;) siftDown(begin, root, size);
  for (uint last = size - 1u; last > 0u; --last) {
    uint top = incidences[begin];
    incidences[begin] = incidences[begin + last];
    incidences[begin + last] = top;
    siftDown(begin, 0u, last);
  }
}
