#pragma once
// springSystemProduct (cg_product_lanes.h) over a lane type V (xpbd_lane_math.h) on V::N
// consecutive rows at once, the same operations in the same order, so each lane gives the scalar
// function's bits. Instantiated once per instruction set, by the unit built for it
// (cg_product_lanes.cpp for SSE, cg_product_lanes_avx2.cpp for AVX2).
#include <cstddef>
#include <cstdint>

#include "solver/integrators/implicit_cg/cg_product_lanes.h"
#include "solver/integrators/xpbd/xpbd_lane_math.h"

namespace weft::integrators::lanes {

// applyFilter (shaders/physics.h) on lanes: 0 where pinned, the normal's part taken out where
// resting on a collider, as it is elsewhere.
template <class V>
typename V::Lanes filter(const typename V::Lanes& constraint, typename V::F x, typename V::F y, typename V::F z) {
  using F = typename V::F;
  const F pinned = V::cmpnlt(constraint.w, V::set1(float(WEFT_FILTER_PINNED)));
  const F contact = V::cmpnlt(constraint.w, V::set1(float(WEFT_FILTER_CONTACT)));
  const F t = dot3<V>(x, y, z, constraint.x, constraint.y, constraint.z);
  auto pick = [&](F v, F n) {
    const F slid = V::sub(v, V::mul(t, n));
    return V::andnot(pinned, V::or_(V::and_(contact, slid), V::andnot(contact, v)));
  };
  return {pick(x, constraint.x), pick(y, constraint.y), pick(z, constraint.z), V::zero()};
}

// Lanes a row with fewer spring ends has left keep their sums: a bitwise pick, not an added 0 (an
// added +0 turns the scalar row's -0 into +0).
template <class V>
typename V::F keepWhere(typename V::F mask, typename V::F taken, typename V::F kept) {
  return V::or_(V::and_(mask, taken), V::andnot(mask, kept));
}

// Mixed: the group's rows may have different numbers of spring ends (masks and picks); else they
// all have `longest` (a grid's inside, the common case, without the masks' cost).
template <class V, bool Mixed>
void springProductGroup(const SpringProductInput& in, uint32_t first, const uint32_t* row, const uint32_t* count,
                        uint32_t longest, uint32_t widest, glm::vec4* out, float* cq) {
  using F = typename V::F;
  constexpr int N = V::N;
  uint32_t self[N], local[N];
  for (int l = 0; l < N; ++l) {
    self[l] = first + uint32_t(l);
    local[l] = uint32_t(l);
  }
  const typename V::Lanes x = V::gather(in.positions, self), u = V::gather(in.u, self);
  // (1 / w + a drag) u_i
  const F diagonal = V::add(V::div(V::set1(1.0f), x.w), V::set1(in.dragTime));
  F px = V::mul(diagonal, u.x), py = V::mul(diagonal, u.y), pz = V::mul(diagonal, u.z);
  // each lane's number of spring ends, exact in a float (a row has few)
  [[maybe_unused]] const F ends = Mixed ? V::build([&](int l) { return float(count[l]); }) : V::zero();
  for (uint32_t k = 0; k < longest; ++k) {
    // A row out of ends reads the longest row's block and its own u: any valid entry, its term dropped.
    uint32_t at[N], other[N];
    for (int l = 0; l < N; ++l) {
      const bool has = !Mixed || k < count[l];
      at[l] = has ? row[l] + k : row[widest] + k;
      other[l] = has ? in.entries[at[l]].other : self[l];
    }
    const typename V::Lanes b = V::gather(in.blocks, at), uj = V::gather(in.u, other);
    // applySystemBlock(b, u_i - u_j) = b.xyz dot(b.xyz, d) + b.w d
    const F dx = V::sub(u.x, uj.x), dy = V::sub(u.y, uj.y), dz = V::sub(u.z, uj.z);
    const F t = dot3<V>(b.x, b.y, b.z, dx, dy, dz);
    const F sx = V::add(px, V::add(V::mul(b.x, t), V::mul(b.w, dx)));
    const F sy = V::add(py, V::add(V::mul(b.y, t), V::mul(b.w, dy)));
    const F sz = V::add(pz, V::add(V::mul(b.z, t), V::mul(b.w, dz)));
    if constexpr (Mixed) {
      const F live = V::cmpgt(ends, V::set1(float(k)));
      px = keepWhere<V>(live, sx, px);
      py = keepWhere<V>(live, sy, py);
      pz = keepWhere<V>(live, sz, pz);
    } else {
      px = sx, py = sy, pz = sz;
    }
  }
  // +0 where the particle is pinned (w not above 0, NaN included), as the scalar function returns.
  const F free = V::cmpgt(x.w, V::zero());
  px = V::and_(free, px);
  py = V::and_(free, py);
  pz = V::and_(free, pz);
  if (!in.constraint) {
    V::scatter(out, local, {px, py, pz, V::zero()});
    return;
  }
  // cgFilteredRow: the elements' +0, the filter, and c.q.
  const F zero = V::zero();
  const typename V::Lanes q = filter<V>(V::gather(in.constraint, self), V::add(px, zero), V::add(py, zero), V::add(pz, zero));
  V::scatter(out, local, q);
  V::store(cq, dot3<V>(u.x, u.y, u.z, q.x, q.y, q.z));
}

template <class V>
void springProducts(const SpringProductInput& in, uint32_t first, glm::vec4* out, float* cq) {
  constexpr int N = V::N;
  uint32_t row[N], count[N];
  uint32_t longest = 0, widest = 0;  // the most spring ends a row of the group has, and that row
  bool mixed = false;
  for (int l = 0; l < N; ++l) {
    row[l] = in.rows[first + l];
    count[l] = in.rows[first + l + 1] - row[l];
    mixed = mixed || count[l] != count[0];
    if (count[l] > longest) longest = count[l], widest = uint32_t(l);
  }
  if (mixed)
    springProductGroup<V, true>(in, first, row, count, longest, widest, out, cq);
  else
    springProductGroup<V, false>(in, first, row, count, longest, widest, out, cq);
}

}  // namespace weft::integrators::lanes
