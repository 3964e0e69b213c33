#pragma once
// Springs in gather form: a CSR row per particle listing every spring that touches it, each
// stored once per endpoint. Both backends read this layout, so they sum forces in the same order.
#include <cstdint>
#include <vector>

#include "shaders/shared.h"
#include "solver/model/cloth_model.h"
#include "solver/model/grid_stencil.h"
#include "solver/model/scene.h"

namespace weft {

struct SpringTable {
  std::vector<uint32_t> rows;              // N + 1 row starts
  std::vector<gpu::SpringEntry> entries;   // 2 S entries
  std::vector<gpu::SpringLink> links;      // the same entries, other end and rest length only
  // The same entries' allowed lengths; empty unless some spring has a strain limit, which is how
  // both backends know to run no strain-limit pass at all.
  std::vector<gpu::StrainLimit> strainLimits;
  // The same entries' breaking lengths and model spring indices; empty unless some spring tears.
  std::vector<gpu::TearLimit> tearLimits;
  // The same entries' force bounds (seed 004's bounded spring force, physics.h springResponse); empty
  // unless some spring's material bounds its force.
  std::vector<gpu::StrainLimit> forceBounds;
  // The same rows found from the particle's index (findGridSprings): none unless the cloth is seed
  // 004's grid exactly; then the kernels that gather springs may read this instead of the rows.
  GridSprings grid;
};

// Entry k's force bound, as springBound() in shaders/solver_bindings.glsl: none without a table.
inline gpu::StrainLimit springBound(const SpringTable& table, uint32_t k) {
  return table.forceBounds.empty() ? gpu::StrainLimit{0.f, 0.f} : table.forceBounds[k];
}
SpringTable buildSpringTable(const ClothModel& model);

std::vector<gpu::Collider> packColliders(const std::vector<ColliderDesc>& colliders);

// Initial state in the GPU layout: positions carry the inverse mass in w (0 = pinned).
std::vector<glm::vec4> packPositions(const ClothModel& model);
std::vector<glm::vec4> packVelocities(const ClothModel& model);

}  // namespace weft
