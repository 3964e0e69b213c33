#pragma once
// The SSE lane type of cpu/simd/lane_math.h, which the CPU backend's XPBD kernels run four wide
// (xpbd_spring_lanes.cpp, xpbd_tether_lanes.cpp): four particles' vec4s as their x, y, z and w
// lanes, read from and written back to the positions by index. Empty where the instruction set
// has no SSE2 (a unit names its kernel through WEFT_SSE_KERNEL, lane_kernel.h); never included by a
// unit compiled for a wider set (its inline functions would be emitted there with that set).
#if defined(__SSE2__)
#include <immintrin.h>

#include <cstdint>

#include "shaders/shared.h"
#include "solver/cpu/simd/lane_math.h"

namespace weft::integrators::sse {

// Four vec4s as their x, y, z and w lanes.
struct Lanes {
  __m128 x, y, z, w;
};

// v[at[0..3]] as lanes.
inline Lanes gather(const glm::vec4* v, const uint32_t at[4]) {
  Lanes r{_mm_loadu_ps(&v[at[0]].x), _mm_loadu_ps(&v[at[1]].x), _mm_loadu_ps(&v[at[2]].x), _mm_loadu_ps(&v[at[3]].x)};
  _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
  return r;
}

// Writes lanes r back to v[at[0..3]].
inline void scatter(glm::vec4* v, const uint32_t at[4], Lanes r) {
  _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
  const __m128 rows[4] = {r.x, r.y, r.z, r.w};
  for (int l = 0; l < 4; ++l) _mm_storeu_ps(&v[at[l]].x, rows[l]);
}

// The lane type of cpu/simd/lane_math.h: four floats in an SSE register.
struct Ops {
  using F = __m128;
  using Lanes = sse::Lanes;
  static constexpr int N = 4;
  static F set1(float a) { return _mm_set1_ps(a); }
  static F zero() { return _mm_setzero_ps(); }
  // The lanes get(0) ... get(3): loaded into the register straight from where get reads them (a
  // wide load of values just stored one by one would wait for the stores).
  template <class Get>
  static F build(Get get) {
    return _mm_setr_ps(get(0), get(1), get(2), get(3));
  }
  static void store(float* p, F a) { _mm_storeu_ps(p, a); }
  static F add(F a, F b) { return _mm_add_ps(a, b); }
  static F sub(F a, F b) { return _mm_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm_mul_ps(a, b); }
  static F div(F a, F b) { return _mm_div_ps(a, b); }
  static F sqrt(F a) { return _mm_sqrt_ps(a); }
  static F and_(F a, F b) { return _mm_and_ps(a, b); }
  static F xor_(F a, F b) { return _mm_xor_ps(a, b); }
  static F or_(F a, F b) { return _mm_or_ps(a, b); }
  static F andnot(F a, F b) { return _mm_andnot_ps(a, b); }  // ~a & b
  static F cmpnlt(F a, F b) { return _mm_cmpnlt_ps(a, b); }  // !(a < b): NaN compares true
  static F cmpnle(F a, F b) { return _mm_cmpnle_ps(a, b); }  // !(a <= b): NaN compares true
  static F cmpneq(F a, F b) { return _mm_cmpneq_ps(a, b); }  // a != b: NaN compares true
  static F cmpgt(F a, F b) { return _mm_cmpgt_ps(a, b); }    // a > b: NaN compares false
  static bool any(F mask) { return _mm_movemask_ps(mask) != 0; }
  static int movemask(F mask) { return _mm_movemask_ps(mask); }  // bit l: lane l's sign
  static F load(const float* p) { return _mm_loadu_ps(p); }
  // glm::min(a, b) and glm::max(a, b) lane by lane, their NaNs and zeros' signs included: (b < a) ? b : a
  // and (a < b) ? b : a.
  static F min(F a, F b) { return _mm_min_ps(b, a); }
  static F max(F a, F b) { return _mm_max_ps(b, a); }
  static Lanes gather(const glm::vec4* v, const uint32_t* at) { return sse::gather(v, at); }
  static void scatter(glm::vec4* v, const uint32_t* at, Lanes r) { sse::scatter(v, at, r); }
};

}  // namespace weft::integrators::sse
#endif  // __SSE2__
