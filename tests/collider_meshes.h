#pragma once
// Mesh colliders the tests build by hand: flat plates and latitude-longitude spheres.
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include "solver/model/scene.h"

namespace weft::test {

// The two triangles of each square of a grid of (rows + 1) x (columns + 1) vertices numbered row by
// row; `flip` turns their winding over.
inline void addGridTriangles(std::vector<glm::uvec3>& out, uint32_t rows, uint32_t columns, bool flip) {
  for (uint32_t j = 0; j < rows; ++j)
    for (uint32_t i = 0; i < columns; ++i) {
      const uint32_t a = j * (columns + 1) + i, b = a + 1, c = a + columns + 1, d = c + 1;
      out.push_back(flip ? glm::uvec3(a, b, c) : glm::uvec3(a, c, b));
      out.push_back(flip ? glm::uvec3(b, d, c) : glm::uvec3(b, c, d));
    }
}

inline ColliderDesc meshCollider(std::shared_ptr<ColliderMesh> mesh, float thickness, float margin, float friction) {
  ColliderDesc desc;
  desc.kind = ColliderDesc::Kind::Mesh;
  desc.mesh = std::move(mesh);
  desc.thickness = thickness;
  desc.margin = margin;
  desc.friction = friction;
  return desc;
}

// A flat plate of n x n squares, two triangles each, `half` m from its centre to its sides along its
// own x and z, turned by `rotation` about `center`.
inline ColliderDesc plateMesh(glm::vec3 center, glm::quat rotation, glm::vec2 half, uint32_t n, float thickness,
                              float margin, float friction) {
  auto mesh = std::make_shared<ColliderMesh>();
  for (uint32_t j = 0; j <= n; ++j)
    for (uint32_t i = 0; i <= n; ++i) {
      const glm::vec3 p(half.x * (2.f * float(i) / float(n) - 1.f), 0.f, half.y * (2.f * float(j) / float(n) - 1.f));
      mesh->vertices.push_back(center + rotation * p);
    }
  addGridTriangles(mesh->triangles, n, n, false);
  return meshCollider(mesh, thickness, margin, friction);
}

// A latitude-longitude sphere of `rings` x 2 `rings` quads, two triangles each (the poles' as well,
// one of them with two corners at the pole): 4 rings^2 faces, outward.
inline ColliderDesc sphereMesh(glm::vec3 centre, float radius, uint32_t rings, float thickness, float margin) {
  auto mesh = std::make_shared<ColliderMesh>();
  const uint32_t around = 2 * rings;
  for (uint32_t j = 0; j <= rings; ++j)
    for (uint32_t i = 0; i <= around; ++i) {
      const float theta = glm::pi<float>() * float(j) / float(rings), phi = 2.f * glm::pi<float>() * float(i) / float(around);
      mesh->vertices.push_back(centre + radius * glm::vec3(std::sin(theta) * std::cos(phi), std::cos(theta),
                                                           std::sin(theta) * std::sin(phi)));
    }
  addGridTriangles(mesh->triangles, rings, around, true);
  ColliderDesc body = meshCollider(mesh, thickness, margin, 0.4f);
  body.staticFriction = 0.5f;
  return body;
}

}  // namespace weft::test
