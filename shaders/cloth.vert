#version 450
// Draws the cloth straight from the solver's position buffer (vertex pulling, no copy).
#include "shared.h"

layout(push_constant) uniform Push { RenderParams params; };
layout(std430, binding = WEFT_BIND_RENDER_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = WEFT_BIND_RENDER_NORMALS) readonly buffer Normals { vec4 normals[]; };
layout(std430, binding = WEFT_BIND_RENDER_TRIANGLES) readonly buffer Triangles { uint triangles[]; };

layout(location = 0) out vec3 outNormal;

void main() {
  uint vertex = triangles[gl_VertexIndex];
  vec3 world = positions[vertex].xyz;
  outNormal = normals[vertex].xyz;
  gl_Position = params.viewProjection * vec4(world, 1.0);
}
