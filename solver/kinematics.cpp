#include "solver/kinematics.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include <weft/errors.h>
#include "solver/shown_text.h"
#include "solver/spring_table.h"

namespace weft {

Kinematics::Kinematics(const std::vector<ColliderDesc>& colliders, const std::vector<HandleGroup>& handles,
                       const std::vector<glm::vec3>& positions) {
  setColliders(colliders);
  for (size_t h = 0; h < handles.size(); ++h) {
    Body body;
    body.path = handles[h].path;
    glm::dvec3 sum(0.0);
    for (uint32_t particle : handles[h].particles) {
      if (particle >= positions.size())
        throw InputError("handle " + std::to_string(h) + " names particle " + std::to_string(particle) +
                         ", but the cloth has " + std::to_string(positions.size()));
      gpu::HandleVertex v{};
      v.rest = glm::vec4(positions[particle], 0.f);
      v.particle = particle;
      v.handle = static_cast<uint32_t>(h);
      vertices_.push_back(v);
      sum += glm::dvec3(positions[particle]);
    }
    if (!handles[h].particles.empty()) body.reference = glm::vec3(sum / double(handles[h].particles.size()));
    handles_.push_back(body);
  }
}

void Kinematics::setColliders(const std::vector<ColliderDesc>& colliders) {
  std::vector<Body> bodies;
  for (size_t i = 0; i < colliders.size(); ++i) {
    Body body;
    body.path = colliders[i].path;
    body.reference = colliderReference(colliders[i]);
    if (i < colliders_.size()) {
      body.now = colliders_[i].now;
      body.next = colliders_[i].next;
    } else {
      body.now = body.path.at(time_);
    }
    bodies.push_back(body);
  }
  colliders_ = std::move(bodies);
  descs_ = colliders;
}

void Kinematics::setHandlePaths(const std::vector<HandleGroup>& handles) {
  for (size_t h = 0; h < handles.size() && h < handles_.size(); ++h) handles_[h].path = handles[h].path;
}

void Kinematics::setTime(double time) {
  time_ = time;
  for (std::vector<Body>* bodies : {&colliders_, &handles_})
    for (Body& body : *bodies)
      if (body.path.moves()) body.now = body.path.at(time_);
}

bool Kinematics::active() const {
  if (posed_ || !vertices_.empty()) return true;
  for (const Body& body : colliders_)
    if (body.moves()) return true;
  return false;
}

void Kinematics::setColliderPose(size_t index, const RigidPose& pose) {
  if (index >= colliders_.size())
    throw std::out_of_range("setColliderPose: no collider " + std::to_string(index) + " (the scene has " +
                            std::to_string(colliders_.size()) + ")");
  colliders_[index].next = pose;
  posed_ = true;
}

void Kinematics::setHandlePose(size_t index, const RigidPose& pose) {
  if (index >= handles_.size())
    throw std::out_of_range("setHandlePose: no handle " + std::to_string(index) + " (the scene has " +
                            std::to_string(handles_.size()) + ")");
  handles_[index].next = pose;
}

std::vector<ColliderDesc> Kinematics::collidersNow() const {
  std::vector<ColliderDesc> out;
  for (size_t i = 0; i < descs_.size(); ++i) out.push_back(posedCollider(descs_[i], colliders_[i].now));
  return out;
}

RigidPose Kinematics::stepPose(const Body& body, int step, int steps, double frameDt) const {
  if (step == 0) return body.now;
  if (body.next) return interpolatePose(body.now, *body.next, float(step) / float(steps), body.reference);
  if (body.path.moves()) return body.path.at(time_ + frameDt * step / steps);
  return body.now;
}

namespace {

gpu::HandlePose packPose(const RigidPose& pose) {
  const glm::mat3 r = glm::mat3_cast(pose.rotation);  // column-major: r[column][row]
  gpu::HandlePose out{};
  out.row0 = glm::vec4(r[0][0], r[1][0], r[2][0], pose.translation.x);
  out.row1 = glm::vec4(r[0][1], r[1][1], r[2][1], pose.translation.y);
  out.row2 = glm::vec4(r[0][2], r[1][2], r[2][2], pose.translation.z);
  return out;
}

// How far the solid of `c` moves from `from` to `to` at most, ignoring turns that leave its shape
// in place (a sphere about its centre).
float solidDisplacement(const ColliderDesc& from, const ColliderDesc& to) {
  if (from.kind == ColliderDesc::Kind::Sphere) return glm::length(to.center - from.center);
  return std::max(glm::length(to.center - from.center), glm::length(to.end - from.end));
}

}  // namespace

std::vector<KinematicStep> Kinematics::planFrame(float frameDt, int substeps) const {
  std::vector<KinematicStep> steps(static_cast<size_t>(substeps));
  const float h = frameDt / static_cast<float>(substeps);
  bool collidersMove = posed_;
  for (const Body& body : colliders_) collidersMove = collidersMove || body.moves();
  for (int s = 1; s <= substeps; ++s) {
    KinematicStep& step = steps[static_cast<size_t>(s - 1)];
    for (const Body& body : handles_) step.handlePoses.push_back(packPose(stepPose(body, s, substeps, frameDt)));
    if (!collidersMove) continue;
    for (size_t i = 0; i < colliders_.size(); ++i) {
      const Body& body = colliders_[i];
      const RigidPose before = stepPose(body, s - 1, substeps, frameDt), after = stepPose(body, s, substeps, frameDt);
      const ColliderDesc was = posedCollider(descs_[i], before), is = posedCollider(descs_[i], after);
      if (is.kind != ColliderDesc::Kind::Plane && solidDisplacement(was, is) > 0.5f * is.radius)
        throw InputError("collider " + std::to_string(i) + " would move " + shownNumber(solidDisplacement(was, is)) +
                         " m in one step of " + shownNumber(h) + " s, more than half its radius (" +
                         shownNumber(is.radius) + " m), and cloth could pass through it: take more substeps or a slower path");
      gpu::Collider packed = packColliders({is}).front();
      const RigidVelocity motion = velocityBetween(before, after, h, body.reference);
      packed.velocity = glm::vec4(motion.velocity, 0.f);
      packed.spin = glm::vec4(motion.spin, 0.f);
      packed.pivot = glm::vec4(motion.pivot, 0.f);
      step.colliders.push_back(packed);
    }
  }
  return steps;
}

void Kinematics::finishFrame(float frameDt) {
  for (std::vector<Body>* bodies : {&colliders_, &handles_})
    for (Body& body : *bodies) {
      body.now = stepPose(body, 1, 1, frameDt);
      body.next.reset();
    }
  time_ += frameDt;
}

}  // namespace weft
