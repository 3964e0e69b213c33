#pragma once
// The hash grid over mesh colliders' faces (gpu::ColliderGrid in shaders/shared.h says what it
// holds and why the result is the same as testing every collider), built on the host: once for
// colliders that stay put (Solver::setParams), once a frame for those that move, over every step's
// pose of every face (Kinematics::planFrame). Both backends read the same lists.
#include <cstdint>
#include <vector>

#include "shaders/shared.h"

namespace weft {

// Fewer mesh faces than this are tested one by one: the grid would cost more than it saves.
inline constexpr size_t kColliderGridMinFaces = 64;
// A face whose reach covers more cells than this (a floor of two huge triangles) is tested by every
// particle instead: it would otherwise fill the table.
inline constexpr size_t kColliderGridMaxCellsPerFace = 125;
// The speed of cloth, m/s, the allowance covers in a step at the least, besides the surface's own (a
// particle faster than that tests every collider, with the same result, only slower).
inline constexpr float kColliderGridSpeed = 2.f;
// The step the grid of colliders that stay put is made for, s (it cannot know the caller's): four
// steps a frame at 60 frames a second. Shorter steps are no slower; longer ones send more particles
// to test every collider.
inline constexpr float kColliderGridStaticStep = 1.f / 240.f;

// The WEFT_SPEC_COLLIDER_KINDS bits of a set of colliders: a bit for each kind among them, and
// WEFT_COLLIDER_GRID_BIT when `gridAllowed` and enough of them are mesh faces for a grid to be built.
uint32_t colliderKindBits(const std::vector<gpu::Collider>& colliders, bool gridAllowed);

struct ColliderGridData {
  gpu::ColliderGrid header{};     // tableSize 0: no grid
  std::vector<uint32_t> cells{0};  // WEFT_BIND_COLLIDER_CELLS; never empty (a buffer is bound)
  bool on() const { return header.tableSize != 0; }
};

// The grid for `steps`: the colliders at each step of a frame (one array for colliders that stay
// put), every array with the same colliders in the same order. `stepDt`: the steps' length, s.
ColliderGridData buildColliderGrid(const std::vector<const std::vector<gpu::Collider>*>& steps, float stepDt);

// The colliders a particle at x tests with the grid on, ascending (as colliderWalk and
// nextCollider in shaders/solver_bindings.glsl).
class ColliderWalk {
 public:
  ColliderWalk(const ColliderGridData& grid, glm::vec3 x);
  // The next collider into c; false when none is left.
  bool next(uint32_t& c);

 private:
  const std::vector<uint32_t>& cells_;
  uint32_t always_ = 0, alwaysEnd_ = 0, cell_ = 0, cellEnd_ = 0;
};

}  // namespace weft
