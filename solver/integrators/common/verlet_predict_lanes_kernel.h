#pragma once
// verletPredictLanes' kernel over a lane type V (cpu/simd/lane_math.h), instantiated once per
// instruction set by the unit built for it (verlet_predict_lanes.cpp for SSE,
// verlet_predict_lanes_avx2.cpp for AVX2). Member accesses only, no glm function: none may be
// emitted with a wider unit's instruction set.
#include <cstdint>

#include "solver/integrators/common/verlet_predict_lanes.h"

namespace weft::integrators::lanes {

template <class V>
void verletPredictGroup(const VerletPredictInput& in, uint32_t first) {
  using F = typename V::F;
  uint32_t at[V::N];
  for (int l = 0; l < V::N; ++l) at[l] = first + uint32_t(l);
  const typename V::Lanes x = V::gather(in.positions, at), v = V::gather(in.velocities, at);
  V::scatter(in.prevPositions, at, x);
  const F zero = V::zero();
  const F free = V::cmpneq(x.w, zero);  // the scalar pass's pinned test, xi.w == 0 (NaN is free)
  const F dragScale = V::set1(-in.wind.w);
  const F dt = V::set1(in.dt);
  // a = gravity + w (dragForce(v, wind) + elementForces' +0); v' = v + a dt; x' = x + v' dt.
  auto component = [&](F xc, F vc, float gravity, float wind, F& xNext, F& vNext) {
    const F force = V::add(V::mul(dragScale, V::sub(vc, V::set1(wind))), zero);
    const F a = V::add(V::set1(gravity), V::mul(x.w, force));
    const F vn = V::add(vc, V::mul(a, dt));
    // A pinned particle stays where it is, at rest (+0).
    xNext = V::or_(V::and_(free, V::add(xc, V::mul(vn, dt))), V::andnot(free, xc));
    vNext = V::and_(free, vn);
  };
  typename V::Lanes xOut, vOut;
  component(x.x, v.x, in.gravity.x, in.wind.x, xOut.x, vOut.x);
  component(x.y, v.y, in.gravity.y, in.wind.y, xOut.y, vOut.y);
  component(x.z, v.z, in.gravity.z, in.wind.z, xOut.z, vOut.z);
  xOut.w = x.w;
  vOut.w = zero;
  V::scatter(in.positionsOut, at, xOut);
  V::scatter(in.velocitiesOut, at, vOut);
}

}  // namespace weft::integrators::lanes
