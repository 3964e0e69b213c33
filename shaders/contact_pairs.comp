#version 450
// Each listed pair once a step, by its owner (the vertex whose slots contact_search listed it in),
// before contact_resolve takes it at its four corners (contact.mode):
//  WEFT_CONTACT_PAIR_CULL: its cull, whether it lies beyond the radius at the step's start, by its
//    boxes and then its nearest points (vertexTrianglePairBeyond, edgeEdgePairBeyond), kept as a live
//    bit a slot; and for the live ones, their state (vertexTriangleState, edgeEdgeState: the pair at
//    the step's start and at its corners' targets), stored once from the room the owner takes with
//    one atomic, and a count in each corner's live row of the pair's kind;
//  WEFT_CONTACT_LIVE_SCATTER: after contact_scan turned those counts into starts, each live pair's
//    id, state's place and the corner's place among its corners into the next place of each corner's
//    live run (liveEntry).
// A pile lists hundreds of pairs a vertex and a dozen of them are live: the resolve then walks a
// dozen runs' entries and reads each state, where it walked every listed pair and evaluated the live
// ones at each corner, with each corner's collider tests. A step whose live pairs pass
// ContactParams::pairStateCapacity stores what fits and scatters nothing: its resolve takes the
// whole incidence table instead (contact_resolve's livePairsStored).
// Mirrors evaluateListedPairs() in solver/contact/contact.cpp, which evaluates each pair once as well.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "contact_pair_states.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

// Whether listed pair `id` lies beyond the radius at the step's start.
bool pairBeyond(uint id, bool edges) {
  uvec4 v = contactPairCorners(id, edges);
  if (edges) return edgeEdgePairBeyond(start[v.x].xyz, start[v.y].xyz, start[v.z].xyz, start[v.w].xyz, contact.radius);
  return vertexTrianglePairBeyond(start[v.x].xyz, start[v.y].xyz, start[v.z].xyz, start[v.w].xyz, contact.radius);
}

// A walk over the owner's live pairs, slot by slot in the words of its live bits: the k-th it meets
// has state k from the owner's first.
struct LiveWalk {
  uint at;    // the owner's first slot's id
  uint word;  // the word being walked, and its bits not yet met
  uint bits;
};
LiveWalk liveWalk(uint at) { return LiveWalk(at, 0u, pairLive[at / 32u]); }
// The next live pair's id into `id`; false when none is left.
bool nextLivePair(inout LiveWalk walk, out uint id) {
  while (walk.bits == 0u) {
    if (++walk.word == contact.candidateSlots / 32u) return false;
    walk.bits = pairLive[walk.at / 32u + walk.word];
  }
  id = walk.at + 32u * walk.word + uint(findLSB(walk.bits));
  walk.bits &= walk.bits - 1u;
  return true;
}

void main() {
  uint i = globalIndex();
  if (contact.mode == WEFT_CONTACT_LIVE_SCATTER && i == 0u && !livePairsStored()) atomicAdd(scalars.unstoredSteps, 1u);
  if (i >= contact.particleCount) return;
  uvec4 counts = candidateCounts[i];
  uint at = i * contact.candidateSlots;
  uint edgeSlotsFrom = at + contact.candidateSlots - counts.y;  // the edge–edge pairs' ids
  if (contact.mode == WEFT_CONTACT_LIVE_SCATTER) {
    if (!livePairsStored()) return;
    LiveWalk walk = liveWalk(at);
    uint id;
    for (uint k = pairStateBases[i]; nextLivePair(walk, id); ++k) {
      uvec4 v = contactPairCorners(id, id >= edgeSlotsFrom);
      uint rows = id >= edgeSlotsFrom ? contact.particleCount : 0u;
      liveIncidences[atomicAdd(liveRows[rows + v.x], 1u)] = liveEntry(id, k, 0u);
      liveIncidences[atomicAdd(liveRows[rows + v.y], 1u)] = liveEntry(id, k, 1u);
      liveIncidences[atomicAdd(liveRows[rows + v.z], 1u)] = liveEntry(id, k, 2u);
      liveIncidences[atomicAdd(liveRows[rows + v.w], 1u)] = liveEntry(id, k, 3u);
    }
    return;
  }
  // WEFT_CONTACT_PAIR_CULL: the cull, slot by slot, in the words that hold listed slots.
  uint triangleWords = (counts.x + 31u) / 32u;  // then the words of the edge–edge pairs at the top
  uint edgeWordsFrom = max((contact.candidateSlots - counts.y) / 32u, triangleWords);
  uint live = 0u;
  for (uint w = 0u; w < contact.candidateSlots / 32u; ++w) {
    uint bits = 0u;
    if (w < triangleWords || w >= edgeWordsFrom) {
      for (uint b = 0u; b < 32u; ++b) {
        uint slot = 32u * w + b;
        bool edges = slot >= contact.candidateSlots - counts.y;
        if ((slot < counts.x || edges) && !pairBeyond(at + slot, edges)) bits |= 1u << b;
      }
    }
    pairLive[at / 32u + w] = bits;
    live += uint(bitCount(bits));
  }
  if (live == 0u) return;
  uint first = atomicAdd(scalars.pairStates, live);
  pairStateBases[i] = first;
  LiveWalk walk = liveWalk(at);
  uint id;
  for (uint k = first; nextLivePair(walk, id); ++k) {
    bool edges = id >= edgeSlotsFrom;
    uvec4 v = contactPairCorners(id, edges);
    uint rows = edges ? contact.particleCount : 0u;
    atomicAdd(liveRows[rows + v.x], 1u);
    atomicAdd(liveRows[rows + v.y], 1u);
    atomicAdd(liveRows[rows + v.z], 1u);
    atomicAdd(liveRows[rows + v.w], 1u);
    if (k < contact.pairStateCapacity) storePairState(k, evaluatePair(v, edges));
  }
}
