// What in a scene moves by a path: the colliders' poses and the handles' particles
// (solver/model/kinematics.h moves them).
#include <algorithm>
#include <cmath>
#include <string>

#include "weft/errors.h"
#include "solver/model/scene.h"

namespace weft {

glm::vec3 colliderReference(const ColliderDesc& c) {
  switch (c.kind) {
    case ColliderDesc::Kind::Plane: return c.normal * c.offset;
    case ColliderDesc::Kind::Sphere: return c.center;
    case ColliderDesc::Kind::Capsule: return 0.5f * (c.center + c.end);
    case ColliderDesc::Kind::Box: return c.center;
    case ColliderDesc::Kind::Mesh: {
      glm::dvec3 sum(0.0);
      for (glm::vec3 v : posedMeshVertices(c)) sum += glm::dvec3(v);
      return c.mesh && !c.mesh->vertices.empty() ? glm::vec3(sum / double(c.mesh->vertices.size())) : glm::vec3(0.f);
    }
  }
  return c.center;
}

ColliderDesc posedCollider(const ColliderDesc& c, const RigidPose& pose) {
  ColliderDesc out = c;
  if (pose.rotation == glm::quat(1.f, 0.f, 0.f, 0.f) && pose.translation == glm::vec3(0.f)) return out;  // bit for bit
  if (c.kind == ColliderDesc::Kind::Mesh) {
    out.meshPose.rotation = glm::normalize(pose.rotation * c.meshPose.rotation);
    out.meshPose.translation = pose.apply(c.meshPose.translation);
  } else if (c.kind == ColliderDesc::Kind::Plane) {
    out.normal = glm::normalize(pose.applyToDirection(c.normal));
    out.offset = glm::dot(out.normal, pose.apply(c.normal * c.offset));
  } else {
    out.center = pose.apply(c.center);
    out.end = pose.apply(c.end);
    out.rotation = glm::normalize(pose.rotation * c.rotation);
  }
  return out;
}

std::vector<glm::vec3> posedMeshVertices(const ColliderDesc& c) {
  std::vector<glm::vec3> out;
  if (!c.mesh) return out;
  out.reserve(c.mesh->vertices.size());
  for (glm::vec3 v : c.mesh->vertices) out.push_back(c.meshPose.apply(v));
  return out;
}

ColliderDesc colliderAtTime(const ColliderDesc& c, double seconds) {
  if (c.sequence.empty()) return c;
  ColliderDesc out = c;
  const size_t count = c.sequence.size();
  double at = std::max(0.0, seconds) * double(c.sequenceRate);  // in frames of the sequence
  if (c.sequenceLoops) at = std::fmod(at, double(count));
  const size_t from = std::min(size_t(at), count - 1);
  const size_t to = c.sequenceLoops ? (from + 1) % count : std::min(from + 1, count - 1);
  const float s = from == to ? 0.f : float(at - double(from));
  if (s == 0.f) {
    out.mesh = c.sequence[from];
    return out;
  }
  auto mesh = std::make_shared<ColliderMesh>();
  mesh->triangles = c.sequence[from]->triangles;
  const std::vector<glm::vec3>& a = c.sequence[from]->vertices;
  const std::vector<glm::vec3>& b = c.sequence[to]->vertices;
  mesh->vertices.resize(a.size());
  for (size_t v = 0; v < a.size(); ++v) mesh->vertices[v] = a[v] + s * (b[v] - a[v]);
  out.mesh = std::move(mesh);
  return out;
}

std::vector<HandleGroup> handleGroups(const Scene& scene) {
  std::vector<HandleGroup> groups;
  const ClothModel& model = scene.cloth;
  for (const HandleSpec& spec : scene.handles) {
    HandleGroup group;
    group.particles = spec.indices;
    std::vector<uint32_t> rows;
    for (int row : spec.rows) {
      const int64_t resolved = row < 0 ? int64_t(model.gridHeight) + row : row;
      if (resolved < 0 || resolved >= int64_t(model.gridHeight))
        throw InputError("handle row " + std::to_string(row) + " is past the grid's " + std::to_string(model.gridHeight) + " rows");
      rows.push_back(static_cast<uint32_t>(resolved));
    }
    const std::vector<uint32_t> rowParticles = gridRows(model, rows);
    group.particles.insert(group.particles.end(), rowParticles.begin(), rowParticles.end());
    std::sort(group.particles.begin(), group.particles.end());
    group.particles.erase(std::unique(group.particles.begin(), group.particles.end()), group.particles.end());
    group.path = spec.path;
    if (!spec.centerGiven && !group.particles.empty()) {
      glm::dvec3 sum(0.0);
      for (uint32_t p : group.particles) sum += glm::dvec3(model.positions[p]);
      group.path.center = glm::vec3(sum / double(group.particles.size()));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace weft
