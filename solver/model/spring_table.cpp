#include "solver/model/spring_table.h"

#include <algorithm>

namespace weft {

SpringTable buildSpringTable(const ClothModel& model) {
  const size_t n = model.particleCount();
  SpringTable table;
  table.rows.assign(n + 1, 0);
  for (const Spring& s : model.springs) {
    table.rows[s.a + 1]++;
    table.rows[s.b + 1]++;
  }
  for (size_t i = 0; i < n; ++i) table.rows[i + 1] += table.rows[i];
  table.entries.resize(table.rows[n]);
  std::vector<uint32_t> fill(table.rows.begin(), table.rows.end() - 1);
  for (const Spring& s : model.springs) {
    table.entries[fill[s.a]++] = {s.b, s.restLength, s.stiffness, s.damping};
    table.entries[fill[s.b]++] = {s.a, s.restLength, s.stiffness, s.damping};
  }
  table.links.reserve(table.entries.size());
  for (const gpu::SpringEntry& e : table.entries) table.links.push_back({e.other, e.restLength});
  // Each table filled in the entries' order (the same rows serve them all), a spring's range where
  // `applies` says so and {0, 0} (none) elsewhere; left empty when no spring needs it.
  auto limitTable = [&](std::vector<gpu::StrainLimit>& out, bool (*applies)(const Spring&)) {
    if (std::none_of(model.springs.begin(), model.springs.end(), applies)) return;
    out.resize(table.entries.size());
    std::copy(table.rows.begin(), table.rows.end() - 1, fill.begin());
    for (const Spring& s : model.springs) {
      const gpu::StrainLimit limit = applies(s) ? gpu::StrainLimit{(1.f - s.compressionLimit) * s.restLength,
                                                                   (1.f + s.stretchLimit) * s.restLength}
                                                : gpu::StrainLimit{0.f, 0.f};
      out[fill[s.a]++] = limit;
      out[fill[s.b]++] = limit;
    }
  };
  limitTable(table.strainLimits, projectsStrain);
  limitTable(table.forceBounds, boundsStrainForce);
  const bool tears = std::any_of(model.springs.begin(), model.springs.end(),
                                 [](const Spring& s) { return s.tearStrain() > 0.f; });
  if (tears) {  // the same rows again
    table.tearLimits.resize(table.entries.size());
    std::copy(table.rows.begin(), table.rows.end() - 1, fill.begin());
    for (uint32_t k = 0; k < model.springs.size(); ++k) {
      const Spring& s = model.springs[k];
      const gpu::TearLimit limit{s.tearStrain() > 0.f ? (1.f + s.tearStrain()) * s.restLength : 0.f, k};
      table.tearLimits[fill[s.a]++] = limit;
      table.tearLimits[fill[s.b]++] = limit;
    }
  }
  table.grid = findGridSprings(model, table);
  // A cloth held by elements alone has no springs: one unread entry keeps the buffers non-empty.
  if (table.entries.empty()) {
    table.entries.push_back({0, 0.f, 0.f, 0.f});
    table.links.push_back({0, 0.f});
  }
  return table;
}

std::vector<gpu::Collider> packColliders(const std::vector<ColliderDesc>& colliders) {
  std::vector<gpu::Collider> packed;
  for (const ColliderDesc& c : colliders) {
    gpu::Collider g{};
    if (c.kind == ColliderDesc::Kind::Plane) {
      g.kind = WEFT_COLLIDER_PLANE;
      g.shape = glm::vec4(glm::normalize(c.normal), c.offset);
    } else if (c.kind == ColliderDesc::Kind::Mesh) {
      // One triangle collider per face: the kernels meet each as a thin shell (shaders/colliders.h).
      const std::vector<glm::vec3> at = posedMeshVertices(c);
      for (const glm::uvec3& t : c.mesh ? c.mesh->triangles : std::vector<glm::uvec3>{}) {
        gpu::Collider face{};
        face.kind = WEFT_COLLIDER_TRIANGLE;
        face.shape = glm::vec4(at[t.x], 0.5f * c.thickness);
        const glm::vec3 mean = (at[t.x] + at[t.y] + at[t.z]) / 3.f;
        const float bound = std::max({glm::length(at[t.x] - mean), glm::length(at[t.y] - mean), glm::length(at[t.z] - mean)});
        face.shape2 = glm::vec4(at[t.y], bound * (1.f + 1e-5f));  // a hair over, for rounding
        face.shape3 = glm::vec4(at[t.z], 0.f);
        face.friction = c.friction;
        face.staticFriction = std::max(c.staticFriction, c.friction);
        face.margin = c.margin;
        packed.push_back(face);
      }
      continue;
    } else if (c.kind == ColliderDesc::Kind::Box) {
      g.kind = WEFT_COLLIDER_BOX;
      g.shape = glm::vec4(c.center, 0.f);
      g.shape2 = glm::vec4(c.halfExtents, 0.f);
      const glm::quat q = glm::normalize(c.rotation);
      g.shape3 = glm::vec4(q.x, q.y, q.z, q.w);
    } else {
      g.kind = c.kind == ColliderDesc::Kind::Capsule ? WEFT_COLLIDER_CAPSULE : WEFT_COLLIDER_SPHERE;
      g.shape = glm::vec4(c.center, c.radius);
      g.shape2 = glm::vec4(c.kind == ColliderDesc::Kind::Capsule ? c.end : c.center, 0.f);
    }
    g.friction = c.friction;
    g.staticFriction = std::max(c.staticFriction, c.friction);
    g.margin = c.margin;
    packed.push_back(g);
  }
  return packed;
}

std::vector<glm::vec4> packPositions(const ClothModel& model) {
  std::vector<glm::vec4> out(model.particleCount());
  for (size_t i = 0; i < out.size(); ++i) out[i] = glm::vec4(model.positions[i], model.inverseMass(i));
  return out;
}

std::vector<glm::vec4> packVelocities(const ClothModel& model) {
  std::vector<glm::vec4> out(model.particleCount(), glm::vec4(0.f));
  for (size_t i = 0; i < out.size() && i < model.velocities.size(); ++i)
    out[i] = model.pinned[i] ? glm::vec4(0.f) : glm::vec4(model.velocities[i], 0.f);
  return out;
}

}  // namespace weft
