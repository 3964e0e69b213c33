#pragma once
// A Newton-Chebyshev sweep (springResidual and newtonSweepRow, newton_sweep_lanes.h) over a lane
// type V (cpu/simd/lane_math.h) on V::N consecutive rows at once, the same operations in the same
// order, so each lane gives the scalar functions' bits. Instantiated once per instruction set, by
// the unit built for it (newton_sweep_lanes.cpp for SSE, newton_sweep_lanes_avx2.cpp for AVX2).
#include <cstddef>
#include <cstdint>

#include "solver/integrators/common/spring_term_lanes.h"
#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"

namespace weft::integrators::lanes {

// The lanes' residual r_j: springResidual, then taken's rows taken away where it is given.
template <class V, bool Mixed>
void sweepResidual(const NewtonSweepInput& in, const SpringGroup<V::N>& g, const typename V::Lanes& y,
                   typename V::F massTerm, const glm::vec4* taken, typename V::F& rx, typename V::F& ry,
                   typename V::F& rz) {
  const typename V::Lanes b = V::gather(in.rhs, g.self);
  // b_i - (mass term) y_i, then the springs' terms taken away
  rx = V::sub(b.x, V::mul(massTerm, y.x)), ry = V::sub(b.y, V::mul(massTerm, y.y)),
  rz = V::sub(b.z, V::mul(massTerm, y.z));
  springTerms<V, Mixed, true>(g, in.entries, in.couplings, in.dx, y, rx, ry, rz);
  if (taken) {
    uint32_t local[V::N];
    for (int l = 0; l < V::N; ++l) local[l] = uint32_t(l);
    const typename V::Lanes t = V::gather(taken, local);
    rx = V::sub(rx, t.x), ry = V::sub(ry, t.y), rz = V::sub(rz, t.z);
  }
}

// newtonSweepRow in lanes; a pinned lane (mass term not above 0, NaN included) gets +0 for its
// residual and its y_(j+1), and keeps its lastJacobi, as the scalar row does.
template <class V, bool Mixed>
void sweepGroup(const NewtonSweepInput& in, const SpringGroup<V::N>& g, const glm::vec4* taken, float* norms) {
  using F = typename V::F;
  constexpr int N = V::N;
  uint32_t block[N], rest[N];
  for (int l = 0; l < N; ++l) block[l] = 2 * g.self[l], rest[l] = 2 * g.self[l] + 1;
  const typename V::Lanes y = V::gather(in.dx, g.self), a = V::gather(in.diagonal, block),
                          c = V::gather(in.diagonal, rest);
  F rx, ry, rz;
  sweepResidual<V, Mixed>(in, g, y, c.z, taken, rx, ry, rz);
  const F live = V::cmpgt(c.z, V::zero());
  rx = V::and_(live, rx), ry = V::and_(live, ry), rz = V::and_(live, rz);
  // symmetricProduct(a, c, r): (a.x a.w c.x; a.w a.y c.y; c.x c.y a.z) r, each row summed left to right
  const F px = V::add(V::add(V::mul(a.x, rx), V::mul(a.w, ry)), V::mul(c.x, rz));
  const F py = V::add(V::add(V::mul(a.w, rx), V::mul(a.y, ry)), V::mul(c.y, rz));
  const F pz = V::add(V::add(V::mul(c.x, rx), V::mul(c.y, ry)), V::mul(a.z, rz));
  const F step = V::set1(gpu::newtonJacobiStep(in.nesterov ? 1u : 0u));
  const F jx = V::add(y.x, V::mul(step, px)), jy = V::add(y.y, V::mul(step, py)), jz = V::add(y.z, V::mul(step, pz));
  F nx = jx, ny = jy, nz = jz;
  const F w = V::set1(in.omega);
  if (in.nesterov) {
    typename V::Lanes last = V::gather(in.lastJacobi, g.self);
    if (in.omega != 0.f) {  // jacobi + omega (jacobi - last)
      nx = V::add(jx, V::mul(w, V::sub(jx, last.x)));
      ny = V::add(jy, V::mul(w, V::sub(jy, last.y)));
      nz = V::add(jz, V::mul(w, V::sub(jz, last.z)));
    }
    last = {keepWhere<V>(live, jx, last.x), keepWhere<V>(live, jy, last.y), keepWhere<V>(live, jz, last.z),
            keepWhere<V>(live, V::zero(), last.w)};
    V::scatter(in.lastJacobi, g.self, last);
  } else if (in.omega != 1.f) {  // chebyshevBlend: omega (jacobi - y_(j-1)) + y_(j-1)
    const typename V::Lanes prev = V::gather(in.dxPrev, g.self);
    nx = V::add(V::mul(w, V::sub(jx, prev.x)), prev.x);
    ny = V::add(V::mul(w, V::sub(jy, prev.y)), prev.y);
    nz = V::add(V::mul(w, V::sub(jz, prev.z)), prev.z);
  }
  V::scatter(in.dxPrev, g.self, {V::and_(live, nx), V::and_(live, ny), V::and_(live, nz), V::zero()});
  V::store(norms, dot3<V>(rx, ry, rz, rx, ry, rz));
}

template <class V>
void newtonSweeps(const NewtonSweepInput& in, uint32_t first, const glm::vec4* taken, float* norms) {
  const SpringGroup<V::N> g = springGroup<V::N>(in.rows, first);
  if (g.mixed)
    sweepGroup<V, true>(in, g, taken, norms);
  else
    sweepGroup<V, false>(in, g, taken, norms);
}

}  // namespace weft::integrators::lanes
