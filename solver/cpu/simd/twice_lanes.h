#pragma once
// Two groups of lanes as one: a lane type of cpu/simd/lane_math.h built from another, V, each of its
// operations applied to both halves. A kernel instantiated with Twice<V> runs 2 x V::N constraints
// a group, and its two halves' arithmetic sits side by side in one block: the square root and the
// two divisions of a spring are a chain of long latencies, and with one group in flight the
// processor mostly waits on them; the second, independent chain fills that wait. Each lane still
// does the scalar function's operations in its order, so the bits are V's, and the scalar path's.
// Member accesses and V's own functions only, so it compiles for whatever instruction set V does.
#include <cstdint>

namespace weft::integrators::lanes {

template <class V>
struct Twice {
  struct F {
    typename V::F a, b;  // lanes [0, V::N) and [V::N, 2 V::N)
  };
  struct Lanes {
    F x, y, z, w;
  };
  static constexpr int N = 2 * V::N;

  static F set1(float s) { return {V::set1(s), V::set1(s)}; }
  static F zero() { return {V::zero(), V::zero()}; }
  template <class Get>
  static F build(Get get) {
    return {V::build(get), V::build([&get](int l) { return get(l + V::N); })};
  }
  static void store(float* p, F r) {
    V::store(p, r.a);
    V::store(p + V::N, r.b);
  }
  static F add(F p, F q) { return {V::add(p.a, q.a), V::add(p.b, q.b)}; }
  static F sub(F p, F q) { return {V::sub(p.a, q.a), V::sub(p.b, q.b)}; }
  static F mul(F p, F q) { return {V::mul(p.a, q.a), V::mul(p.b, q.b)}; }
  static F div(F p, F q) { return {V::div(p.a, q.a), V::div(p.b, q.b)}; }
  static F sqrt(F p) { return {V::sqrt(p.a), V::sqrt(p.b)}; }
  static F and_(F p, F q) { return {V::and_(p.a, q.a), V::and_(p.b, q.b)}; }
  static F xor_(F p, F q) { return {V::xor_(p.a, q.a), V::xor_(p.b, q.b)}; }
  static F or_(F p, F q) { return {V::or_(p.a, q.a), V::or_(p.b, q.b)}; }
  static F andnot(F p, F q) { return {V::andnot(p.a, q.a), V::andnot(p.b, q.b)}; }
  static F cmpnlt(F p, F q) { return {V::cmpnlt(p.a, q.a), V::cmpnlt(p.b, q.b)}; }
  static F cmpnle(F p, F q) { return {V::cmpnle(p.a, q.a), V::cmpnle(p.b, q.b)}; }
  static F cmpneq(F p, F q) { return {V::cmpneq(p.a, q.a), V::cmpneq(p.b, q.b)}; }
  static F cmpgt(F p, F q) { return {V::cmpgt(p.a, q.a), V::cmpgt(p.b, q.b)}; }
  static bool any(F mask) { return V::any(mask.a) || V::any(mask.b); }

  static Lanes gather(const glm::vec4* v, const uint32_t* at) {
    const typename V::Lanes p = V::gather(v, at), q = V::gather(v, at + V::N);
    return {{p.x, q.x}, {p.y, q.y}, {p.z, q.z}, {p.w, q.w}};
  }
  static void scatter(glm::vec4* v, const uint32_t* at, Lanes r) {
    V::scatter(v, at, {r.x.a, r.y.a, r.z.a, r.w.a});
    V::scatter(v, at + V::N, {r.x.b, r.y.b, r.z.b, r.w.b});
  }
};

}  // namespace weft::integrators::lanes
