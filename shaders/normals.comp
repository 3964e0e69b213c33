#version 450
// Vertex normals for shading, gathered: each vertex sums the area-weighted normals of the
// triangles around it (CSR list built once on the host). Runs on the solver's position buffer.
#include "shared.h"
#include "common.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;
layout(push_constant) uniform Push { NormalsParams params; };
layout(std430, binding = WEFT_BIND_RENDER_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = WEFT_BIND_RENDER_NORMALS) writeonly buffer Normals { vec4 normals[]; };
layout(std430, binding = WEFT_BIND_RENDER_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = WEFT_BIND_RENDER_VERTEX_TRI_ROWS) readonly buffer Rows { uint rows[]; };
layout(std430, binding = WEFT_BIND_RENDER_VERTEX_TRIS) readonly buffer Tris { uint vertexTris[]; };

void main() {
  uint i = globalIndex();
  if (i >= params.vertexCount) return;
  vec3 sum = vec3(0.0);
  for (uint k = rows[i]; k < rows[i + 1]; ++k) {
    uint t = vertexTris[k];
    vec3 a = positions[triangles[3 * t]].xyz;
    vec3 b = positions[triangles[3 * t + 1]].xyz;
    vec3 c = positions[triangles[3 * t + 2]].xyz;
    sum += cross(b - a, c - a);  // length = twice the area: larger faces weigh more
  }
  float len = length(sum);
  normals[i] = vec4(len > 1e-20 ? sum / len : vec3(0.0, 1.0, 0.0), 0.0);
}
