#pragma once
// xpbdFinishLanes' kernel over a lane type V (cpu/simd/lane_math.h), instantiated once per instruction
// set by the unit built for it (xpbd_finish_lanes.cpp for SSE, xpbd_lanes_avx2.cpp for AVX2).
// Member accesses only, no glm function: none may be emitted with a wider unit's instruction set.
#include <cstdint>

#include "solver/integrators/xpbd/xpbd_finish_lanes.h"

namespace weft::integrators::lanes {

template <class V>
void xpbdFinishGroup(const XpbdFinishInput& in, uint32_t first) {
  using F = typename V::F;
  uint32_t at[V::N];
  for (int l = 0; l < V::N; ++l) at[l] = first + uint32_t(l);
  const typename V::Lanes x = V::gather(in.positions, at), p = V::gather(in.predicted, at),
                          v = V::gather(in.velocities, at);
  const F free = V::cmpneq(x.w, V::zero());  // the scalar test: w == 0 is pinned (NaN is free)
  const F dt = V::set1(in.dt);
  // carryCorrection: v + (after - before) / dt, w then +0; a pinned particle keeps its velocity.
  auto carried = [&](F vc, F xc, F pc) {
    return V::or_(V::and_(free, V::add(vc, V::div(V::sub(xc, pc), dt))), V::andnot(free, vc));
  };
  V::scatter(in.velocities, at,
             {carried(v.x, x.x, p.x), carried(v.y, x.y, p.y), carried(v.z, x.z, p.z), V::andnot(free, v.w)});
}

}  // namespace weft::integrators::lanes
