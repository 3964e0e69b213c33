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
    ivec3 cell = ivec3(floor(inWorld / 0.1));
    if (((cell.x + cell.y + cell.z) & 1) == 1) base *= 0.85;
  }
  float diffuse = max(dot(n, params.lightDir.xyz), 0.0);
  outColor = vec4(base * (0.3 + 0.7 * diffuse), 1.0);
}
