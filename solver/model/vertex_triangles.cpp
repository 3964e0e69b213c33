#include "solver/model/vertex_triangles.h"

#include <stdexcept>
#include <string>

namespace weft {

VertexTriangles buildVertexTriangles(const std::vector<glm::uvec3>& triangles, size_t vertexCount) {
  VertexTriangles out;
  out.rows.assign(vertexCount + 1, 0);
  for (const glm::uvec3& t : triangles)
    for (int c = 0; c < 3; ++c) {
      if (t[c] >= vertexCount)
        throw std::invalid_argument("buildVertexTriangles: triangle corner " + std::to_string(t[c]) + " out of range");
      ++out.rows[t[c] + 1];
    }
  for (size_t i = 0; i < vertexCount; ++i) out.rows[i + 1] += out.rows[i];
  out.triangles.resize(triangles.size() * 3);
  std::vector<uint32_t> fill(out.rows.begin(), out.rows.end() - 1);
  for (uint32_t t = 0; t < triangles.size(); ++t)
    for (int c = 0; c < 3; ++c) out.triangles[fill[triangles[t][c]]++] = t;
  return out;
}

}  // namespace weft
