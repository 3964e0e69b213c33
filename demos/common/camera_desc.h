#pragma once
// Where a picture of the scene is taken from: a scene file's "camera" section, the start of the
// viewer's orbit camera and the view of `weft run --png`.
#include <glm/glm.hpp>

namespace weft {

struct CameraDesc {
  glm::vec3 eye{1.5f, 1.0f, 2.5f};
  glm::vec3 target{0.f, 0.f, 0.f};
  float fovYDegrees = 45.f;
};

}  // namespace weft
