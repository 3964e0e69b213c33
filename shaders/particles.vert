#version 450
// Each particle as a small square of constant size on screen, six vertices per particle expanded
// here from the position buffer (no point-size feature needed). params.shape.xy: the square's half
// size in normalised device coordinates.
#include "shared.h"

layout(push_constant) uniform Push { RenderParams params; };
layout(std430, binding = WEFT_BIND_RENDER_POSITIONS) readonly buffer Positions { vec4 positions[]; };

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
  uint particle = uint(gl_VertexIndex) / 6u;
  vec4 clip = params.viewProjection * vec4(positions[particle].xyz, 1.0);
  clip.xy += kCorners[uint(gl_VertexIndex) % 6u] * params.shape.xy * clip.w;
  gl_Position = clip;
}
