#pragma once
// The AVX2 lane type of cpu/simd/lane_math.h: eight floats in a 256-bit register. Included only by units
// compiled for AVX2 (xpbd_lanes_avx2.cpp), after their target switch: its functions use
// AVX instructions, and no unit that may run without them includes it.
#include <immintrin.h>

#include <cstdint>

#include "shaders/shared.h"

namespace weft::integrators::avx2 {

struct Ops {
  using F = __m256;
  struct Lanes {
    __m256 x, y, z, w;
  };
  static constexpr int N = 8;
  static F set1(float a) { return _mm256_set1_ps(a); }
  static F zero() { return _mm256_setzero_ps(); }
  // The lanes get(0) ... get(7), loaded straight from where get reads them.
  template <class Get>
  static F build(Get get) {
    return _mm256_setr_ps(get(0), get(1), get(2), get(3), get(4), get(5), get(6), get(7));
  }
  static void store(float* p, F a) { _mm256_storeu_ps(p, a); }
  static F add(F a, F b) { return _mm256_add_ps(a, b); }
  static F sub(F a, F b) { return _mm256_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
  static F div(F a, F b) { return _mm256_div_ps(a, b); }
  static F sqrt(F a) { return _mm256_sqrt_ps(a); }
  static F and_(F a, F b) { return _mm256_and_ps(a, b); }
  static F xor_(F a, F b) { return _mm256_xor_ps(a, b); }
  static F or_(F a, F b) { return _mm256_or_ps(a, b); }
  static F andnot(F a, F b) { return _mm256_andnot_ps(a, b); }  // ~a & b
  static F cmpnlt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_NLT_UQ); }  // !(a < b): NaN compares true
  static F cmpnle(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_NLE_UQ); }  // !(a <= b): NaN compares true
  static F cmpneq(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }  // a != b: NaN compares true
  static F cmpgt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OS); }    // a > b: NaN compares false
  static bool any(F mask) { return _mm256_movemask_ps(mask) != 0; }
  static int movemask(F mask) { return _mm256_movemask_ps(mask); }  // bit l: lane l's sign
  static F load(const float* p) { return _mm256_loadu_ps(p); }
  // glm::min(a, b) and glm::max(a, b) lane by lane, their NaNs and zeros' signs included: (b < a) ? b : a
  // and (a < b) ? b : a.
  static F min(F a, F b) { return _mm256_min_ps(b, a); }
  static F max(F a, F b) { return _mm256_max_ps(b, a); }

  // Rows r and r + 4 of a 4 x 4 transpose in each 128-bit half: the same shuffles as
  // _MM_TRANSPOSE4_PS, which act on each half on its own.
  static void transpose(F& a, F& b, F& c, F& d) {
    const F t0 = _mm256_unpacklo_ps(a, b), t1 = _mm256_unpacklo_ps(c, d);
    const F t2 = _mm256_unpackhi_ps(a, b), t3 = _mm256_unpackhi_ps(c, d);
    a = _mm256_shuffle_ps(t0, t1, 0x44);
    b = _mm256_shuffle_ps(t0, t1, 0xEE);
    c = _mm256_shuffle_ps(t2, t3, 0x44);
    d = _mm256_shuffle_ps(t2, t3, 0xEE);
  }

  // v[at[0..7]] as lanes, lane l holding v[at[l]].
  static Lanes gather(const glm::vec4* v, const uint32_t* at) {
    F r[4];
    for (int k = 0; k < 4; ++k)
      r[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&v[at[k]].x)), _mm_loadu_ps(&v[at[k + 4]].x), 1);
    transpose(r[0], r[1], r[2], r[3]);
    return {r[0], r[1], r[2], r[3]};
  }

  // Writes lanes r back to v[at[0..7]].
  static void scatter(glm::vec4* v, const uint32_t* at, Lanes r) {
    transpose(r.x, r.y, r.z, r.w);
    const F rows[4] = {r.x, r.y, r.z, r.w};
    for (int k = 0; k < 4; ++k) {
      _mm_storeu_ps(&v[at[k]].x, _mm256_castps256_ps128(rows[k]));
      _mm_storeu_ps(&v[at[k + 4]].x, _mm256_extractf128_ps(rows[k], 1));
    }
  }
};

}  // namespace weft::integrators::avx2
