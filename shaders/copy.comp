#version 450
// The bandwidth yardstick of `weft bench`: a plain vec4 copy, the fastest a pass that reads and
// writes one vec4 per particle can be on this device.
#include "shared.h"
#include "common.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;
layout(push_constant) uniform Push { StepParams params; };
layout(std430, binding = WEFT_BIND_POSITIONS) readonly buffer Src { vec4 src[]; };
layout(std430, binding = WEFT_BIND_POSITIONS_OUT) writeonly buffer Dst { vec4 dst[]; };

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  dst[i] = src[i];
}
