#version 450
// Colliders as procedural solids: a UV sphere, a capsule, a cube, a square on a plane or one face
// of a mesh, generated from gl_VertexIndex so no vertex buffer exists.
#include "shared.h"

layout(push_constant) uniform Push { RenderParams params; };
layout(location = 0) out vec3 outNormal;
layout(location = 1) out vec3 outWorld;

const float kPi = 3.14159265358979;

vec3 sphereCorner(uint segment, uint ring) {
  float theta = 2.0 * kPi * float(segment) / float(WEFT_SPHERE_SEGMENTS);
  float phi = kPi * float(ring) / float(WEFT_SPHERE_RINGS);
  return vec3(sin(phi) * cos(theta), cos(phi), sin(phi) * sin(theta));
}

void main() {
  // Two triangles per quad: corners (0,0) (1,0) (1,1) and (0,0) (1,1) (0,1).
  const uvec2 corner[6] = uvec2[6](uvec2(0, 0), uvec2(1, 0), uvec2(1, 1), uvec2(0, 0), uvec2(1, 1), uvec2(0, 1));
  uint quad = uint(gl_VertexIndex) / 6u;
  uvec2 c = corner[uint(gl_VertexIndex) % 6u];
  vec3 local, normal;
  vec3 offset = vec3(0.0);  // a capsule's hemispheres are the sphere's halves moved apart
  if (uint(params.shape.w) == WEFT_SOLID_SPHERE || uint(params.shape.w) == WEFT_SOLID_CAPSULE) {
    uint segment = quad % WEFT_SPHERE_SEGMENTS + c.x;
    uint ring = quad / WEFT_SPHERE_SEGMENTS + c.y;
    vec3 unit = sphereCorner(segment, ring);
    if (uint(params.shape.w) == WEFT_SOLID_CAPSULE) {
      // The sphere's y axis along the capsule's; the band between the halves is the cylinder.
      vec3 axis = normalize(params.shape.xyz);
      vec3 helper = abs(axis.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
      vec3 u = normalize(cross(helper, axis));
      vec3 w = cross(axis, u);
      unit = unit.x * u + unit.y * axis + unit.z * w;
      offset = (ring <= WEFT_SPHERE_RINGS / 2u ? 1.0 : -1.0) * params.shape.xyz;
    }
    normal = unit;
    local = unit;
  } else if (uint(params.shape.w) == WEFT_SOLID_BOX) {
    // Quad f is the face of axis f / 2 on its + side (f even) or - side (f odd). Normals stay in the
    // box's axes: the host turns the light into them, and the face normals survive its scale.
    uint axis = quad / 2u;
    float side = quad % 2u == 0u ? 1.0 : -1.0;
    vec3 n = vec3(axis == 0u ? side : 0.0, axis == 1u ? side : 0.0, axis == 2u ? side : 0.0);
    vec3 u = vec3(n.z * n.z, n.x * n.x, n.y * n.y);  // the next axis round
    vec3 w = cross(n, u);
    normal = n;
    local = n + (float(c.x) * 2.0 - 1.0) * u + (float(c.y) * 2.0 - 1.0) * w;
  } else if (uint(params.shape.w) == WEFT_SOLID_TRIANGLE) {
    local = vec3(gl_VertexIndex == 1 ? 1.0 : 0.0, gl_VertexIndex == 2 ? 1.0 : 0.0, 0.0);
    normal = params.shape.xyz;
  } else {
    normal = normalize(params.shape.xyz);
    vec3 helper = abs(normal.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(helper, normal));
    vec3 w = cross(normal, u);
    local = (float(c.x) * 2.0 - 1.0) * u + (float(c.y) * 2.0 - 1.0) * w;
  }
  vec3 world = params.transform.xyz + params.transform.w * local + offset;
  outNormal = normal;
  outWorld = world;
  gl_Position = params.viewProjection * vec4(world, 1.0);
}
