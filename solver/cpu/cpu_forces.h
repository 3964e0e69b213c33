#pragma once
// CPU twin of particleAcceleration() in shaders/solver_bindings.glsl: gravity, drag, the
// particle's row of springs and its elements, read from the given position and velocity arrays.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "shaders/physics.h"
#include "solver/cpu/cpu_elements.h"
#include "solver/model/collider_grid.h"
#include "solver/model/spring_table.h"

namespace weft::integrators {

inline glm::vec3 particleAcceleration(uint32_t i, glm::vec4 xi, glm::vec3 v, const std::vector<glm::vec4>& positions,
                                      const std::vector<glm::vec4>& velocities, const SpringTable& springs,
                                      const ElementTable& elements, const gpu::StepParams& p) {
  glm::vec3 force = gpu::dragForce(v, p.wind) + elementForces(i, positions, velocities, elements, p.wind, true);
  const GridSprings& grid = springs.grid;
  if (grid.stencil.width != 0) {  // the same springs in the same order, found from the index (GridStencil)
    grid.forEachSpring(i, [&](const gpu::SpringEntry& e) {
      force += gpu::springForce(gpu::xyz(xi), v, gpu::xyz(positions[e.other]), gpu::xyz(velocities[e.other]), e,
                                gpu::StrainLimit{0.f, 0.f});
    });
    return gpu::xyz(p.gravity) + xi.w * force;
  }
  for (uint32_t k = springs.rows[i]; k < springs.rows[i + 1]; ++k) {
    const gpu::SpringEntry& e = springs.entries[k];
    force += gpu::springForce(gpu::xyz(xi), v, gpu::xyz(positions[e.other]), gpu::xyz(velocities[e.other]), e,
                              springBound(springs, k));
  }
  return gpu::xyz(p.gravity) + xi.w * force;
}

// CPU twin of collideAll() in shaders/solver_bindings.glsl: every collider after a step of dt that
// moved the particle by about v dt (dt = 0: the velocity alone is corrected), or with the grid on,
// the colliders of the particle's cell unless it moved too far for them.
// Flattened (every call in it inlined): otherwise sweptDepth stayed a call, and the ABI passes its
// vec3 arguments packed two floats to a register, which GCC builds through the stack, two 4-byte
// stores read back as one 8-byte load that waits for them (xpbd's finish at 128² was 23 % of
// a step, 8 % flattened; the same bits).
#if defined(__GNUC__)
[[gnu::flatten]]
#endif
inline void collideAll(glm::vec3& x, glm::vec3& v, const std::vector<gpu::Collider>& colliders,
                       const ColliderGridData& grid, float dt) {
  const glm::vec3 start = x - v * dt;
  if (!grid.on()) {
    for (const gpu::Collider& c : colliders) gpu::collideFrom(x, v, start, c, dt);
    return;
  }
  const glm::vec3 x0 = x, v0 = v;
  float drift = 0.f;
  ColliderWalk walk(grid, x0);
  for (uint32_t c; walk.next(c);) {
    gpu::collideFrom(x, v, start, colliders[c], dt);
    drift = std::max(drift, glm::length(x - x0));
  }
  const gpu::ColliderGrid& g = grid.header;
  if (gpu::colliderGridHeld(x0, v0, dt, drift, g.reference, g.maxSpeed, g.maxSpin, g.allowance)) return;
  x = x0;
  v = v0;
  for (const gpu::Collider& c : colliders) gpu::collideFrom(x, v, start, c, dt);
}

// Whether no collider can move a particle that ends a step anywhere in the box [lo, hi]: every
// collider is a plane, sphere or capsule (whose collideFrom tests where the step ends, not its
// sweep) that keeps the whole box out of its margin, by a slack past what the float tests round.
// collideAll then leaves every such particle as it was, so a pass over a block of particles in
// that box may skip it (a cloth hanging over a floor it never touches: xpbd's finish at 128^2 spent
// 9 % of its step there). A box or mesh collider, or the face grid, is never ruled out.
inline bool collidersOutOfReach(glm::vec3 lo, glm::vec3 hi, const std::vector<gpu::Collider>& colliders,
                                const ColliderGridData& grid) {
  if (grid.on()) return false;
  const float extent = std::max({std::abs(lo.x), std::abs(lo.y), std::abs(lo.z), std::abs(hi.x), std::abs(hi.y), std::abs(hi.z)});
  for (const gpu::Collider& c : colliders) {
    const float slack = 1e-4f + 1e-5f * (extent + std::abs(c.shape.w) + c.margin);
    if (c.kind == WEFT_COLLIDER_PLANE) {  // the box's lowest point along the normal stays past the margin
      const glm::vec3 n = gpu::xyz(c.shape);
      const glm::vec3 low(n.x >= 0.f ? lo.x : hi.x, n.y >= 0.f ? lo.y : hi.y, n.z >= 0.f ? lo.z : hi.z);
      if (!(glm::dot(n, low) >= c.shape.w + c.margin + slack)) return false;
    } else if (c.kind == WEFT_COLLIDER_SPHERE || c.kind == WEFT_COLLIDER_CAPSULE) {  // the axis's box, the radius and margin away
      const glm::vec3 a = gpu::xyz(c.shape), b = c.kind == WEFT_COLLIDER_CAPSULE ? gpu::xyz(c.shape2) : a;
      if (!gpu::boxesBeyond(lo, hi, glm::min(a, b), glm::max(a, b), c.shape.w + c.margin + slack)) return false;
    } else {
      return false;
    }
  }
  return true;
}

// The box of the positions x[0, count): lowest and highest corners; NaN corners when a coordinate
// is NaN, which collidersOutOfReach never rules out.
// Where SSE2 is there (every x86-64), a position is one register: its box is two packed
// minimum and maximum instructions rather than six scalar ones. The corners come out the same
// but for the sign of a zero corner (the packed and the scalar minimum keep different ones of -0
// and +0), which no comparison against the box tells apart.
inline std::pair<glm::vec3, glm::vec3> positionsBox(const glm::vec4* x, size_t count) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  glm::vec3 lo(inf), hi(-inf);
  bool nan = false;
#if defined(__SSE2__)
  __m128 low = _mm_set1_ps(inf), high = _mm_set1_ps(-inf), unordered = _mm_setzero_ps();
  for (size_t i = 0; i < count; ++i) {
    const __m128 p = _mm_loadu_ps(&x[i].x);
    low = _mm_min_ps(low, p);
    high = _mm_max_ps(high, p);
    unordered = _mm_or_ps(unordered, _mm_cmpunord_ps(p, p));
  }
  alignas(16) float l[4], h[4];
  _mm_store_ps(l, low);
  _mm_store_ps(h, high);
  lo = glm::vec3(l[0], l[1], l[2]);
  hi = glm::vec3(h[0], h[1], h[2]);
  nan = (_mm_movemask_ps(unordered) & 7) != 0;  // x, y or z; w is the inverse mass
#else
  for (size_t i = 0; i < count; ++i) {
    const glm::vec3 p = gpu::xyz(x[i]);
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
    nan = nan || p != p;
  }
#endif
  if (nan) lo = hi = glm::vec3(std::numeric_limits<float>::quiet_NaN());
  return {lo, hi};
}

// The particles of a thread's range [begin, end) a block of kCollideBlock at a time: step(i) first
// writes particle i's position and velocity to x and v without colliding it, then the block's
// free particles (w > 0) are collided in place, unless the block's box lies out of every
// collider's reach (collidersOutOfReach), where collideAll would leave them as they are. So the
// bits are those of colliding each particle at the end of its own step, and a cloth far from its
// colliders skips the tests. step(i) may read x and v of particles other than i only where no
// step of this pass writes them (another buffer).
inline constexpr size_t kCollideBlock = 64;
// The same with the block's steps taken at once, stepBlock(b, e) stepping particles [b, e) (in
// vector lanes, say).
template <class StepBlock>
void stepBlocksThenCollide(size_t begin, size_t end, std::vector<glm::vec4>& x, std::vector<glm::vec4>& v,
                           const std::vector<gpu::Collider>& colliders, const ColliderGridData& grid, float dt,
                           StepBlock&& stepBlock) {
  for (size_t b = begin; b < end; b += kCollideBlock) {
    const size_t e = std::min(end, b + kCollideBlock);
    stepBlock(b, e);
    if (colliders.empty()) continue;
    const auto [lo, hi] = positionsBox(x.data() + b, e - b);
    if (collidersOutOfReach(lo, hi, colliders, grid)) continue;
    for (size_t i = b; i < e; ++i) {
      if (!(x[i].w > 0.f)) continue;
      glm::vec3 xi = gpu::xyz(x[i]), vi = gpu::xyz(v[i]);
      collideAll(xi, vi, colliders, grid, dt);
      x[i] = glm::vec4(xi, x[i].w);
      v[i] = glm::vec4(vi, v[i].w);
    }
  }
}
template <class Step>
void stepThenCollideBlocks(size_t begin, size_t end, std::vector<glm::vec4>& x, std::vector<glm::vec4>& v,
                           const std::vector<gpu::Collider>& colliders, const ColliderGridData& grid, float dt,
                           Step&& step) {
  stepBlocksThenCollide(begin, end, x, v, colliders, grid, dt, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) step(static_cast<uint32_t>(i));
  });
}

// CPU twin of colliderGripAll() in shaders/collider_bindings.glsl: the contact pass's move of a
// particle at x after colliderGripMove against each collider it rests on.
inline glm::vec3 colliderGripAll(glm::vec3 x, glm::vec3 move, const std::vector<gpu::Collider>& colliders,
                                 const ColliderGridData& grid) {
  if (!grid.on()) {
    for (const gpu::Collider& c : colliders) move = gpu::colliderGripMove(x, move, c);
    return move;
  }
  ColliderWalk walk(grid, x);
  for (uint32_t c; walk.next(c);) move = gpu::colliderGripMove(x, move, colliders[c]);
  return move;
}

// CPU twin of restsOnAnyCollider() in shaders/collider_bindings.glsl.
inline bool restsOnAnyCollider(glm::vec3 x, const std::vector<gpu::Collider>& colliders, const ColliderGridData& grid) {
  if (!grid.on()) {
    for (const gpu::Collider& c : colliders)
      if (gpu::restsOnCollider(x, c)) return true;
    return false;
  }
  ColliderWalk walk(grid, x);
  for (uint32_t c; walk.next(c);)
    if (gpu::restsOnCollider(x, colliders[c])) return true;
  return false;
}

// CPU twin of firstRestingCollider() in shaders/solver_bindings.glsl.
inline uint32_t firstRestingCollider(glm::vec3 x, glm::vec3 v, glm::vec3 b, const std::vector<gpu::Collider>& colliders,
                                     const ColliderGridData& grid) {
  if (!grid.on()) {
    for (uint32_t c = 0; c < colliders.size(); ++c)
      if (gpu::restingFilter(x, v, b, colliders[c]).w > WEFT_FILTER_FREE) return c;
    return WEFT_NO_COLLIDER;
  }
  ColliderWalk walk(grid, x);
  for (uint32_t c; walk.next(c);)
    if (gpu::restingFilter(x, v, b, colliders[c]).w > WEFT_FILTER_FREE) return c;
  return WEFT_NO_COLLIDER;
}

// CPU twin of firstRestingFilter() in shaders/solver_bindings.glsl.
inline glm::vec4 firstRestingFilter(glm::vec3 x, glm::vec3 v, glm::vec3 b, const std::vector<gpu::Collider>& colliders,
                                    const ColliderGridData& grid) {
  const uint32_t c = firstRestingCollider(x, v, b, colliders, grid);
  return c == WEFT_NO_COLLIDER ? glm::vec4(0.f, 0.f, 0.f, WEFT_FILTER_FREE) : gpu::restingFilter(x, v, b, colliders[c]);
}

}  // namespace weft::integrators
