#version 450
layout(push_constant) uniform Push { mat4 viewProjection; vec4 color; } push;
layout(location = 0) in vec3 inNormal;
layout(location = 0) out vec4 outColor;

void main() {
  vec3 n = normalize(inNormal) * (gl_FrontFacing ? 1.0 : -1.0);
  float light = 0.3 + 0.7 * max(dot(n, normalize(vec3(0.3, 0.8, 0.5))), 0.0);
  outColor = vec4(push.color.rgb * light, 1.0);
}
