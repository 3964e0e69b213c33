#pragma once
// projectTetherLanes' kernel over a lane type V (cpu/simd/lane_math.h): gpu::xpbdTether
// (shaders/xpbd.h) and projectTether's writes (xpbd_tether.h) on V::N tethers of one colour at once,
// the same operations in the same order, so each lane gives the scalar path's bits. Instantiated
// once per instruction set, by the unit built for it (xpbd_tether_lanes.cpp for SSE,
// xpbd_lanes_avx2.cpp for AVX2). Member accesses only, no glm function: none may be emitted
// with a wider unit's instruction set.
#include <cstddef>
#include <cstdint>

#include "shaders/shared.h"
#include "solver/cpu/simd/lane_math.h"

namespace weft::integrators::lanes {

template <class V>
size_t projectTethers(const gpu::XpbdConstraint* c, size_t count, glm::vec4* x, const glm::vec4* start, float h,
                      glm::vec4* lambdas, bool first, bool keep) {
  using F = typename V::F;
  constexpr int N = V::N;
  const F hh = V::set1(h);
  const F zero = V::zero();
  size_t done = 0;
  for (; done + N <= count; done += N) {
    const gpu::XpbdConstraint* q = c + done;
    uint32_t at0[N], at1[N];
    bool lanes = true;
    for (int l = 0; l < N; ++l) {  // each a tether carried in full (tetherConstraint, xpbd_tether.h)
      lanes = lanes && q[l].form == WEFT_XPBD_TETHER && q[l].node1 == WEFT_XPBD_ELEMENT;
      at0[l] = q[l].tetherParticle;
      at1[l] = q[l].tetherAnchor;
    }
    if (!lanes) break;
    const typename V::Lanes x1 = V::gather(x, at1);
    if (V::any(V::cmpgt(x1.w, zero))) break;  // a free anchor: the scalar path moves it
    const typename V::Lanes x0 = V::gather(x, at0);
    const F rest = V::build([q](int l) { return q[l].restLength; });
    // xpbdTether: active beyond the limit only, !(len <= rest || len < 1e-12), NaN passing as there.
    const F dx = V::sub(x0.x, x1.x), dy = V::sub(x0.y, x1.y), dz = V::sub(x0.z, x1.z);
    const F len = V::sqrt(dot3<V>(dx, dy, dz, dx, dy, dz));
    const F active = V::and_(V::cmpnle(len, rest), V::cmpnlt(len, V::set1(1e-12f)));
    // A group whose tethers are all slack moves nothing: its multiplier steps are +0 and so are
    // its moves, whatever the gradient, so the divisions and the step are left out and the writes
    // below give the bits the full path gives (x + 0 where node i is free).
    F gx = zero, gy = zero, gz = zero, dlambda = zero;
    if (V::any(active)) {
      const F stiffness = V::build([q](int l) { return q[l].stiffness; });
      const F damping = V::build([q](int l) { return q[l].damping; });
      const F lambda = first ? zero : V::build([lambdas, done](int l) { return lambdas[done + l].x; });
      gx = V::div(dx, len), gy = V::div(dy, len), gz = V::div(dz, len);
      const F hx = negate<V>(gx), hy = negate<V>(gy), hz = negate<V>(gz);  // the anchor's gradient
      const F zeroDot = dot3<V>(zero, zero, zero, zero, zero, zero);
      const F slotZero = V::mul(x0.w, zeroDot);  // slots 2 and 3: node i, zero gradient
      const F weight = V::add(
          V::add(V::add(V::mul(x0.w, dot3<V>(gx, gy, gz, gx, gy, gz)), V::mul(x1.w, dot3<V>(hx, hy, hz, hx, hy, hz))),
                 slotZero),
          slotZero);
      // The rate, where a lane has damping (+0 elsewhere, as xpbdTether takes it); a group of
      // undamped tethers reads no start positions.
      const F damped = V::cmpneq(damping, zero);
      F change = zero;
      if (V::any(damped)) {
        const typename V::Lanes s0 = V::gather(start, at0), s1 = V::gather(start, at1);
        const F ux = V::sub(x0.x, s0.x), uy = V::sub(x0.y, s0.y), uz = V::sub(x0.z, s0.z);
        const F vx = V::sub(x1.x, s1.x), vy = V::sub(x1.y, s1.y), vz = V::sub(x1.z, s1.z);
        const F zeroRate = dot3<V>(zero, zero, zero, ux, uy, uz);
        change = V::and_(damped, V::add(V::add(V::add(dot3<V>(gx, gy, gz, ux, uy, uz), dot3<V>(hx, hy, hz, vx, vy, vz)),
                                               zeroRate),
                                        zeroRate));
      }
      dlambda = V::and_(active,
                        multiplierStep<V>(V::sub(len, rest), change, weight, stiffness, V::mul(damping, stiffness), hh, lambda));
    }
    // projectTether's writes to node i, each of slots 0, 2 and 3 adding to what the last wrote;
    // xpbdTether sums each move onto +0 (which turns a -0 move to +0), and leaves +0 where the
    // tether is slack. Node i is written only where it is free; the anchor is pinned, not written.
    const F t0 = V::mul(x0.w, dlambda);
    const F m2 = V::and_(active, V::add(zero, V::mul(t0, zero)));
    const F mx = V::and_(active, V::add(zero, V::mul(t0, gx)));
    const F my = V::and_(active, V::add(zero, V::mul(t0, gy)));
    const F mz = V::and_(active, V::add(zero, V::mul(t0, gz)));
    const F w = V::add(V::add(V::add(x0.w, zero), zero), zero);
    const F free = V::cmpgt(x0.w, zero);
    // Where node i is free, the slots' sum; where pinned, what it held.
    const F nx = V::or_(V::and_(free, V::add(V::add(V::add(x0.x, mx), m2), m2)), V::andnot(free, x0.x));
    const F ny = V::or_(V::and_(free, V::add(V::add(V::add(x0.y, my), m2), m2)), V::andnot(free, x0.y));
    const F nz = V::or_(V::and_(free, V::add(V::add(V::add(x0.z, mz), m2), m2)), V::andnot(free, x0.z));
    const F nw = V::or_(V::and_(free, w), V::andnot(free, x0.w));
    V::scatter(x, at0, {nx, ny, nz, nw});
    if (keep) {
      float changes[N];
      V::store(changes, dlambda);
      for (int l = 0; l < N; ++l) {
        glm::vec4& kept = lambdas[done + l];
        if (first) kept.y = kept.z = kept.w = 0.f;
        // before + (change, 0, 0, 0): the other three components add +0.
        kept.x = (first ? 0.f : kept.x) + changes[l];
        kept.y = kept.y + 0.f;
        kept.z = kept.z + 0.f;
        kept.w = kept.w + 0.f;
      }
    }
  }
  return done;
}

}  // namespace weft::integrators::lanes
