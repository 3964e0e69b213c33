#pragma once
// For each vertex, the triangles around it as a CSR table: what a normals pass gathers from
// (normals.comp), one thread per vertex and no atomics. The library's cloths and the demos'
// drawer both build it.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

struct VertexTriangles {
  std::vector<uint32_t> rows;       // N + 1 starts into `triangles`
  std::vector<uint32_t> triangles;  // 3T triangle indices
};

// std::invalid_argument for a corner past `vertexCount`.
VertexTriangles buildVertexTriangles(const std::vector<glm::uvec3>& triangles, size_t vertexCount);

}  // namespace weft
