#version 450
// Before a step: every particle a handle carries is placed where the handle's pose at the step's
// end takes it. It stays pinned (inverse mass 0), so the step solves the cloth around it there.
// Mirrors moveHandlesCpu() in solver/passes/handles.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

layout(push_constant) uniform HandlePush { HandleParams handle; };
layout(std430, binding = WEFT_BIND_POSITIONS) buffer Positions { vec4 positions[]; };
layout(std430, binding = WEFT_BIND_VELOCITIES) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = WEFT_BIND_HANDLE_VERTICES) readonly buffer Vertices { HandleVertex vertices[]; };
layout(std430, binding = WEFT_BIND_HANDLE_POSES) readonly buffer Poses { HandlePose poses[]; };

void main() {
  uint k = globalIndex();
  if (k >= handle.vertexCount) return;
  HandleVertex carried = vertices[k];
  positions[carried.particle] = vec4(handleTarget(poses[carried.handle], carried.rest.xyz), 0.0);
  velocities[carried.particle] = vec4(0.0);
}
