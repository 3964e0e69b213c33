#version 450
// Two-sided Lambert shading: the back face gets the flipped normal and a darker tint. A fill light
// from the key light's side but from below keeps an underside turned to the camera from going black.
#include "shared.h"

layout(push_constant) uniform Push { RenderParams params; };
layout(location = 0) in vec3 inNormal;
layout(location = 0) out vec4 outColor;

void main() {
  vec3 n = normalize(inNormal);
  vec3 base = params.color.rgb;
  if (!gl_FrontFacing) {
    n = -n;
    base *= vec3(0.75, 0.8, 0.9);
  }
  vec3 key = params.lightDir.xyz;
  vec3 fill = normalize(vec3(key.x, -0.6, key.z));
  float diffuse = max(dot(n, key), 0.0);
  float fillDiffuse = max(dot(n, fill), 0.0);
  float rim = 0.15 * max(n.y, 0.0);
  outColor = vec4(base * (0.25 + 0.75 * diffuse + 0.35 * fillDiffuse + rim), 1.0);
}
