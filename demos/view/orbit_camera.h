#pragma once
// The viewer's camera as the mouse drives it (orbit around a target, pan, zoom), and the ray
// geometry of picking and dragging a particle. No window here, so all of it is testable headless.
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "demos/common/camera_desc.h"

namespace weft {

class OrbitCamera {
 public:
  explicit OrbitCamera(const CameraDesc& start = CameraDesc{});

  // Mouse motion in pixels over a viewport `viewportHeight` pixels tall.
  void orbit(glm::vec2 deltaPixels);                       // yaw and pitch around the target
  void pan(glm::vec2 deltaPixels, float viewportHeight);  // the target follows the mouse in the view plane
  void zoom(float wheelSteps);                             // positive: closer

  CameraDesc desc() const;

 private:
  glm::vec3 target_;
  float distance_;  // m, eye to target
  float yaw_;       // rad around +y
  float pitch_;     // rad above the horizon
  float fovYDegrees_;
};

struct Ray {
  glm::vec3 origin;
  glm::vec3 direction;  // unit
};

// The ray through pixel `pixel` (x right, y down) of a `viewport`-sized image seen by `camera`.
Ray pixelRay(const CameraDesc& camera, glm::vec2 viewport, glm::vec2 pixel);

// The particle whose image lies nearest `pixel` within `radiusPixels`, the one nearest the camera
// among those that close; none if no particle projects that near.
std::optional<uint32_t> pickParticle(const std::vector<glm::vec4>& positions, const CameraDesc& camera,
                                     glm::vec2 viewport, glm::vec2 pixel, float radiusPixels = 12.f);

// Where the ray meets the plane through `anchor` facing the camera: the target of a drag that keeps
// the grabbed particle at its depth.
glm::vec3 dragTarget(const CameraDesc& camera, const Ray& ray, glm::vec3 anchor);

}  // namespace weft
