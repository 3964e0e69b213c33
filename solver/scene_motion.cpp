// What in a scene moves by a path: the colliders' poses and the handles' particles
// (solver/kinematics.h moves them).
#include <algorithm>
#include <string>

#include "engine/error.h"
#include "solver/scene.h"

namespace weft {

glm::vec3 colliderReference(const ColliderDesc& c) {
  switch (c.kind) {
    case ColliderDesc::Kind::Plane: return c.normal * c.offset;
    case ColliderDesc::Kind::Sphere: return c.center;
    case ColliderDesc::Kind::Capsule: return 0.5f * (c.center + c.end);
  }
  return c.center;
}

ColliderDesc posedCollider(const ColliderDesc& c, const RigidPose& pose) {
  ColliderDesc out = c;
  if (pose.rotation == glm::quat(1.f, 0.f, 0.f, 0.f) && pose.translation == glm::vec3(0.f)) return out;  // bit for bit
  if (c.kind == ColliderDesc::Kind::Plane) {
    out.normal = glm::normalize(pose.applyToDirection(c.normal));
    out.offset = glm::dot(out.normal, pose.apply(c.normal * c.offset));
  } else {
    out.center = pose.apply(c.center);
    out.end = pose.apply(c.end);
  }
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
