#version 450
// Finds the springs past their breaking length after a frame: each particle checks the springs of
// its row whose other end has a larger index (so each spring once) and appends the broken ones'
// model indices to the list. The host reads the count after the frame and, if any broke, edits the
// topology (solver/model/tearing.h). Mirrors detectTearsCpu() in solver/model/tearing.cpp, which lists the same
// springs; the order of the list differs (atomics), so the host sorts it before use.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"

layout(std430, binding = WEFT_BIND_TEAR_LIMITS) readonly buffer TearLimits { TearLimit tearLimits[]; };
layout(std430, binding = WEFT_BIND_TEAR_LIST) buffer TearList { uint tearCount; uint tornSprings[]; };

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec3 xi = positions[i].xyz;
  for (uint s = springRows[i]; s < springRows[i + 1]; ++s) {
    uint j = springLinks[s].other;
    if (j <= i || !springTears(length(xi - positions[j].xyz), tearLimits[s])) continue;
    // The list has room for every tearing spring, so no slot is ever past its end.
    uint slot = atomicAdd(tearCount, 1u);
    tornSprings[slot] = tearLimits[s].spring;
  }
}
