#version 450
// The incidence table: each pair contact_search listed, handed to its four corners, so that
// contact_resolve can take at each vertex every pair it is a corner of. After contact_scan turned the
// search's counts into starts, each owner puts the id of each of its pairs (its slot in the candidate
// buffer) in the next place of each corner's run of the pair's kind, which leaves every row holding
// its run's end. The runs come in the order the atomics happened to take: the vertex sums its shares
// exactly (ContactSums) and keeps its pairs by a total order (KeptPairs), so no sort is needed.
// It stands aside while an earlier search's list holds (contactListHolds).
// Mirrors buildContactIncidence() in solver/contact/contact.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "contact_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void place(uint row, uint id) { incidences[atomicAdd(incidenceRows[row], 1u)] = id; }

void main() {
  uint i = globalIndex();
  if (i >= contact.particleCount) return;
  uvec4 counts = candidateCounts[i];
  uint at = i * contact.candidateSlots;
  if (contactListKept()) return;
  for (uint k = 0u; k < counts.x + counts.y; ++k) {
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
