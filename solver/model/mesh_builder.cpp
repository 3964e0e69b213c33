// Triangle meshes: topology by sorted edge triples (seed 002), springs, mass lumping (OBJ files:
// obj_mesh.cpp).
#include <algorithm>
#include <cmath>

#include "weft/errors.h"
#include "solver/model/cloth_model.h"
#include "solver/model/host_memory.h"
#include "solver/model/shown_text.h"

namespace weft {
namespace {

// Below this a triangle has no usable normal and a third of its area is no mass at all.
constexpr double kMinTriangleArea = 1e-12;  // m^2

// Edge (v0 < v1) of triangle t, as seed 002 sorts them.
struct EdgeTriple {
  uint32_t v0, v1, triangle;
};

uint32_t oppositeVertex(const glm::uvec3& tri, uint32_t v0, uint32_t v1) {
  for (int k = 0; k < 3; ++k) {
    if (tri[k] != v0 && tri[k] != v1) return tri[k];
  }
  return tri[0];  // unreachable for a triangle without repeated indices (checked before)
}

void checkIndices(const std::vector<glm::uvec3>& triangles, size_t vertexCount) {
  for (size_t t = 0; t < triangles.size(); ++t) {
    const glm::uvec3& tri = triangles[t];
    for (int k = 0; k < 3; ++k) {
      if (tri[k] >= vertexCount) {
        throw InputError("triangle " + std::to_string(t) + " refers to vertex " +
                         std::to_string(tri[k]) + ", but the mesh has only " +
                         std::to_string(vertexCount) + " vertices");
      }
    }
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
      throw InputError("triangle " + std::to_string(t) + " is degenerate: it repeats a vertex (" +
                       std::to_string(tri[0]) + ", " + std::to_string(tri[1]) + ", " +
                       std::to_string(tri[2]) + ")");
    }
  }
}

double triangleArea(const std::vector<glm::vec3>& positions, const glm::uvec3& tri) {
  const glm::dvec3 p0(positions[tri[0]]), p1(positions[tri[1]]), p2(positions[tri[2]]);
  return 0.5 * glm::length(glm::cross(p1 - p0, p2 - p0));
}

}  // namespace

MeshTopology buildTopology(const std::vector<glm::uvec3>& triangles, size_t vertexCount) {
  checkIndices(triangles, vertexCount);
  std::vector<EdgeTriple> triples;
  triples.reserve(triangles.size() * 3);
  for (uint32_t t = 0; t < triangles.size(); ++t) {
    const glm::uvec3& tri = triangles[t];
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = tri[k], b = tri[(k + 1) % 3];
      triples.push_back({std::min(a, b), std::max(a, b), t});
    }
  }
  // The triangle index breaks ties so t0 < t1 in every pair, whatever std::sort does.
  std::sort(triples.begin(), triples.end(), [](const EdgeTriple& x, const EdgeTriple& y) {
    if (x.v0 != y.v0) return x.v0 < y.v0;
    if (x.v1 != y.v1) return x.v1 < y.v1;
    return x.triangle < y.triangle;
  });

  MeshTopology topology;
  for (size_t begin = 0; begin < triples.size();) {
    size_t end = begin + 1;
    while (end < triples.size() && triples[end].v0 == triples[begin].v0 &&
           triples[end].v1 == triples[begin].v1) {
      ++end;
    }
    const EdgeTriple& first = triples[begin];
    const size_t run = end - begin;
    topology.edges.emplace_back(first.v0, first.v1);
    if (run == 1) {
      ++topology.boundaryEdges;
    } else if (run == 2) {
      const EdgeTriple& second = triples[begin + 1];
      BendPair pair;
      pair.v0 = first.v0;
      pair.v1 = first.v1;
      pair.t0 = first.triangle;
      pair.t1 = second.triangle;
      pair.a = oppositeVertex(triangles[pair.t0], pair.v0, pair.v1);
      pair.b = oppositeVertex(triangles[pair.t1], pair.v0, pair.v1);
      if (pair.a == pair.b) {
        // Two triangles on the same three vertices: a zero-thickness double layer, no hinge.
        throw InputError("triangles " + std::to_string(pair.t0) + " and " +
                         std::to_string(pair.t1) + " are duplicates (same three vertices)");
      }
      topology.bendPairs.push_back(pair);
    } else {
      throw InputError("mesh is not manifold: edge (" + std::to_string(first.v0) + ", " +
                       std::to_string(first.v1) + ") is shared by " + std::to_string(run) +
                       " triangles");
    }
    begin = end;
  }
  return topology;
}

std::vector<float> lumpMasses(const std::vector<glm::vec3>& positions,
                              const std::vector<glm::uvec3>& triangles, float totalMass,
                              float arealDensity) {
  if (!std::isfinite(totalMass) || totalMass < 0.f) {
    throw InputError("total mass must be a finite number >= 0 kg (got " + shownNumber(totalMass) +
                     ")");
  }
  if (totalMass == 0.f && (!std::isfinite(arealDensity) || arealDensity <= 0.f)) {
    throw InputError("areal density must be positive when no total mass is given (got " +
                     shownNumber(arealDensity) + ")");
  }
  // Accumulated in double and scaled once, so the float masses sum to totalMass to float precision.
  std::vector<double> area(positions.size(), 0.0);
  double sum = 0.0;
  for (const glm::uvec3& tri : triangles) {
    const double third = triangleArea(positions, tri) / 3.0;
    for (int k = 0; k < 3; ++k) area[tri[k]] += third;
    sum += 3.0 * third;
  }
  const double scale = totalMass > 0.f ? (sum > 0.0 ? totalMass / sum : 0.0) : arealDensity;
  std::vector<float> masses(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) masses[i] = static_cast<float>(area[i] * scale);
  return masses;
}

ClothModel buildMesh(const std::vector<glm::vec3>& vertices,
                     const std::vector<glm::uvec3>& triangles, const Material& material,
                     float totalMass, float arealDensity) {
  if (vertices.empty() || triangles.empty()) {
    throw InputError("mesh is empty (" + std::to_string(vertices.size()) + " vertices, " +
                     std::to_string(triangles.size()) + " triangles)");
  }
  if (vertices.size() > kMaxParticles) {
    throw InputError("mesh has " + std::to_string(vertices.size()) + " vertices, more than the limit of " +
                     std::to_string(kMaxParticles) + " particles");
  }
  for (size_t i = 0; i < vertices.size(); ++i) {
    const glm::vec3& p = vertices[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      throw InputError("mesh vertex " + std::to_string(i) + " is not finite");
    }
  }
  validateMaterial(material);
  // Before building: a mesh the host cannot hold is refused with its size, not with bad_alloc.
  requireHostMemory(meshModelBytes(vertices.size(), triangles.size()), hostMemoryAvailable(),
                    "a mesh of " + std::to_string(vertices.size()) + " vertices and " +
                        std::to_string(triangles.size()) + " triangles",
                    "its model");
  checkIndices(triangles, vertices.size());
  for (size_t t = 0; t < triangles.size(); ++t) {
    const double area = triangleArea(vertices, triangles[t]);
    if (!(area > kMinTriangleArea)) {
      throw InputError("triangle " + std::to_string(t) + " is degenerate: its area is " +
                       shownNumber(area) + " m^2");
    }
  }
  // A vertex no triangle uses would get no mass and no springs: a free particle that falls forever.
  std::vector<uint8_t> used(vertices.size(), 0);
  for (const glm::uvec3& tri : triangles) used[tri[0]] = used[tri[1]] = used[tri[2]] = 1;
  const auto unused = std::find(used.begin(), used.end(), 0);
  if (unused != used.end()) {
    throw InputError("mesh vertex " + std::to_string(unused - used.begin()) +
                     " is not used by any triangle");
  }

  ClothModel model;
  model.positions = vertices;
  model.triangles = triangles;
  model.masses = lumpMasses(vertices, triangles, totalMass, arealDensity);
  model.velocities.assign(vertices.size(), glm::vec3(0.f));
  model.pinned.assign(vertices.size(), 0);

  MeshTopology topology = buildTopology(triangles, vertices.size());
  model.springs.reserve(topology.edges.size() + topology.bendPairs.size());
  auto addSpring = [&](uint32_t a, uint32_t b, SpringKind kind, float stiffness) {
    Spring spring;
    spring.a = a;
    spring.b = b;
    spring.restLength = glm::distance(vertices[a], vertices[b]);
    spring.stiffness = stiffness;
    spring.damping = material.damping;
    spring.kind = kind;
    model.springs.push_back(spring);
  };
  for (const auto& [v0, v1] : topology.edges) {
    addSpring(v0, v1, SpringKind::Structural, material.structuralStiffness);
  }
  for (const BendPair& pair : topology.bendPairs) {
    addSpring(pair.a, pair.b, SpringKind::Bend, material.bendStiffness);
  }
  model.bendPairs = std::move(topology.bendPairs);
  applyStrainLimit(model, material.strainLimit);
  applyTearStrain(model, material.tearStrain);
  return model;
}

}  // namespace weft
