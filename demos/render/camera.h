#pragma once
// Camera and light for drawing a scene with Vulkan conventions: depth in [0, 1] and the projection's
// Y flipped, so the image's top row is the top of the view and triangles counter-clockwise as seen by
// the viewer stay front-facing.
#include <vector>

#include <glm/glm.hpp>

#include "demos/common/camera_desc.h"

namespace weft {

constexpr float kNearPlane = 0.02f;  // m
constexpr float kFarPlane = 200.f;   // m

glm::mat4 viewProjection(const CameraDesc& camera, float aspect);

// Unit vector towards the light: from above, slightly in front of the scene and to the camera's
// side, so whatever the camera sees is lit and surfaces facing it are not flat.
glm::vec3 lightDirection(const CameraDesc& camera);

// Frames the positions' bounding box from the front-right and a little above: the view of a
// recording, which carries no camera of its own.
CameraDesc fitCamera(const std::vector<glm::vec4>& positions);

}  // namespace weft
