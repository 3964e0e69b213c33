#pragma once
// The spring loop that implicit CG's system product and Newton-Chebyshev's Jacobi sweep share, over
// a lane type V (cpu/simd/lane_math.h) on V::N consecutive rows: each spring end's block b, in the form
// of applySystemBlock (b.xyz dot(b.xyz, d) + b.w d, d = u_i - u_j), added to
// or taken from each lane's sum in the row's order, so each lane gives the scalar loop's bits.
// The rows may have different numbers of spring ends (a mesh's valences, a grid's edges): each
// slot up to the longest row is gathered for every lane, and a lane out of ends keeps its sum.
#include <cstdint>

#include "shaders/shared.h"
#include "solver/cpu/simd/lane_math.h"

namespace weft::integrators::lanes {

// Where V::N consecutive rows start in a spring table and how many ends each has.
template <int N>
struct SpringGroup {
  uint32_t self[N];   // the rows' particles
  uint32_t row[N];    // each row's first entry
  uint32_t count[N];  // each row's spring ends
  uint32_t longest = 0, widest = 0;  // the most ends a row has, and that row's lane
  bool mixed = false;                // whether the rows' counts differ
};

template <int N>
SpringGroup<N> springGroup(const uint32_t* rows, uint32_t first) {
  SpringGroup<N> g;
  for (int l = 0; l < N; ++l) {
    g.self[l] = first + uint32_t(l);
    g.row[l] = rows[first + l];
    g.count[l] = rows[first + l + 1] - g.row[l];
    g.mixed = g.mixed || g.count[l] != g.count[0];
    if (g.count[l] > g.longest) g.longest = g.count[l], g.widest = uint32_t(l);
  }
  return g;
}

// A lane a row with fewer spring ends has left keeps its sum: a bitwise pick, not an added 0 (an
// added +0 turns the scalar row's -0 into +0).
template <class V>
typename V::F keepWhere(typename V::F mask, typename V::F taken, typename V::F kept) {
  return V::or_(V::and_(mask, taken), V::andnot(mask, kept));
}

// Slot k of a group's rows in a spring table: each lane's entry, its far end and its constants. A row
// out of ends (Mixed only) reads the longest row's entry against its own particle: any valid entry,
// whose terms the caller drops.
template <int N>
struct SpringSlot {
  uint32_t at[N], other[N];
  float rest[N], stiffness[N], damping[N];
};

template <int N, bool Mixed>
SpringSlot<N> springSlot(const SpringGroup<N>& g, const gpu::SpringEntry* entries, uint32_t k) {
  SpringSlot<N> s;
  for (int l = 0; l < N; ++l) {
    const bool has = !Mixed || k < g.count[l];
    s.at[l] = has ? g.row[l] + k : g.row[g.widest] + k;
    const gpu::SpringEntry& e = entries[s.at[l]];
    s.other[l] = has ? e.other : g.self[l];
    s.rest[l] = e.restLength, s.stiffness[l] = e.stiffness, s.damping[l] = e.damping;
  }
  return s;
}

// springForce (shaders/physics.h), unbounded, in lanes: the spring's axis and its push
// -(k (len - L) + c (v_i - v_j).n), in the scalar function's operations and order. Its force is
// along and (push n): +0 where the spring has no direction (!(len < 1e-9) fails; NaN passes as there).
template <class V>
struct SpringForce {
  typename V::F len, along, nx, ny, nz, ux, uy, uz, push;
};

template <class V>
SpringForce<V> springForce(const typename V::Lanes& xi, const typename V::Lanes& vi, const typename V::Lanes& xj,
                           const typename V::Lanes& vj, typename V::F rest, typename V::F stiffness,
                           typename V::F damping) {
  using F = typename V::F;
  SpringForce<V> s;
  const F dx = V::sub(xi.x, xj.x), dy = V::sub(xi.y, xj.y), dz = V::sub(xi.z, xj.z);
  s.len = V::sqrt(dot3<V>(dx, dy, dz, dx, dy, dz));
  s.along = V::cmpnlt(s.len, V::set1(1e-9f));
  s.nx = V::div(dx, s.len), s.ny = V::div(dy, s.len), s.nz = V::div(dz, s.len);
  s.ux = V::sub(vi.x, vj.x), s.uy = V::sub(vi.y, vj.y), s.uz = V::sub(vi.z, vj.z);
  const F magnitude = V::add(V::mul(stiffness, V::sub(s.len, rest)),
                             V::mul(damping, dot3<V>(s.ux, s.uy, s.uz, s.nx, s.ny, s.nz)));
  s.push = negate<V>(magnitude);
  return s;
}

// (px, py, pz) += (or -=, Subtract) each of the group's spring terms, blocks[k] (u_i - u[other_k]),
// in row order. Mixed: the rows' counts may differ (masks and picks); else all have g.longest (a
// grid's inside, the common case, without the masks' cost).
template <class V, bool Mixed, bool Subtract>
void springTerms(const SpringGroup<V::N>& g, const gpu::SpringEntry* entries, const glm::vec4* blocks,
                 const glm::vec4* u, const typename V::Lanes& ui, typename V::F& px, typename V::F& py,
                 typename V::F& pz) {
  using F = typename V::F;
  constexpr int N = V::N;
  // each lane's number of spring ends, exact in a float (a row has few)
  [[maybe_unused]] const F ends = Mixed ? V::build([&](int l) { return float(g.count[l]); }) : V::zero();
  for (uint32_t k = 0; k < g.longest; ++k) {
    // A row out of ends reads the longest row's block and its own u: any valid entry, its term dropped.
    uint32_t at[N], other[N];
    for (int l = 0; l < N; ++l) {
      const bool has = !Mixed || k < g.count[l];
      at[l] = has ? g.row[l] + k : g.row[g.widest] + k;
      other[l] = has ? entries[at[l]].other : g.self[l];
    }
    const typename V::Lanes b = V::gather(blocks, at), uj = V::gather(u, other);
    const F dx = V::sub(ui.x, uj.x), dy = V::sub(ui.y, uj.y), dz = V::sub(ui.z, uj.z);
    const F t = dot3<V>(b.x, b.y, b.z, dx, dy, dz);
    const F tx = V::add(V::mul(b.x, t), V::mul(b.w, dx));
    const F ty = V::add(V::mul(b.y, t), V::mul(b.w, dy));
    const F tz = V::add(V::mul(b.z, t), V::mul(b.w, dz));
    const F sx = Subtract ? V::sub(px, tx) : V::add(px, tx);
    const F sy = Subtract ? V::sub(py, ty) : V::add(py, ty);
    const F sz = Subtract ? V::sub(pz, tz) : V::add(pz, tz);
    if constexpr (Mixed) {
      const F live = V::cmpgt(ends, V::set1(float(k)));
      px = keepWhere<V>(live, sx, px);
      py = keepWhere<V>(live, sy, py);
      pz = keepWhere<V>(live, sz, pz);
    } else {
      px = sx, py = sy, pz = sz;
    }
  }
}

}  // namespace weft::integrators::lanes
