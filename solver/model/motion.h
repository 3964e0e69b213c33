#pragma once
// Rigid motion for what a scene moves by a prescribed path rather than by physics: colliders and
// handles (solver/model/kinematics.h). A pose maps a body's rest place to where it is now.
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace weft {

// x -> rotation * x + translation.
struct RigidPose {
  glm::quat rotation{1.f, 0.f, 0.f, 0.f};
  glm::vec3 translation{0.f};
  glm::vec3 apply(glm::vec3 x) const { return rotation * x + translation; }
  glm::vec3 applyToDirection(glm::vec3 d) const { return rotation * d; }
};

// The pose a fraction s in [0, 1] of the way from `from` to `to`: the image of `reference` (a
// point of the body, its centre) moves in a straight line while the body turns about it by the
// shortest rotation. Exact for a body turning at a steady rate about its own reference point.
RigidPose interpolatePose(const RigidPose& from, const RigidPose& to, float s, glm::vec3 reference);

// How a body moves between two poses `dt` seconds apart, as a rigid velocity field: the point
// `pivot` (where `reference` lands at `to`) moves with `velocity` and the body turns at `spin`.
struct RigidVelocity {
  glm::vec3 velocity{0.f};  // m/s
  glm::vec3 spin{0.f};      // rad/s
  glm::vec3 pivot{0.f};     // m
};
RigidVelocity velocityBetween(const RigidPose& from, const RigidPose& to, float dt, glm::vec3 reference);

// One key of a path: at `time` the body has turned by `angle` about the path's axis through its
// centre and is moved by `offset`.
struct PathKey {
  double time = 0.0;        // s
  float angle = 0.f;        // rad, any size: 4 pi is two whole turns
  glm::vec3 offset{0.f};    // m
};

// A keyed path (docs/scene-format.md, "path"): between keys the angle and the offset change at a
// steady rate; before the first key the body is at the first, after the last it stays at the last.
struct RigidPath {
  glm::vec3 center{0.f};          // m: the point the body turns about, at rest
  glm::vec3 axis{0.f, 1.f, 0.f};  // unit
  std::vector<PathKey> keys;      // ascending times; empty: the body never moves
  bool moves() const { return keys.size() > 1; }
  RigidPose at(double time) const;
};

}  // namespace weft
