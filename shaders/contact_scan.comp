#version 450
// The bucket counts of contact_hash into starts (an exclusive prefix sum), in one workgroup: each
// thread sums a run of buckets, the workgroup scans the 256 sums, each thread writes its run's
// starts. The table has about one bucket per vertex, so one pass of N / 256 reads per thread.
// Mirrors the scan in solver/contact.cpp.
#include "shared.h"
#include "physics.h"
#include "contact_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

shared uint sums[WEFT_WORKGROUP_SIZE];

void main() {
  if (contactListKept()) return;  // one workgroup: all of it or none
  uint t = gl_LocalInvocationID.x;
  uint chunk = (contact.tableSize + WEFT_WORKGROUP_SIZE - 1u) / WEFT_WORKGROUP_SIZE;
  uint begin = min(t * chunk, contact.tableSize);
  uint end = min(begin + chunk, contact.tableSize);
  uint total = 0u;
  for (uint h = begin; h < end; ++h) total += cells[h];
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
    uint count = cells[h];
    cells[h] = running;
    running += count;
  }
}
