#pragma once
// contactNearLanes', contactTriangleLanes' and contactEdgeLanes' kernels over a lane type V
// (cpu/simd/lane_math.h), instantiated once per instruction set by the unit built for
// it (contact_search_lanes.cpp for SSE, contact_search_lanes_avx2.cpp for AVX2). Member accesses only, no glm function: none may be emitted
// with a wider unit's instruction set.
#include <cstdint>

#include "solver/contact/contact_search_lanes.h"
#include "solver/cpu/simd/lane_math.h"

namespace weft::lanes {

using integrators::lanes::dot3;

// Three lanes of coordinates: a point or a vector per lane.
template <class V>
struct Vec3 {
  typename V::F x, y, z;
};

// pointSegmentDistance2 (shaders/contact.h) in lanes: the squared distance from p to the segment
// from a along ab, t clamped as glm::clamp does (min(max(t, 0), 1)).
template <class V>
inline typename V::F pointSegmentDistance2(const Vec3<V>& p, const Vec3<V>& a, const Vec3<V>& ab,
                                           typename V::F invLength2) {
  using F = typename V::F;
  const F apx = V::sub(p.x, a.x), apy = V::sub(p.y, a.y), apz = V::sub(p.z, a.z);
  const F t = V::min(V::max(V::mul(dot3<V>(apx, apy, apz, ab.x, ab.y, ab.z), invLength2), V::zero()), V::set1(1.0f));
  const F offx = V::sub(apx, V::mul(t, ab.x)), offy = V::sub(apy, V::mul(t, ab.y)), offz = V::sub(apz, V::mul(t, ab.z));
  return dot3<V>(offx, offy, offz, offx, offy, offz);
}

template <class V>
uint32_t contactNearMask(const float* x, const float* y, const float* z, uint32_t count, glm::vec3 p, float reach2,
                         float* apart2) {
  using F = typename V::F;
  const F px = V::set1(p.x), py = V::set1(p.y), pz = V::set1(p.z), reach = V::set1(reach2);
  uint32_t bits = 0;
  for (uint32_t j = 0; j < count; j += uint32_t(V::N)) {
    const F gx = V::sub(V::load(x + j), px), gy = V::sub(V::load(y + j), py), gz = V::sub(V::load(z + j), pz);
    const F d2 = dot3<V>(gx, gy, gz, gx, gy, gz);
    V::store(apart2 + j, d2);
    bits |= uint32_t(V::movemask(V::cmpnle(reach, d2))) << j;  // !(apart2 >= reach2)
  }
  return count < 32u ? bits & ((1u << count) - 1u) : bits;
}

template <class V>
void contactTriangleMasks(const ContactTriangleBatch& b, const glm::vec4* start, const glm::vec4* spheres, glm::vec3 p,
                          float reach, uint32_t* bits) {
  using F = typename V::F;
  const F px = V::set1(p.x), py = V::set1(p.y), pz = V::set1(p.z), zero = V::zero();
  const F reachLanes = V::set1(reach), reach2 = V::set1(reach * reach);
  for (uint32_t j = 0; j < b.count; j += uint32_t(V::N)) {
    // sphereBeyond: dot(p - centre) >= (reach + radius)^2
    const typename V::Lanes s = V::gather(spheres, b.t + j);
    const F sx = V::sub(px, s.x), sy = V::sub(py, s.y), sz = V::sub(pz, s.z);
    const F far = V::add(reachLanes, s.w);
    const F nearSphere = V::cmpnle(V::mul(far, far), dot3<V>(sx, sy, sz, sx, sy, sz));
    // vertexTriangleBeyond: the point's box (p, p) against glm::min(a, glm::min(b, c)) and the max
    const typename V::Lanes a = V::gather(start, b.a + j), bb = V::gather(start, b.b + j), c = V::gather(start, b.c + j);
    auto gap = [&](F q, F ac, F bc, F cc) {
      const F lo = V::min(ac, V::min(bc, cc)), hi = V::max(ac, V::max(bc, cc));
      return V::max(V::max(V::sub(lo, q), V::sub(q, hi)), zero);
    };
    const F gx = gap(px, a.x, bb.x, c.x), gy = gap(py, a.y, bb.y, c.y), gz = gap(pz, a.z, bb.z, c.z);
    const F nearBox = V::cmpnle(reach2, dot3<V>(gx, gy, gz, gx, gy, gz));
    const uint32_t passing = uint32_t(V::movemask(V::and_(nearSphere, nearBox)));
    const uint32_t valid = b.count - j < uint32_t(V::N) ? (1u << (b.count - j)) - 1u : (1u << V::N) - 1u;
    bits[j / 32u] |= (passing & valid) << (j % 32u);
  }
}

template <class V>
void contactEdgeMasks(const ContactEdgeBatch& b, const ContactOwnEdge* own, uint32_t ownCount, float radius,
                      uint32_t* masks) {
  using F = typename V::F;
  const F zero = V::zero();
  const F radiusLanes = V::set1(radius);
  const F radius2 = V::set1(radius * radius);
  for (uint32_t f = 0; f < b.count; f += uint32_t(V::N)) {
    const Vec3<V> q0{V::load(b.q0x + f), V::load(b.q0y + f), V::load(b.q0z + f)};
    const Vec3<V> q1{V::load(b.q1x + f), V::load(b.q1y + f), V::load(b.q1z + f)};
    const Vec3<V> middle{V::load(b.cx + f), V::load(b.cy + f), V::load(b.cz + f)};
    const F half = V::load(b.cw + f);
    const Vec3<V> along{V::sub(q1.x, q0.x), V::sub(q1.y, q0.y), V::sub(q1.z, q0.z)};
    // fSphere.w > 0 ? 0.25 / (w * w) : 0
    const F invLength2 = V::and_(V::cmpgt(half, zero), V::div(V::set1(0.25f), V::mul(half, half)));
    const F fReach = V::add(radiusLanes, half);
    const F fReach2 = V::mul(fReach, fReach);
    // glm::min(q0, q1) and glm::max(q0, q1): the box of each foreign edge
    const Vec3<V> lo1{V::min(q0.x, q1.x), V::min(q0.y, q1.y), V::min(q0.z, q1.z)};
    const Vec3<V> hi1{V::max(q0.x, q1.x), V::max(q0.y, q1.y), V::max(q0.z, q1.z)};
    uint32_t bits[V::N] = {};
    for (uint32_t e = 0; e < ownCount; ++e) {
      const ContactOwnEdge& o = own[e];
      const float eReach = radius + o.sphere.w;
      const Vec3<V> eMiddle{V::set1(o.sphere.x), V::set1(o.sphere.y), V::set1(o.sphere.z)};
      const F middleGap2 = pointSegmentDistance2<V>(eMiddle, q0, along, invLength2);
      const float eInvLength2 = o.sphere.w > 0.f ? 0.25f / (o.sphere.w * o.sphere.w) : 0.f;
      const Vec3<V> p0{V::set1(o.p0.x), V::set1(o.p0.y), V::set1(o.p0.z)};
      const Vec3<V> eAlong{V::set1(o.p1.x - o.p0.x), V::set1(o.p1.y - o.p0.y), V::set1(o.p1.z - o.p0.z)};
      const F second = pointSegmentDistance2<V>(middle, p0, eAlong, V::set1(eInvLength2));
      // edgeEdgeBeyond: the boxes' gap, max(max(lo1 - hi0, lo0 - hi1), 0)
      const float lo0x = o.p1.x < o.p0.x ? o.p1.x : o.p0.x, lo0y = o.p1.y < o.p0.y ? o.p1.y : o.p0.y,
                  lo0z = o.p1.z < o.p0.z ? o.p1.z : o.p0.z;
      const float hi0x = o.p0.x < o.p1.x ? o.p1.x : o.p0.x, hi0y = o.p0.y < o.p1.y ? o.p1.y : o.p0.y,
                  hi0z = o.p0.z < o.p1.z ? o.p1.z : o.p0.z;
      const F gx = V::max(V::max(V::sub(lo1.x, V::set1(hi0x)), V::sub(V::set1(lo0x), hi1.x)), zero);
      const F gy = V::max(V::max(V::sub(lo1.y, V::set1(hi0y)), V::sub(V::set1(lo0y), hi1.y)), zero);
      const F gz = V::max(V::max(V::sub(lo1.z, V::set1(hi0z)), V::sub(V::set1(lo0z), hi1.z)), zero);
      const F boxes2 = dot3<V>(gx, gy, gz, gx, gy, gz);
      // Each scalar test continues past a pair when `a >= b`: the pair passes where !(a >= b), NaN included.
      const F pass = V::and_(V::and_(V::cmpnle(V::set1(eReach * eReach), middleGap2), V::cmpnle(fReach2, second)),
                             V::cmpnle(radius2, boxes2));
      const int lanesPassing = V::movemask(pass);
      for (int l = 0; l < V::N; ++l) bits[l] |= uint32_t((lanesPassing >> l) & 1) << e;
    }
    for (int l = 0; l < V::N && f + uint32_t(l) < b.count; ++l) masks[f + uint32_t(l)] = bits[l];
  }
}

}  // namespace weft::lanes
