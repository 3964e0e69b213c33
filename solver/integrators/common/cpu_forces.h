#pragma once
// CPU twin of particleAcceleration() in shaders/solver_bindings.glsl: gravity, drag, the
// particle's row of springs and its elements, read from the given position and velocity arrays.
#include <vector>

#include "shaders/physics.h"
#include "solver/integrators/common/cpu_elements.h"
#include "solver/spring_table.h"

namespace weft::integrators {

inline glm::vec3 particleAcceleration(uint32_t i, glm::vec4 xi, glm::vec3 v, const std::vector<glm::vec4>& positions,
                                      const std::vector<glm::vec4>& velocities, const SpringTable& springs,
                                      const ElementTable& elements, const gpu::StepParams& p) {
  glm::vec3 force = gpu::dragForce(v, p.wind) + elementForces(i, positions, velocities, elements, p.wind, true);
  for (uint32_t k = springs.rows[i]; k < springs.rows[i + 1]; ++k) {
    const gpu::SpringEntry& e = springs.entries[k];
    force += gpu::springForce(gpu::xyz(xi), v, gpu::xyz(positions[e.other]), gpu::xyz(velocities[e.other]), e,
                              springBound(springs, k));
  }
  return gpu::xyz(p.gravity) + xi.w * force;
}

// CPU twin of collideAll() in shaders/solver_bindings.glsl: every collider after a step of dt that
// moved the particle by about v dt (dt = 0: the velocity alone is corrected).
inline void collideAll(glm::vec3& x, glm::vec3& v, const std::vector<gpu::Collider>& colliders, float dt) {
  const glm::vec3 start = x - v * dt;
  for (const gpu::Collider& c : colliders) gpu::collideFrom(x, v, start, c, dt);
}

}  // namespace weft::integrators
