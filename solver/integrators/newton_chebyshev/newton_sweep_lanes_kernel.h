#pragma once
// springResidual (newton_sweep_lanes.h) over a lane type V (xpbd_lane_math.h) on V::N consecutive
// rows at once, the same operations in the same order, so each lane gives the scalar function's
// bits. Instantiated once per instruction set, by the unit built for it (newton_sweep_lanes.cpp
// for SSE, newton_sweep_lanes_avx2.cpp for AVX2).
#include <cstddef>
#include <cstdint>

#include "solver/integrators/common/spring_term_lanes.h"
#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"

namespace weft::integrators::lanes {

template <class V, bool Mixed>
void springResidualGroup(const SpringResidualInput& in, const SpringGroup<V::N>& g, glm::vec4* out) {
  using F = typename V::F;
  constexpr int N = V::N;
  uint32_t local[N], rest[N];
  for (int l = 0; l < N; ++l) {
    local[l] = uint32_t(l);
    rest[l] = 2 * g.self[l] + 1;
  }
  const typename V::Lanes y = V::gather(in.dx, g.self), b = V::gather(in.rhs, g.self);
  const F massTerm = V::gather(in.diagonal, rest).z;
  // b_i - (mass term) y_i, then the springs' terms taken away
  F rx = V::sub(b.x, V::mul(massTerm, y.x)), ry = V::sub(b.y, V::mul(massTerm, y.y)),
    rz = V::sub(b.z, V::mul(massTerm, y.z));
  springTerms<V, Mixed, true>(g, in.entries, in.couplings, in.dx, y, rx, ry, rz);
  V::scatter(out, local, {rx, ry, rz, V::zero()});
}

template <class V>
void springResiduals(const SpringResidualInput& in, uint32_t first, glm::vec4* out) {
  const SpringGroup<V::N> g = springGroup<V::N>(in.rows, first);
  if (g.mixed)
    springResidualGroup<V, true>(in, g, out);
  else
    springResidualGroup<V, false>(in, g, out);
}

}  // namespace weft::integrators::lanes
