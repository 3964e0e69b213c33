#version 450
// The host's own cloth pipeline: weft's buffers bound as vertex and index buffers.
layout(location = 0) in vec4 position;  // GpuCloth::positionBuffer(): xyz m, w inverse mass
layout(location = 1) in vec4 normal;    // GpuCloth::normalBuffer()
layout(push_constant) uniform Push { mat4 viewProjection; vec4 color; } push;
layout(location = 0) out vec3 outNormal;

void main() {
  outNormal = normal.xyz;
  gl_Position = push.viewProjection * vec4(position.xyz, 1.0);
}
