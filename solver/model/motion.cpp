#include "solver/model/motion.h"

#include <algorithm>
#include <cmath>

namespace weft {

RigidPose interpolatePose(const RigidPose& from, const RigidPose& to, float s, glm::vec3 reference) {
  RigidPose out;
  out.rotation = glm::normalize(glm::slerp(from.rotation, to.rotation, s));  // glm picks the shorter way
  const glm::vec3 image = glm::mix(from.apply(reference), to.apply(reference), s);
  out.translation = image - out.rotation * reference;
  return out;
}

RigidVelocity velocityBetween(const RigidPose& from, const RigidPose& to, float dt, glm::vec3 reference) {
  RigidVelocity out;
  out.pivot = to.apply(reference);
  if (!(dt > 0.f)) return out;
  out.velocity = (out.pivot - from.apply(reference)) / dt;
  glm::quat turn = to.rotation * glm::inverse(from.rotation);
  if (turn.w < 0.f) turn = -turn;  // the shorter of the two rotations that turn from into to
  const glm::vec3 v(turn.x, turn.y, turn.z);
  const float sine = glm::length(v);
  if (sine > 0.f) out.spin = v / sine * (2.f * std::atan2(sine, turn.w) / dt);
  return out;
}

RigidPose RigidPath::at(double time) const {
  RigidPose pose;
  if (keys.empty()) return pose;
  float angle = keys.front().angle;
  glm::vec3 offset = keys.front().offset;
  if (time >= keys.back().time) {
    angle = keys.back().angle;
    offset = keys.back().offset;
  } else if (time > keys.front().time) {
    const auto next = std::upper_bound(keys.begin(), keys.end(), time,
                                       [](double t, const PathKey& k) { return t < k.time; });
    const PathKey& b = *next;
    const PathKey& a = *(next - 1);
    const float s = static_cast<float>((time - a.time) / (b.time - a.time));
    angle = a.angle + s * (b.angle - a.angle);
    offset = glm::mix(a.offset, b.offset, s);
  }
  pose.rotation = glm::angleAxis(angle, axis);
  pose.translation = center + offset - pose.rotation * center;
  return pose;
}

}  // namespace weft
