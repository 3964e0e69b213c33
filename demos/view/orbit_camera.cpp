#include "demos/view/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "demos/render/camera.h"

namespace weft {
namespace {
constexpr float kRadiansPerPixel = 0.006f;
constexpr float kMaxPitch = 1.55f;        // rad: just short of straight up or down, where yaw is undefined
constexpr float kZoomPerStep = 0.9f;      // distance factor per wheel step
constexpr float kMinDistance = 0.05f;     // m
constexpr float kMaxDistance = 100.f;     // m
}  // namespace

OrbitCamera::OrbitCamera(const CameraDesc& start) : target_(start.target), fovYDegrees_(start.fovYDegrees) {
  glm::vec3 offset = start.eye - start.target;
  distance_ = std::max(glm::length(offset), kMinDistance);
  yaw_ = std::atan2(offset.x, offset.z);
  pitch_ = std::asin(std::clamp(offset.y / distance_, -1.f, 1.f));
}

void OrbitCamera::orbit(glm::vec2 delta) {
  yaw_ -= delta.x * kRadiansPerPixel;
  pitch_ = std::clamp(pitch_ + delta.y * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(glm::vec2 delta, float viewportHeight) {
  CameraDesc c = desc();
  glm::vec3 forward = glm::normalize(c.target - c.eye);
  glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.f, 1.f, 0.f)));
  glm::vec3 up = glm::cross(right, forward);
  // Metres per pixel at the target's depth, so the point under the mouse stays under it.
  float scale = 2.f * distance_ * std::tan(glm::radians(fovYDegrees_) * 0.5f) / std::max(viewportHeight, 1.f);
  target_ += (-delta.x * right + delta.y * up) * scale;
}

void OrbitCamera::zoom(float steps) {
  distance_ = std::clamp(distance_ * std::pow(kZoomPerStep, steps), kMinDistance, kMaxDistance);
}

CameraDesc OrbitCamera::desc() const {
  CameraDesc c;
  c.target = target_;
  c.eye = target_ + distance_ * glm::vec3(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_),
                                          std::cos(pitch_) * std::cos(yaw_));
  c.fovYDegrees = fovYDegrees_;
  return c;
}

Ray pixelRay(const CameraDesc& camera, glm::vec2 viewport, glm::vec2 pixel) {
  glm::mat4 inverse = glm::inverse(viewProjection(camera, viewport.x / viewport.y));
  glm::vec2 ndc = pixel / viewport * 2.f - 1.f;  // the projection flips y, so y down stays y down
  glm::vec4 nearPoint = inverse * glm::vec4(ndc, 0.f, 1.f);
  glm::vec4 farPoint = inverse * glm::vec4(ndc, 1.f, 1.f);
  glm::vec3 a = glm::vec3(nearPoint) / nearPoint.w, b = glm::vec3(farPoint) / farPoint.w;
  return {camera.eye, glm::normalize(b - a)};
}

std::optional<uint32_t> pickParticle(const std::vector<glm::vec4>& positions, const CameraDesc& camera,
                                     glm::vec2 viewport, glm::vec2 pixel, float radiusPixels) {
  glm::mat4 vp = viewProjection(camera, viewport.x / viewport.y);
  std::optional<uint32_t> best;
  float bestDepth = std::numeric_limits<float>::max();
  for (uint32_t i = 0; i < positions.size(); ++i) {
    glm::vec4 clip = vp * glm::vec4(glm::vec3(positions[i]), 1.f);
    if (clip.w <= 0.f) continue;  // behind the camera
    glm::vec2 at = (glm::vec2(clip) / clip.w * 0.5f + 0.5f) * viewport;
    if (glm::length(at - pixel) > radiusPixels) continue;
    if (clip.w < bestDepth) {
      bestDepth = clip.w;
      best = i;
    }
  }
  return best;
}

glm::vec3 dragTarget(const CameraDesc& camera, const Ray& ray, glm::vec3 anchor) {
  glm::vec3 normal = glm::normalize(camera.target - camera.eye);
  float facing = glm::dot(ray.direction, normal);
  if (std::abs(facing) < 1e-6f) return anchor;  // a ray parallel to the plane: keep the particle still
  float t = glm::dot(anchor - ray.origin, normal) / facing;
  return ray.origin + std::max(t, 0.f) * ray.direction;
}

}  // namespace weft
