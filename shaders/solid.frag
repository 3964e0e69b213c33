#version 450
// Lambert shading for colliders; planes get a 10 cm checker so motion and scale read at a glance.
#include "shared.h"

layout(push_constant) uniform Push { RenderParams params; };
layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec3 inWorld;
layout(location = 0) out vec4 outColor;

// Mean over [x - w/2, x + w/2] of the square wave that is 0 on even cells and 1 on odd ones, from its
// integral floor(x/2) + max(0, x - 2 floor(x/2) - 1): a checker averaged over each pixel's footprint
// stays grey in the distance instead of breaking into moire (multisampling covers only edges).
float filteredSquareWave(float x, float w) {
  vec2 ends = vec2(x - 0.5 * w, x + 0.5 * w);
  vec2 integral = floor(ends * 0.5) + max(vec2(0.0), ends - 2.0 * floor(ends * 0.5) - 1.0);
  return (integral.y - integral.x) / w;
}

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
    vec2 cells = vec2(dot(inWorld, u), dot(inWorld, w)) / 0.1;
    vec2 footprint = max(fwidth(cells), vec2(1e-4));
    vec2 odd = vec2(filteredSquareWave(cells.x, footprint.x), filteredSquareWave(cells.y, footprint.y));
    float dark = odd.x + odd.y - 2.0 * odd.x * odd.y;  // exactly one of the two odd: a dark cell
    base *= mix(1.0, 0.85, dark);
  }
  float diffuse = max(dot(n, params.lightDir.xyz), 0.0);
  outColor = vec4(base * (0.3 + 0.7 * diffuse), 1.0);
}
