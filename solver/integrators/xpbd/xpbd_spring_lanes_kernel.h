#pragma once
// projectSpringLanes' kernel over a lane type V (cpu/simd/lane_math.h): xpbdSpring (shaders/xpbd.h) on
// V::N springs of one colour at once, the same operations in the same order, so each lane gives
// the scalar function's bits. Instantiated once per instruction set, by the unit built for it
// (xpbd_spring_lanes.cpp for SSE, xpbd_lanes_avx2.cpp for AVX2).
#include <cstddef>
#include <cstdint>

#include "shaders/shared.h"
#include "solver/cpu/simd/lane_math.h"

namespace weft::integrators::lanes {

template <class V>
size_t projectSprings(const gpu::XpbdConstraint* c, size_t count, glm::vec4* x, const glm::vec4* start, float h,
                      glm::vec4* lambdas, bool first, bool keep) {
  using F = typename V::F;
  constexpr int N = V::N;
  const F hh = V::set1(h);
  const F zero = V::zero();
  size_t done = 0;
  for (; done + N <= count; done += N) {
    const gpu::XpbdConstraint* q = c + done;
    bool element = false;
    for (int l = 0; l < N; ++l) element |= q[l].node1 == WEFT_XPBD_ELEMENT;
    if (element) break;
    uint32_t at0[N], at1[N];
    for (int l = 0; l < N; ++l) {
      at0[l] = q[l].node0;
      at1[l] = q[l].node1;
    }
    const typename V::Lanes x0 = V::gather(x, at0), x1 = V::gather(x, at1);
    const F rest = V::build([q](int l) { return q[l].restLength; });
    const F stiffness = V::build([q](int l) { return q[l].stiffness; });
    const F damping = V::build([q](int l) { return q[l].damping; });
    const F lambda = first ? zero : V::build([lambdas, done](int l) { return lambdas[done + l].x; });
    // xpbdSpring
    const F dx = V::sub(x0.x, x1.x), dy = V::sub(x0.y, x1.y), dz = V::sub(x0.z, x1.z);
    const F len = V::sqrt(dot3<V>(dx, dy, dz, dx, dy, dz));
    const F weight = V::add(x0.w, x1.w);
    // Springs that return no move: !(len < 1e-9 || weight <= 0 || stiffness <= 0), NaN passing as there.
    const F moves = V::and_(V::and_(V::cmpnlt(len, V::set1(1e-9f)), V::cmpnle(weight, zero)), V::cmpnle(stiffness, zero));
    const F inverse = V::div(V::set1(1.0f), len);
    const F nx = V::mul(dx, inverse), ny = V::mul(dy, inverse), nz = V::mul(dz, inverse);
    // The rate, where a lane has damping (+0 elsewhere, as the scalar function takes it); a group
    // of undamped springs reads no start positions.
    const F damped = V::cmpneq(damping, zero);
    F change = zero;
    if (V::any(damped)) {
      const typename V::Lanes s0 = V::gather(start, at0), s1 = V::gather(start, at1);
      const F ax = V::sub(V::sub(x0.x, s0.x), V::sub(x1.x, s1.x));
      const F ay = V::sub(V::sub(x0.y, s0.y), V::sub(x1.y, s1.y));
      const F az = V::sub(V::sub(x0.z, s0.z), V::sub(x1.z, s1.z));
      change = V::and_(damped, dot3<V>(nx, ny, nz, ax, ay, az));
    }
    const F dlambda = multiplierStep<V>(V::sub(len, rest), change, weight, stiffness, damping, hh, lambda);
    // The moves, and +0 (the scalar function's zero move) where the spring returned early.
    const F t0 = V::mul(x0.w, dlambda), t1 = negate<V>(V::mul(x1.w, dlambda));
    const F m0x = V::and_(moves, V::mul(t0, nx)), m0y = V::and_(moves, V::mul(t0, ny)), m0z = V::and_(moves, V::mul(t0, nz));
    const F m1x = V::and_(moves, V::mul(t1, nx)), m1y = V::and_(moves, V::mul(t1, ny)), m1z = V::and_(moves, V::mul(t1, nz));
    V::scatter(x, at0, {V::add(x0.x, m0x), V::add(x0.y, m0y), V::add(x0.z, m0z), V::add(x0.w, zero)});
    V::scatter(x, at1, {V::add(x1.x, m1x), V::add(x1.y, m1y), V::add(x1.z, m1z), V::add(x1.w, zero)});
    if (keep) {
      float kept[N];
      V::store(kept, V::add(lambda, V::and_(moves, dlambda)));
      // Member by member: no glm function is called here, so none is emitted with this unit's
      // instruction set for the linker to pick in another's place.
      for (int l = 0; l < N; ++l) {
        glm::vec4& full = lambdas[done + l];
        full.x = kept[l];
        if (first) full.y = full.z = full.w = 0.f;
      }
    }
  }
  return done;
}

}  // namespace weft::integrators::lanes
