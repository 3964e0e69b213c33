#pragma once
// accelerationLanes' kernel over a lane type V (xpbd_lane_math.h), instantiated once per
// instruction set by the unit built for it (acceleration_lanes.cpp for SSE,
// acceleration_lanes_avx2.cpp for AVX2). Member accesses only, no glm function: none may be
// emitted with a wider unit's instruction set.
#include <cstdint>

#include "solver/integrators/common/acceleration_lanes.h"
#include "solver/integrators/common/spring_term_lanes.h"
#include "solver/integrators/xpbd/xpbd_lane_math.h"

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
  for (uint32_t k = 0; k < g.longest; ++k) {
    uint32_t other[N];
    float rest[N], stiffness[N], damping[N], ends[N];
    for (int l = 0; l < N; ++l) {
      const bool has = k < g.count[l];
      const gpu::SpringEntry& e = in.entries[has ? g.row[l] + k : g.row[g.widest] + k];
      other[l] = has ? e.other : g.self[l];
      rest[l] = e.restLength, stiffness[l] = e.stiffness, damping[l] = e.damping;
      ends[l] = has ? 1.f : 0.f;
    }
    const typename V::Lanes xj = V::gather(in.positions, other), vj = V::gather(in.velocities, other);
    // springForce (shaders/physics.h), unbounded
    const F dx = V::sub(xi.x, xj.x), dy = V::sub(xi.y, xj.y), dz = V::sub(xi.z, xj.z);
    const F len = V::sqrt(dot3<V>(dx, dy, dz, dx, dy, dz));
    // Springs that push: !(len < 1e-9), NaN passing as there; and lanes with an end.
    const F moves = V::and_(V::cmpnlt(len, V::set1(1e-9f)), V::cmpgt(V::build([&](int l) { return ends[l]; }), zero));
    const F nx = V::div(dx, len), ny = V::div(dy, len), nz = V::div(dz, len);
    const F rate = dot3<V>(V::sub(vi.x, vj.x), V::sub(vi.y, vj.y), V::sub(vi.z, vj.z), nx, ny, nz);
    const F magnitude = V::add(V::mul(V::build([&](int l) { return stiffness[l]; }),
                                      V::sub(len, V::build([&](int l) { return rest[l]; }))),
                               V::mul(V::build([&](int l) { return damping[l]; }), rate));
    const F push = negate<V>(magnitude);
    fx = V::add(fx, V::and_(moves, V::mul(push, nx)));
    fy = V::add(fy, V::and_(moves, V::mul(push, ny)));
    fz = V::add(fz, V::and_(moves, V::mul(push, nz)));
  }
  // gravity + w force
  uint32_t local[N];
  for (int l = 0; l < N; ++l) local[l] = uint32_t(l);
  V::scatter(out, local,
             {V::add(V::set1(in.gravity.x), V::mul(xi.w, fx)), V::add(V::set1(in.gravity.y), V::mul(xi.w, fy)),
              V::add(V::set1(in.gravity.z), V::mul(xi.w, fz)), zero});
}

}  // namespace weft::integrators::lanes
