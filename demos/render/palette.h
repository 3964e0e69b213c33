#pragma once
// The scene's colours, in one place: the drawer shades with them and tests compare pixels with them.
#include <glm/glm.hpp>

namespace weft::palette {
constexpr glm::vec3 kSky{0.78f, 0.84f, 0.90f};  // light grey-blue background
constexpr glm::vec3 kCloth{0.85f, 0.32f, 0.20f};
constexpr glm::vec3 kSphere{0.30f, 0.62f, 0.48f};
constexpr glm::vec3 kPlane{0.62f, 0.60f, 0.56f};
}  // namespace weft::palette
