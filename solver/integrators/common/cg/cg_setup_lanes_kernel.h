#pragma once
// cgSpringSums (cg_setup_lanes.h) over a lane type V (cpu/simd/lane_math.h) on V::N consecutive rows at
// once, the same operations in the same order, so each lane gives the scalar function's bits.
// Instantiated once per instruction set, by the unit built for it (cg_setup_lanes.cpp for SSE,
// cg_setup_lanes_avx2.cpp for AVX2). Member accesses only, no glm function: none may be emitted
// with a wider unit's instruction set.
#include <cstdint>

#include "solver/integrators/common/spring_term_lanes.h"
#include "solver/integrators/common/cg/cg_setup_lanes.h"
#include "solver/cpu/simd/lane_math.h"

namespace weft::integrators::lanes {

template <class V, bool Mixed>
void cgSetupGroup(const CgSetupInput& in, const SpringGroup<V::N>& g, CgSetupGroup& out) {
  using F = typename V::F;
  constexpr int N = V::N;
  const typename V::Lanes xi = V::gather(in.positions, g.self), vi = V::gather(in.velocities, g.self);
  const F zero = V::zero(), one = V::set1(1.f);
  const float a = in.forceTime, l = in.stiffnessTime;
  const F mass = V::div(one, xi.w);
  // (m + a drag) I: its diagonal times 1 and the rest times 0, as a scalar times mat3(1) is taken
  const F diagonal = V::add(mass, V::set1(a * in.wind.w));
  F b00 = V::mul(diagonal, one), b11 = b00, b22 = b00;
  F b01 = V::mul(diagonal, zero), b02 = b01, b12 = b01;  // the block stays symmetric bit for bit
  // m g + dragForce (-c (v - wind))
  const F drag = V::set1(-in.wind.w);
  F fx = V::add(V::mul(mass, V::set1(in.gravity.x)), V::mul(drag, V::sub(vi.x, V::set1(in.wind.x))));
  F fy = V::add(V::mul(mass, V::set1(in.gravity.y)), V::mul(drag, V::sub(vi.y, V::set1(in.wind.y))));
  F fz = V::add(V::mul(mass, V::set1(in.gravity.z)), V::mul(drag, V::sub(vi.z, V::set1(in.wind.z))));
  F sx = zero, sy = zero, sz = zero;
  // each lane's number of spring ends, exact in a float (a row has few)
  [[maybe_unused]] const F ends = Mixed ? V::build([&](int k) { return float(g.count[k]); }) : zero;
  const F weight = V::set1(a * l);  // springSystemBlock's stiffnessWeight
  for (uint32_t k = 0; k < g.longest; ++k) {
    const SpringSlot<N> slot = springSlot<N, Mixed>(g, in.entries, k);
    const uint32_t* at = slot.at;
    const F restL = V::build([&](int n) { return slot.rest[n]; });
    const F kL = V::build([&](int n) { return slot.stiffness[n]; });
    const F cL = V::build([&](int n) { return slot.damping[n]; });
    const typename V::Lanes xj = V::gather(in.positions, slot.other), vj = V::gather(in.velocities, slot.other);
    const SpringForce<V> s = springForce<V>(xi, vi, xj, vj, restL, kL, cL);
    const F len = s.len, along = s.along, nx = s.nx, ny = s.ny, nz = s.nz, ux = s.ux, uy = s.uy, uz = s.uz;
    [[maybe_unused]] const F live = Mixed ? V::cmpgt(ends, V::set1(float(k))) : zero;
    auto accumulate = [&](F& sum, F term) {
      const F added = V::add(sum, term);
      sum = Mixed ? keepWhere<V>(live, added, sum) : added;
    };
    // springForce: push n; +0 without a direction
    accumulate(fx, V::and_(along, V::mul(s.push, nx)));
    accumulate(fy, V::and_(along, V::mul(s.push, ny)));
    accumulate(fz, V::and_(along, V::mul(s.push, nz)));
    // springStiffnessFactors without a bound: (1, max(0, 1 - L / len))
    const F t1 = V::sub(one, V::div(restL, len));
    const F transverse = V::and_(V::cmpgt(t1, zero), t1);
    // springSystemBlock: (sqrt(beta) n, a l k t), beta = a c + a l k (1 - t) floored at 0; 0 without a direction
    const F weighted = V::mul(weight, kL);
    const F beta0 = V::add(V::mul(V::set1(a), cL), V::mul(weighted, V::sub(one, transverse)));
    const F root = V::sqrt(V::and_(V::cmpgt(beta0, zero), beta0));
    const typename V::Lanes spring = {V::and_(along, V::mul(root, nx)), V::and_(along, V::mul(root, ny)),
                                      V::and_(along, V::mul(root, nz)), V::and_(along, V::mul(weighted, transverse))};
    glm::vec4 blocks[N];
    uint32_t local[N];
    for (int n = 0; n < N; ++n) local[n] = uint32_t(n);
    V::scatter(blocks, local, spring);
    for (int n = 0; n < N; ++n)  // a pinned row's ends are not written, nor a lane's past its row
      if ((!Mixed || k < g.count[n]) && in.positions[g.self[n]].w != 0.f) in.springBlocks[at[n]] = blocks[n];
    // systemBlockMatrix: m m^T + w I, the identity's zeros multiplied too
    const F wOne = V::mul(spring.w, one), wZero = V::mul(spring.w, zero);
    accumulate(b00, V::add(V::mul(spring.x, spring.x), wOne));
    accumulate(b11, V::add(V::mul(spring.y, spring.y), wOne));
    accumulate(b22, V::add(V::mul(spring.z, spring.z), wOne));
    accumulate(b01, V::add(V::mul(spring.y, spring.x), wZero));
    accumulate(b02, V::add(V::mul(spring.z, spring.x), wZero));
    accumulate(b12, V::add(V::mul(spring.z, spring.y), wZero));
    if (l != 0.f) {
      // springStiffnessBlock k (1 n n^T + t (I - n n^T)), 0 without a direction, times (v_i - v_j)
      auto entry = [&](F nn, F identity) {
        return V::and_(along, V::mul(kL, V::add(V::mul(one, nn), V::mul(transverse, V::sub(identity, nn)))));
      };
      const F s00 = entry(V::mul(nx, nx), one), s11 = entry(V::mul(ny, ny), one), s22 = entry(V::mul(nz, nz), one);
      const F s01 = entry(V::mul(ny, nx), zero), s02 = entry(V::mul(nz, nx), zero), s12 = entry(V::mul(nz, ny), zero);
      accumulate(sx, V::add(V::add(V::mul(s00, ux), V::mul(s01, uy)), V::mul(s02, uz)));
      accumulate(sy, V::add(V::add(V::mul(s01, ux), V::mul(s11, uy)), V::mul(s12, uz)));
      accumulate(sz, V::add(V::add(V::mul(s02, ux), V::mul(s12, uy)), V::mul(s22, uz)));
    }
  }
  uint32_t local[N];
  for (int n = 0; n < N; ++n) local[n] = uint32_t(n);
  V::scatter(out.force, local, {fx, fy, fz, zero});
  V::scatter(out.stiffness, local, {sx, sy, sz, zero});
  V::scatter(out.block[0], local, {b00, b01, b02, zero});
  V::scatter(out.block[1], local, {b01, b11, b12, zero});
  V::scatter(out.block[2], local, {b02, b12, b22, zero});
}

template <class V>
void cgSetupSums(const CgSetupInput& in, uint32_t first, CgSetupGroup& out) {
  const SpringGroup<V::N> g = springGroup<V::N>(in.rows, first);
  if (g.mixed)
    cgSetupGroup<V, true>(in, g, out);
  else
    cgSetupGroup<V, false>(in, g, out);
}

}  // namespace weft::integrators::lanes
