#pragma once
// The scene's colours, in one place: the drawer shades with them and tests compare pixels with them.
#include <glm/glm.hpp>

namespace weft::palette {
constexpr glm::vec3 kSky{0.78f, 0.84f, 0.90f};  // light grey-blue background
constexpr glm::vec3 kCloth{0.85f, 0.32f, 0.20f};
constexpr glm::vec3 kSphere{0.30f, 0.62f, 0.48f};
constexpr glm::vec3 kPlane{0.62f, 0.60f, 0.56f};
// The springs overlay: one colour per family, particles dark.
constexpr glm::vec3 kStructural{0.55f, 0.12f, 0.08f};
constexpr glm::vec3 kShear{0.15f, 0.35f, 0.75f};
constexpr glm::vec3 kBend{0.20f, 0.55f, 0.25f};
constexpr glm::vec3 kParticle{0.08f, 0.08f, 0.10f};
// The contact overlay: each particle in the colour of its strongest WEFT_CONTACT_MARK_*.
constexpr glm::vec3 kContactNear{0.98f, 0.86f, 0.20f};     // yellow: within the radius
constexpr glm::vec3 kContactPushed{0.15f, 0.45f, 0.95f};   // blue: pushed back to the thickness
constexpr glm::vec3 kContactLimited{0.85f, 0.15f, 0.80f};  // magenta: its move cut short by its bound
constexpr glm::vec3 kContactHeld{0.05f, 0.05f, 0.05f};     // black: held where it was
}  // namespace weft::palette
