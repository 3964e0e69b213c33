#pragma once
// accelerationLanes' kernel over a lane type V (cpu/simd/lane_math.h), instantiated once per
// instruction set by the unit built for it (acceleration_lanes.cpp for SSE,
// acceleration_lanes_avx2.cpp for AVX2). Member accesses only, no glm function: none may be
// emitted with a wider unit's instruction set.
#include <cstdint>

#include "solver/integrators/common/acceleration_lanes.h"
#include "solver/integrators/common/spring_term_lanes.h"
#include "solver/cpu/simd/lane_math.h"

namespace weft::integrators::lanes {

template <class V>
void accelerationGroup(const AccelerationInput& in, uint32_t first, glm::vec4* out) {
  using F = typename V::F;
  constexpr int N = V::N;
  const SpringGroup<N> g = springGroup<N>(in.rows, first);
  const typename V::Lanes xi = V::gather(in.positions, g.self), vi = V::gather(in.velocities, g.self);
  const F zero = V::zero();
  // dragForce (-c (v - wind)), then the elements' +0: the force is never -0 from here on, so a
  // spring that adds +0 (no direction, or a lane out of ends) leaves it as it was.
  const F drag = V::set1(-in.wind.w);
  F fx = V::add(V::mul(drag, V::sub(vi.x, V::set1(in.wind.x))), zero);
  F fy = V::add(V::mul(drag, V::sub(vi.y, V::set1(in.wind.y))), zero);
  F fz = V::add(V::mul(drag, V::sub(vi.z, V::set1(in.wind.z))), zero);
  // each lane's number of spring ends, exact in a float (a row has few)
  const F ends = V::build([&](int l) { return float(g.count[l]); });
  for (uint32_t k = 0; k < g.longest; ++k) {
    const SpringSlot<N> slot = springSlot<N, true>(g, in.entries, k);
    const typename V::Lanes xj = V::gather(in.positions, slot.other), vj = V::gather(in.velocities, slot.other);
    const SpringForce<V> s =
        springForce<V>(xi, vi, xj, vj, V::build([&](int l) { return slot.rest[l]; }),
                       V::build([&](int l) { return slot.stiffness[l]; }), V::build([&](int l) { return slot.damping[l]; }));
    // Springs that push: those with a direction, in lanes with an end.
    const F moves = V::and_(s.along, V::cmpgt(ends, V::set1(float(k))));
    fx = V::add(fx, V::and_(moves, V::mul(s.push, s.nx)));
    fy = V::add(fy, V::and_(moves, V::mul(s.push, s.ny)));
    fz = V::add(fz, V::and_(moves, V::mul(s.push, s.nz)));
  }
  // gravity + w force
  uint32_t local[N];
  for (int l = 0; l < N; ++l) local[l] = uint32_t(l);
  V::scatter(out, local,
             {V::add(V::set1(in.gravity.x), V::mul(xi.w, fx)), V::add(V::set1(in.gravity.y), V::mul(xi.w, fy)),
              V::add(V::set1(in.gravity.z), V::mul(xi.w, fz)), zero});
}

}  // namespace weft::integrators::lanes
