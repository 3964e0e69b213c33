#version 450
// Contact's marks over the cloth (DrawMode::Contacts): a square of constant size on screen at each
// particle whose strongest mark (the highest WEFT_CONTACT_MARK_* bit it has) is params.shape.z; the
// other particles collapse to a point and draw nothing. Drawn once per mark, each in its colour.
// The squares are pulled towards the eye (params.transform: xyz the eye, w the fraction of the way)
// so the surface they sit on does not hide half of each.
#include "shared.h"

layout(push_constant) uniform Push { RenderParams params; };
layout(std430, binding = WEFT_BIND_RENDER_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = WEFT_BIND_RENDER_CONTACT_MARKS) readonly buffer Marks { uint marks[]; };

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
  uint particle = uint(gl_VertexIndex) / 6u;
  uint m = marks[particle];
  bool shown = m != 0u && (1u << uint(findMSB(m))) == uint(params.shape.z);
  vec3 p = positions[particle].xyz;
  p += (params.transform.xyz - p) * params.transform.w;
  vec4 clip = params.viewProjection * vec4(p, 1.0);
  if (shown) clip.xy += kCorners[uint(gl_VertexIndex) % 6u] * params.shape.xy * clip.w;
  gl_Position = clip;
}
