#pragma once
// springSystemProduct (cg_product_lanes.h) over a lane type V (cpu/simd/lane_math.h) on V::N
// consecutive rows at once, the same operations in the same order, so each lane gives the scalar
// function's bits. Instantiated once per instruction set, by the unit built for it
// (cg_product_lanes.cpp for SSE, cg_product_lanes_avx2.cpp for AVX2).
#include <cstddef>
#include <cstdint>

#include "solver/integrators/common/spring_term_lanes.h"
#include "solver/integrators/common/cg/cg_product_lanes.h"
#include "solver/cpu/simd/lane_math.h"

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

template <class V, bool Mixed>
void springProductGroup(const SpringProductInput& in, const SpringGroup<V::N>& g, glm::vec4* out, float* cq) {
  using F = typename V::F;
  constexpr int N = V::N;
  uint32_t local[N];
  for (int l = 0; l < N; ++l) local[l] = uint32_t(l);
  const typename V::Lanes x = V::gather(in.positions, g.self), u = V::gather(in.u, g.self);
  // (1 / w + a drag) u_i, then the springs' terms
  const F diagonal = V::add(V::div(V::set1(1.0f), x.w), V::set1(in.dragTime));
  F px = V::mul(diagonal, u.x), py = V::mul(diagonal, u.y), pz = V::mul(diagonal, u.z);
  springTerms<V, Mixed, false>(g, in.entries, in.blocks, in.u, u, px, py, pz);
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
  const typename V::Lanes q = filter<V>(V::gather(in.constraint, g.self), V::add(px, zero), V::add(py, zero), V::add(pz, zero));
  V::scatter(out, local, q);
  V::store(cq, dot3<V>(u.x, u.y, u.z, q.x, q.y, q.z));
}

template <class V>
void springProducts(const SpringProductInput& in, uint32_t first, glm::vec4* out, float* cq) {
  const SpringGroup<V::N> g = springGroup<V::N>(in.rows, first);
  if (g.mixed)
    springProductGroup<V, true>(in, g, out, cq);
  else
    springProductGroup<V, false>(in, g, out, cq);
}

}  // namespace weft::integrators::lanes
