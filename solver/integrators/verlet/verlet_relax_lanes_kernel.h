#pragma once
// verletRelaxLanes' kernel over a lane type V (cpu/simd/lane_math.h), instantiated once per
// instruction set by the unit built for it (verlet_relax_lanes.cpp for SSE,
// verlet_relax_lanes_avx2.cpp for AVX2). Member accesses only, no glm function: none may be
// emitted with a wider unit's instruction set.
#include <cstdint>

#include "solver/integrators/common/spring_term_lanes.h"
#include "solver/integrators/verlet/verlet_relax_lanes.h"
#include "solver/cpu/simd/lane_math.h"

namespace weft::integrators::lanes {

template <class V>
void verletRelaxGroup(const VerletRelaxInput& in, uint32_t first, glm::vec4* sums) {
  using F = typename V::F;
  constexpr int N = V::N;
  const SpringGroup<N> g = springGroup<N>(in.rows, first);
  const typename V::Lanes xi = V::gather(in.positions, g.self);
  const F zero = V::zero();
  const F stiffness = V::set1(in.stiffness);
  // distanceCorrection (shaders/physics.h) of each spring end, summed in the row's order. A lane
  // out of ends, or whose spring returns no correction, adds +0: the sum starts at +0 and so is
  // never -0, and adding +0 leaves it as it was.
  F sx = zero, sy = zero, sz = zero;
  for (uint32_t k = 0; k < g.longest; ++k) {
    uint32_t other[N];
    float rest[N], ends[N];
    for (int l = 0; l < N; ++l) {
      const bool has = k < g.count[l];
      const gpu::SpringLink link = in.links[has ? g.row[l] + k : g.row[g.widest] + k];
      other[l] = has ? link.other : g.self[l];
      rest[l] = link.restLength;
      ends[l] = has ? 1.f : 0.f;
    }
    const typename V::Lanes xj = V::gather(in.positions, other);
    const F dx = V::sub(xi.x, xj.x), dy = V::sub(xi.y, xj.y), dz = V::sub(xi.z, xj.z);
    const F len = V::sqrt(dot3<V>(dx, dy, dz, dx, dy, dz));
    const F wsum = V::add(xi.w, xj.w);
    // Springs that correct: !(len < 1e-9 || wsum <= 0), NaN passing as there; and lanes with an end.
    const F moves = V::and_(V::and_(V::cmpnlt(len, V::set1(1e-9f)), V::cmpnle(wsum, zero)),
                            V::cmpgt(V::build([&](int l) { return ends[l]; }), zero));
    const F difference = V::div(V::sub(V::build([&](int l) { return rest[l]; }), len), len);
    const F share = V::div(xi.w, wsum);
    // d * (wi / wsum) * stiffness * difference, left to right as glm takes it
    auto term = [&](F d) { return V::and_(moves, V::mul(V::mul(V::mul(d, share), stiffness), difference)); };
    sx = V::add(sx, term(dx));
    sy = V::add(sy, term(dy));
    sz = V::add(sz, term(dz));
  }
  if (sums) {  // the springs' part alone: the caller finishes each particle (verletRelaxFinish)
    uint32_t local[N];
    for (int l = 0; l < N; ++l) local[l] = uint32_t(l);
    V::scatter(sums, local, {sx, sy, sz, zero});
    return;
  }
  // The elements' projections (+0: none), then x += sum * (relaxation / count) where the row has
  // springs, x += the direct corrections (+0), the Chebyshev blend with the iterate before the last
  // (none at omega 1), and the move carried into the velocity.
  sx = V::add(sx, zero), sy = V::add(sy, zero), sz = V::add(sz, zero);
  const F count = V::build([&](int l) { return float(g.count[l]); });
  const F springs = V::cmpgt(count, zero);
  const F scale = V::div(V::set1(in.relaxation), count);
  auto relaxed = [&](F x, F s) {
    const F moved = V::add(x, V::mul(s, scale));
    return V::add(V::or_(V::and_(springs, moved), V::andnot(springs, x)), zero);
  };
  F x = relaxed(xi.x, sx), y = relaxed(xi.y, sy), z = relaxed(xi.z, sz);
  const typename V::Lanes before = V::gather(in.positionsOut, g.self);
  if (in.omega != 1.0f) {
    const F omega = V::set1(in.omega);
    x = V::add(V::mul(omega, V::sub(x, before.x)), before.x);
    y = V::add(V::mul(omega, V::sub(y, before.y)), before.y);
    z = V::add(V::mul(omega, V::sub(z, before.z)), before.z);
  }
  const typename V::Lanes v = V::gather(in.velocitiesOut, g.self);
  const F dt = V::set1(in.dt);
  // A pinned particle (w not above 0, NaN included) keeps its place and its velocity, which the
  // scalar pass does not write; a free one's velocity gets w 0.
  const F free = V::cmpgt(xi.w, zero);
  auto pick = [&](F moved, F kept) { return V::or_(V::and_(free, moved), V::andnot(free, kept)); };
  const F vx = V::add(v.x, V::div(V::sub(x, xi.x), dt));
  const F vy = V::add(v.y, V::div(V::sub(y, xi.y), dt));
  const F vz = V::add(v.z, V::div(V::sub(z, xi.z), dt));
  V::scatter(in.velocitiesOut, g.self, {pick(vx, v.x), pick(vy, v.y), pick(vz, v.z), pick(zero, v.w)});
  V::scatter(in.positionsOut, g.self, {pick(x, xi.x), pick(y, xi.y), pick(z, xi.z), xi.w});
}

}  // namespace weft::integrators::lanes
