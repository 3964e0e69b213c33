// weft::StepSettings and weft::Collider: the public settings, turned into the solver's parameters.
#include "weft/settings.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/error.h"
#include "shaders/shared.h"
#include "solver/api/api_internal.h"
#include "solver/model/settings_check.h"

namespace weft {

Collider Collider::plane(glm::vec3 normal, float offset) {
  Collider c;
  c.shape = Shape::Plane;
  c.normal = normal;
  c.offset = offset;
  return c;
}

Collider Collider::sphere(glm::vec3 center, float radius) {
  Collider c;
  c.shape = Shape::Sphere;
  c.center = center;
  c.radius = radius;
  return c;
}

Collider Collider::box(glm::vec3 center, glm::vec3 halfExtents, glm::vec3 axis, float angle) {
  Collider c;
  c.shape = Shape::Box;
  c.center = center;
  c.halfExtents = halfExtents;
  c.axis = axis;
  c.angle = angle;
  return c;
}

Collider Collider::mesh(std::vector<glm::vec3> vertices, std::vector<glm::uvec3> triangles, float thickness) {
  Collider c;
  c.shape = Shape::Mesh;
  c.vertices = std::move(vertices);
  c.triangles = std::move(triangles);
  c.thickness = thickness;
  return c;
}

Collider Collider::capsule(glm::vec3 a, glm::vec3 b, float radius) {
  Collider c;
  c.shape = Shape::Capsule;
  c.center = a;
  c.end = b;
  c.radius = radius;
  return c;
}

// integratorNames() is the model library's own (solver/model/integrator_names.cpp).

namespace detail {
namespace {

bool finite(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

void require(bool ok, const std::string& what) {
  if (!ok) throw InputError("StepSettings: " + what);
}

// What StepSettings holds beside the solver's settings (whose ranges checkSettings holds, as for a
// scene file): the surroundings and the colliders.
void validate(const StepSettings& s) {
  require(finite(s.gravity) && finite(s.wind), "gravity and wind must be finite");
  require(std::isfinite(s.airDrag) && s.airDrag >= 0.f, "airDrag must be zero or positive");
  for (size_t i = 0; i < s.colliders.size(); ++i) {
    const Collider& c = s.colliders[i];
    const std::string which = "collider " + std::to_string(i);
    require(finite(c.normal) && finite(c.center) && finite(c.end) && std::isfinite(c.offset),
            which + " must have finite coordinates");
    require(std::isfinite(c.friction) && c.friction >= 0.f, which + "'s friction must be zero or positive");
    require(std::isfinite(c.staticFriction) && (c.staticFriction < 0.f || c.staticFriction >= c.friction),
            which + "'s staticFriction must be at least its friction (or negative: the same)");
    require(std::isfinite(c.margin) && c.margin >= 0.f, which + "'s margin must be zero or positive");
    if (c.shape == Collider::Shape::Plane) {
      require(glm::length(c.normal) > 1e-6f, which + "'s normal must not be zero");
    } else if (c.shape == Collider::Shape::Box) {
      require(finite(c.halfExtents) && c.halfExtents.x > 0.f && c.halfExtents.y > 0.f && c.halfExtents.z > 0.f,
              which + "'s half extents must be positive");
      require(finite(c.axis) && std::isfinite(c.angle) && glm::length(c.axis) > 1e-6f,
              which + "'s axis must not be zero, and its angle must be finite");
    } else if (c.shape == Collider::Shape::Mesh) {
      require(std::isfinite(c.thickness) && c.thickness > 0.f, which + "'s thickness must be positive");
      require(!c.triangles.empty() && c.triangles.size() <= kMaxColliderTriangles,
              which + " must have 1 to " + std::to_string(kMaxColliderTriangles) + " triangles (got " +
                  std::to_string(c.triangles.size()) + ")");
      for (glm::vec3 v : c.vertices) require(finite(v), which + " must have finite vertices");
      for (const glm::uvec3& t : c.triangles)
        require(t.x < c.vertices.size() && t.y < c.vertices.size() && t.z < c.vertices.size(),
                which + "'s triangles must index its " + std::to_string(c.vertices.size()) + " vertices");
    } else {
      require(std::isfinite(c.radius) && c.radius > 0.f, which + "'s radius must be positive");
    }
  }
  const ContactSettings& k = s.contact;
  require(std::isfinite(k.thickness) && k.thickness > 0.f, "contact.thickness must be positive");
  require(std::isfinite(k.radius) && (k.radius == 0.f || k.radius > k.thickness),
          "contact.radius must be 0 (chosen from the cloth) or more than the thickness");
  require(std::isfinite(k.friction) && k.friction >= 0.f, "contact.friction must be zero or positive");
  require(std::isfinite(k.staticFriction) && k.staticFriction >= k.friction,
          "contact.staticFriction must be at least contact.friction");
}

}  // namespace

static_assert(static_cast<int>(Collider::Shape::Sphere) == static_cast<int>(ColliderDesc::Kind::Sphere) &&
                  static_cast<int>(Collider::Shape::Capsule) == static_cast<int>(ColliderDesc::Kind::Capsule) &&
                  static_cast<int>(Collider::Shape::Box) == static_cast<int>(ColliderDesc::Kind::Box) &&
                  static_cast<int>(Collider::Shape::Mesh) == static_cast<int>(ColliderDesc::Kind::Mesh),
              "the public collider shapes are the solver's");

static_assert(kContactNear == WEFT_CONTACT_MARK_NEAR && kContactPushed == WEFT_CONTACT_MARK_PUSHED &&
                  kContactCutShort == WEFT_CONTACT_MARK_LIMITED && kContactHeld == WEFT_CONTACT_MARK_HELD,
              "the public contact marks are the kernels' bits");

ContactReport contactReport(const Solver& solver) {
  const ContactStats stats = solver.lastContactStats();
  return {stats.minDistance, stats.contactVertices, stats.limitedVertices, stats.nearVertices};
}

void setColliderTransform(Solver& solver, size_t index, const glm::mat4& transform) {
  const glm::mat3 r(transform);
  const glm::mat3 gram = glm::transpose(r) * r;
  float off = 0.f;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) off = std::max(off, std::abs(gram[i][j] - (i == j ? 1.f : 0.f)));
  const glm::vec4 last(transform[0][3], transform[1][3], transform[2][3], transform[3][3]);
  if (!(off < 1e-4f) || !(glm::determinant(r) > 0.f) || last != glm::vec4(0.f, 0.f, 0.f, 1.f))
    throw InputError("a collider transform must be a rotation and a translation, without scale, shear, reflection or projection");
  if (index >= solver.params().colliders.size())
    throw InputError("no collider " + std::to_string(index) + ": the settings have " +
                     std::to_string(solver.params().colliders.size()));
  RigidPose pose;
  pose.rotation = glm::normalize(glm::quat_cast(r));
  pose.translation = glm::vec3(transform[3]);
  solver.setColliderPose(index, pose);
}

void setColliderVertices(Solver& solver, size_t index, const std::vector<glm::vec3>& vertices) {
  if (index >= solver.params().colliders.size())
    throw InputError("no collider " + std::to_string(index) + ": the settings have " +
                     std::to_string(solver.params().colliders.size()));
  solver.setColliderVertices(index, vertices);
}

SolverParams toSolverParams(const StepSettings& settings) {
  validate(settings);
  SolverParams params;
  params.integrator = parseIntegrator(settings.integrator);
  params.iterations = settings.iterations;
  params.tolerance = settings.tolerance;
  params.maxIterations = settings.maxIterations;
  params.preconditioner = parsePreconditionerName(settings.preconditioner);
  checkSettings(params, "StepSettings");
  params.environment.gravity = settings.gravity;
  params.environment.wind = settings.wind;
  params.environment.airDrag = settings.airDrag;
  for (const Collider& c : settings.colliders) {
    ColliderDesc desc;
    desc.kind = static_cast<ColliderDesc::Kind>(c.shape);
    desc.normal = c.shape == Collider::Shape::Plane ? glm::normalize(c.normal) : c.normal;
    desc.offset = c.offset;
    desc.center = c.center;
    desc.end = c.end;
    desc.radius = c.radius;
    desc.halfExtents = c.halfExtents;
    if (c.shape == Collider::Shape::Box) desc.rotation = glm::angleAxis(c.angle, glm::normalize(c.axis));
    if (c.shape == Collider::Shape::Mesh) desc.mesh = std::make_shared<const ColliderMesh>(ColliderMesh{c.vertices, c.triangles});
    desc.thickness = c.thickness;
    desc.friction = c.friction;
    desc.staticFriction = c.staticFriction;
    desc.margin = c.margin;
    params.colliders.push_back(desc);
  }
  params.contact.enabled = settings.contact.enabled;
  params.contact.thickness = settings.contact.thickness;
  params.contact.radius = settings.contact.radius;
  params.contact.friction = settings.contact.friction;
  params.contact.staticFriction = settings.contact.staticFriction;
  return params;
}

}  // namespace detail
}  // namespace weft
