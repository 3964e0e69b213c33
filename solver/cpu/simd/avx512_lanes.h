#pragma once
// The AVX-512 lane type of cpu/simd/lane_math.h: sixteen floats in a 512-bit register. Included only by
// units compiled for AVX-512 (F and DQ) after their target switch (common/avx512_target_begin.h):
// its functions use those instructions, and no unit that may run without them includes it. The
// comparisons give all-ones or zero lanes, as the SSE and AVX2 types' do, so the kernels mask with
// and_ alike: the mask registers stay inside this type.
#include <immintrin.h>

#include <cstdint>

#include "shaders/shared.h"

namespace weft::integrators::avx512 {

struct Ops {
  using F = __m512;
  struct Lanes {
    __m512 x, y, z, w;
  };
  static constexpr int N = 16;
  static F set1(float a) { return _mm512_set1_ps(a); }
  static F zero() { return _mm512_setzero_ps(); }
  // The lanes get(0) ... get(15), loaded straight from where get reads them.
  template <class Get>
  static F build(Get get) {
    return _mm512_setr_ps(get(0), get(1), get(2), get(3), get(4), get(5), get(6), get(7), get(8), get(9), get(10),
                          get(11), get(12), get(13), get(14), get(15));
  }
  static void store(float* p, F a) { _mm512_storeu_ps(p, a); }
  static F add(F a, F b) { return _mm512_add_ps(a, b); }
  static F sub(F a, F b) { return _mm512_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
  static F div(F a, F b) { return _mm512_div_ps(a, b); }
  static F sqrt(F a) { return _mm512_sqrt_ps(a); }
  static F and_(F a, F b) { return _mm512_and_ps(a, b); }
  static F xor_(F a, F b) { return _mm512_xor_ps(a, b); }
  static F or_(F a, F b) { return _mm512_or_ps(a, b); }
  static F andnot(F a, F b) { return _mm512_andnot_ps(a, b); }  // ~a & b
  static F fromMask(__mmask16 m) { return _mm512_castsi512_ps(_mm512_movm_epi32(m)); }
  static F cmpnlt(F a, F b) { return fromMask(_mm512_cmp_ps_mask(a, b, _CMP_NLT_UQ)); }  // !(a < b): NaN true
  static F cmpnle(F a, F b) { return fromMask(_mm512_cmp_ps_mask(a, b, _CMP_NLE_UQ)); }  // !(a <= b): NaN true
  static F cmpneq(F a, F b) { return fromMask(_mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ)); }  // a != b: NaN true
  static F cmpgt(F a, F b) { return fromMask(_mm512_cmp_ps_mask(a, b, _CMP_GT_OS)); }    // a > b: NaN false
  static int movemask(F mask) { return static_cast<int>(_mm512_movepi32_mask(_mm512_castps_si512(mask))); }
  static bool any(F mask) { return movemask(mask) != 0; }
  static F load(const float* p) { return _mm512_loadu_ps(p); }
  // glm::min(a, b) and glm::max(a, b) lane by lane, their NaNs and zeros' signs included.
  static F min(F a, F b) { return _mm512_min_ps(b, a); }
  static F max(F a, F b) { return _mm512_max_ps(b, a); }

  // Rows r, r + 4, r + 8 and r + 12 of a 4 x 4 transpose in each 128-bit quarter (the shuffles act
  // on each quarter on its own, as _MM_TRANSPOSE4_PS's do on one).
  static void transpose(F& a, F& b, F& c, F& d) {
    const F t0 = _mm512_unpacklo_ps(a, b), t1 = _mm512_unpacklo_ps(c, d);
    const F t2 = _mm512_unpackhi_ps(a, b), t3 = _mm512_unpackhi_ps(c, d);
    a = _mm512_shuffle_ps(t0, t1, 0x44);
    b = _mm512_shuffle_ps(t0, t1, 0xEE);
    c = _mm512_shuffle_ps(t2, t3, 0x44);
    d = _mm512_shuffle_ps(t2, t3, 0xEE);
  }

  // v[at[0..15]] as lanes, lane l holding v[at[l]]: register k holds v[at[k + 4q]] in quarter q.
  static Lanes gather(const glm::vec4* v, const uint32_t* at) {
    F r[4];
    for (int k = 0; k < 4; ++k) {
      const __m256 low = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&v[at[k]].x)), _mm_loadu_ps(&v[at[k + 4]].x), 1);
      const __m256 high =
          _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&v[at[k + 8]].x)), _mm_loadu_ps(&v[at[k + 12]].x), 1);
      r[k] = _mm512_insertf32x8(_mm512_castps256_ps512(low), high, 1);
    }
    transpose(r[0], r[1], r[2], r[3]);
    return {r[0], r[1], r[2], r[3]};
  }

  // Writes lanes r back to v[at[0..15]].
  static void scatter(glm::vec4* v, const uint32_t* at, Lanes r) {
    transpose(r.x, r.y, r.z, r.w);
    const F rows[4] = {r.x, r.y, r.z, r.w};
    for (int k = 0; k < 4; ++k) {
      _mm_storeu_ps(&v[at[k]].x, _mm512_extractf32x4_ps(rows[k], 0));
      _mm_storeu_ps(&v[at[k + 4]].x, _mm512_extractf32x4_ps(rows[k], 1));
      _mm_storeu_ps(&v[at[k + 8]].x, _mm512_extractf32x4_ps(rows[k], 2));
      _mm_storeu_ps(&v[at[k + 12]].x, _mm512_extractf32x4_ps(rows[k], 3));
    }
  }
};

}  // namespace weft::integrators::avx512
