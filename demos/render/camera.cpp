#include "demos/render/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace weft {
namespace {

constexpr glm::vec3 kUp{0.f, 1.f, 0.f};

glm::vec3 viewDirection(const CameraDesc& camera) {
  glm::vec3 forward = camera.target - camera.eye;
  float length = glm::length(forward);
  return length > 1e-6f ? forward / length : glm::vec3(0.f, 0.f, -1.f);
}

// World up, unless the camera looks (almost) straight up or down, where lookAt with +y would be
// degenerate: then the image's up is world -z, as on a map.
glm::vec3 cameraUp(glm::vec3 forward) {
  return glm::length(glm::cross(forward, kUp)) > 1e-3f ? kUp : glm::vec3(0.f, 0.f, -1.f);
}

}  // namespace

glm::mat4 viewProjection(const CameraDesc& camera, float aspect) {
  glm::vec3 forward = viewDirection(camera);
  // Explicit RH_ZO rather than GLM_FORCE_DEPTH_ZERO_TO_ONE: the macro would have to precede every glm
  // include of the translation unit, including those in shared headers.
  glm::mat4 projection = glm::perspectiveRH_ZO(glm::radians(camera.fovYDegrees), aspect, kNearPlane, kFarPlane);
  projection[1][1] *= -1.f;  // Vulkan's framebuffer Y points down
  glm::mat4 view = glm::lookAtRH(camera.eye, camera.eye + forward, cameraUp(forward));
  return projection * view;
}

glm::vec3 lightDirection(const CameraDesc& camera) {
  glm::vec3 forward = viewDirection(camera);
  glm::vec3 right = glm::normalize(glm::cross(forward, cameraUp(forward)));
  glm::vec3 towardsViewer = -forward;
  towardsViewer.y = std::max(towardsViewer.y, 0.f);  // never light from below
  return glm::normalize(kUp + 0.7f * towardsViewer + 0.3f * right);
}

CameraDesc fitCamera(const std::vector<glm::vec4>& positions) {
  glm::vec3 lo(positions.empty() ? glm::vec4(0.f) : positions[0]), hi = lo;
  for (const glm::vec4& p : positions) {
    lo = glm::min(lo, glm::vec3(p));
    hi = glm::max(hi, glm::vec3(p));
  }
  glm::vec3 center = 0.5f * (lo + hi);
  float extent = std::max(glm::length(hi - lo), 0.1f);
  CameraDesc camera;
  camera.target = center;
  camera.eye = center + extent * glm::vec3(0.7f, 0.45f, 1.1f);
  return camera;
}

}  // namespace weft
