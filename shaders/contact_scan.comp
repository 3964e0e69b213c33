#version 450
// An exclusive prefix sum in one workgroup, of the hash's bucket counts (contact_hash) or, in
// WEFT_CONTACT_INCIDENCE_SCAN and WEFT_CONTACT_LIVE_SCAN, of the search's incidence counts or the
// live pairs' (contact_pairs): each thread sums a run of entries,
// the workgroup scans the 256 sums, each thread writes its run's starts. The table has about one
// bucket per vertex, so one pass of N / 256 reads per thread.
// Mirrors the scans in solver/contact/contact.cpp.
#include "shared.h"
#include "physics.h"
#include "contact_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

shared uint sums[WEFT_WORKGROUP_SIZE];

// The incidence table's counts and the live one's (contact_pairs) are scanned alike: the host binds
// the live rows where the incidence rows stand.
bool incidence() { return contact.mode == WEFT_CONTACT_INCIDENCE_SCAN || contact.mode == WEFT_CONTACT_LIVE_SCAN; }
uint countAt(uint h) { return incidence() ? incidenceRows[h] : cells[h]; }
void setAt(uint h, uint v) {
  if (incidence()) incidenceRows[h] = v;
  else cells[h] = v;
}

void main() {
  // One workgroup: all of it or none. The live table is made every step.
  if (contact.mode != WEFT_CONTACT_LIVE_SCAN && contactListKept()) return;
  uint size = incidence() ? 2u * contact.particleCount : contact.tableSize;
  uint t = gl_LocalInvocationID.x;
  uint chunk = (size + WEFT_WORKGROUP_SIZE - 1u) / WEFT_WORKGROUP_SIZE;
  uint begin = min(t * chunk, size);
  uint end = min(begin + chunk, size);
  uint total = 0u;
  for (uint h = begin; h < end; ++h) total += countAt(h);
  sums[t] = total;
  barrier();
  for (uint offset = 1u; offset < WEFT_WORKGROUP_SIZE; offset <<= 1u) {  // Hillis-Steele, inclusive
    uint add = t >= offset ? sums[t - offset] : 0u;
    barrier();
    sums[t] += add;
    barrier();
  }
  uint running = sums[t] - total;
  for (uint h = begin; h < end; ++h) {
    uint count = countAt(h);
    setAt(h, running);
    running += count;
  }
}
