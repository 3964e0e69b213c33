#version 450
// Lambert shading for colliders; planes get a 10 cm checker so motion and scale read at a glance.
#include "shared.h"

layout(push_constant) uniform Push { RenderParams params; };
layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec3 inWorld;
layout(location = 0) out vec4 outColor;

void main() {
  vec3 n = normalize(inNormal);
  if (!gl_FrontFacing) n = -n;
  vec3 base = params.color.rgb;
  if (uint(params.shape.w) == WEFT_SOLID_PLANE) {
    // Cells in the plane's own 2-D coordinates: a 3-D world-space checker would flicker where the
    // plane lies on a cell boundary (y = 0 for the usual ground).
    vec3 normal = normalize(params.shape.xyz);
    vec3 helper = abs(normal.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(helper, normal));
    vec3 w = cross(normal, u);
    ivec2 cell = ivec2(floor(vec2(dot(inWorld, u), dot(inWorld, w)) / 0.1));
    if (((cell.x + cell.y) & 1) == 1) base *= 0.85;
  }
  float diffuse = max(dot(n, params.lightDir.xyz), 0.0);
  outColor = vec4(base * (0.3 + 0.7 * diffuse), 1.0);
}
