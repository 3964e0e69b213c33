#include "solver/model/kinematics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>
#include <weft/errors.h>
#include "solver/model/shown_text.h"
#include "solver/model/spring_table.h"

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
    body.deforms = !colliders[i].sequence.empty();
    if (i < colliders_.size()) {
      body.now = colliders_[i].now;
      body.next = colliders_[i].next;
      // A host's shapes carry over to the same mesh (as many vertices): new settings of its friction.
      const bool sameMesh = colliders[i].kind == ColliderDesc::Kind::Mesh && colliders[i].mesh &&
                            descs_[i].mesh && colliders[i].mesh->vertices.size() == descs_[i].mesh->vertices.size();
      if (sameMesh) {
        body.shape = colliders_[i].shape;
        body.nextShape = colliders_[i].nextShape;
      }
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

std::vector<ColliderDesc> collidersAtTime(const std::vector<ColliderDesc>& colliders, double seconds) {
  Kinematics kinematics(colliders, {}, {});
  kinematics.setTime(seconds);
  return kinematics.collidersNow();
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

void Kinematics::setColliderVertices(size_t index, const std::vector<glm::vec3>& vertices) {
  if (index >= colliders_.size())
    throw std::out_of_range("setColliderVertices: no collider " + std::to_string(index) + " (the scene has " +
                            std::to_string(colliders_.size()) + ")");
  const ColliderDesc& desc = descs_[index];
  if (desc.kind != ColliderDesc::Kind::Mesh || !desc.mesh)
    throw InputError("collider " + std::to_string(index) + " is not a mesh: only a mesh's vertices can be set");
  if (vertices.size() != desc.mesh->vertices.size())
    throw InputError("collider " + std::to_string(index) + " has " + std::to_string(desc.mesh->vertices.size()) +
                     " vertices, but " + std::to_string(vertices.size()) + " were given: a mesh keeps its vertices and triangles");
  for (size_t v = 0; v < vertices.size(); ++v)
    if (!std::isfinite(vertices[v].x) || !std::isfinite(vertices[v].y) || !std::isfinite(vertices[v].z))
      throw InputError("vertex " + std::to_string(v) + " given for collider " + std::to_string(index) + " is not finite");
  auto shape = std::make_shared<ColliderMesh>();
  shape->vertices = vertices;
  shape->triangles = desc.mesh->triangles;
  colliders_[index].nextShape = std::move(shape);
  posed_ = true;  // as for a pose: the frames after it repack the colliders, with their speeds back at zero
}

ColliderDesc Kinematics::shapeAt(size_t index, double seconds, float fraction) const {
  const Body& body = colliders_[index];
  if (!body.shape && !body.nextShape) return colliderAtTime(descs_[index], seconds);
  ColliderDesc out = descs_[index];
  out.sequence.clear();
  const std::shared_ptr<const ColliderMesh> from = body.shape ? body.shape : colliderAtTime(descs_[index], seconds).mesh;
  if (!body.nextShape || fraction <= 0.f) {
    out.mesh = from;
    return out;
  }
  if (fraction >= 1.f) {
    out.mesh = body.nextShape;
    return out;
  }
  auto mesh = std::make_shared<ColliderMesh>();
  mesh->triangles = from->triangles;
  const std::vector<glm::vec3>& a = from->vertices;
  const std::vector<glm::vec3>& b = body.nextShape->vertices;
  mesh->vertices.resize(a.size());
  for (size_t v = 0; v < a.size(); ++v) mesh->vertices[v] = a[v] + fraction * (b[v] - a[v]);
  out.mesh = std::move(mesh);
  return out;
}

void Kinematics::setHandlePose(size_t index, const RigidPose& pose) {
  if (index >= handles_.size())
    throw std::out_of_range("setHandlePose: no handle " + std::to_string(index) + " (the scene has " +
                            std::to_string(handles_.size()) + ")");
  handles_[index].next = pose;
}

std::vector<ColliderDesc> Kinematics::collidersNow() const {
  std::vector<ColliderDesc> out;
  for (size_t i = 0; i < descs_.size(); ++i) out.push_back(posedCollider(shapeAt(i, time_, 0.f), colliders_[i].now));
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

// The mean of a mesh face's corners.
glm::vec3 faceCentre(const gpu::Collider& face) {
  return (glm::vec3(face.shape) + glm::vec3(face.shape2) + glm::vec3(face.shape3)) / 3.f;
}

// The angle (radians, at most half a turn) between two orientations.
float turnAngle(const glm::quat& from, const glm::quat& to) {
  const float angle = glm::angle(glm::normalize(to * glm::inverse(from)));
  return std::min(angle, 2.f * glm::pi<float>() - angle);
}

// What one step's move of a collider may be, in metres, for the step's kernels to catch every
// particle it meets: `moved` against `allowed`. A sphere or capsule may move half its radius (a
// particle it overtakes is still on the near side of its middle). A box may move any distance
// straight, since the kernels sweep each particle's move relative to it (sweptDepth), but a turn
// bends that sweep: the arc of its corners may leave their chord by at most half its thinnest
// half extent plus margin, and a mesh's vertices by half its half thickness plus margin. A
// plane cannot be passed.
struct StepReach {
  float moved = 0.f, allowed = 1.f;
  const char* measure = "";
};

StepReach stepReach(const ColliderDesc& from, const ColliderDesc& to) {
  StepReach reach;
  switch (from.kind) {
    case ColliderDesc::Kind::Plane: break;
    case ColliderDesc::Kind::Sphere:
      reach = {glm::length(to.center - from.center), 0.5f * to.radius, "half its radius"};
      break;
    case ColliderDesc::Kind::Capsule:
      reach = {std::max(glm::length(to.center - from.center), glm::length(to.end - from.end)), 0.5f * to.radius,
               "half its radius"};
      break;
    case ColliderDesc::Kind::Box: {
      const float thinnest = std::min({to.halfExtents.x, to.halfExtents.y, to.halfExtents.z});
      reach = {glm::length(to.halfExtents) * (1.f - std::cos(turnAngle(from.rotation, to.rotation))),
               0.5f * (thinnest + to.margin), "half its thinnest half extent and margin, as its corners' turn bends off a straight line"};
      break;
    }
    case ColliderDesc::Kind::Mesh: {
      float farthest = 0.f;  // from the point it turns about
      const glm::vec3 reference = colliderReference(to);
      for (glm::vec3 v : posedMeshVertices(to)) farthest = std::max(farthest, glm::length(v - reference));
      reach = {farthest * (1.f - std::cos(turnAngle(from.meshPose.rotation, to.meshPose.rotation))),
               0.5f * (0.5f * to.thickness + to.margin), "half its half thickness and margin, as its vertices' turn bends off a straight line"};
      break;
    }
  }
  return reach;
}

}  // namespace

std::vector<KinematicStep> Kinematics::planFrame(float frameDt, int substeps, bool colliderGrid) const {
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
      const double startsAt = time_ + double(frameDt) * (s - 1) / substeps, endsAt = time_ + double(frameDt) * s / substeps;
      const ColliderDesc was = posedCollider(shapeAt(i, startsAt, float(s - 1) / float(substeps)), before);
      const ColliderDesc is = posedCollider(shapeAt(i, endsAt, float(s) / float(substeps)), after);
      const StepReach reach = stepReach(was, is);
      if (reach.moved > reach.allowed)
        throw InputError("collider " + std::to_string(i) + " would move " + shownNumber(reach.moved) +
                         " m in one step of " + shownNumber(h) + " s, more than " + reach.measure + " (" +
                         shownNumber(reach.allowed) + " m), and cloth could pass through it: take more substeps or a slower path");
      const RigidVelocity motion = velocityBetween(before, after, h, body.reference);
      const std::vector<gpu::Collider> faces = packColliders({is});  // a mesh packs one per triangle
      const bool deforms = body.deforms || body.nextShape;
      const std::vector<gpu::Collider> facesWere = deforms ? packColliders({was}) : std::vector<gpu::Collider>{};
      for (size_t k = 0; k < faces.size(); ++k) {
        gpu::Collider packed = faces[k];
        if (deforms) {  // each face of a deforming mesh moves on its own: its centre's velocity
          const glm::vec3 centre = faceCentre(packed);
          packed.velocity = glm::vec4((centre - faceCentre(facesWere[k])) / h, 0.f);
          packed.pivot = glm::vec4(centre, 0.f);
        } else {
          packed.velocity = glm::vec4(motion.velocity, 0.f);
          packed.spin = glm::vec4(motion.spin, 0.f);
          packed.pivot = glm::vec4(motion.pivot, 0.f);
        }
        step.colliders.push_back(packed);
      }
    }
  }
  if (collidersMove) {
    std::vector<const std::vector<gpu::Collider>*> poses;
    for (const KinematicStep& step : steps) poses.push_back(&step.colliders);
    steps.front().colliderGrid = colliderGrid ? buildColliderGrid(poses, h) : ColliderGridData{};
  }
  return steps;
}

void Kinematics::finishFrame(float frameDt) {
  for (std::vector<Body>* bodies : {&colliders_, &handles_})
    for (Body& body : *bodies) {
      body.now = stepPose(body, 1, 1, frameDt);
      body.next.reset();
      if (body.nextShape) body.shape = std::move(body.nextShape);
      body.nextShape.reset();
    }
  time_ += frameDt;
}

}  // namespace weft
