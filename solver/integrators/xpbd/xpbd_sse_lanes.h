#pragma once
// The SSE lanes the CPU backend's XPBD projections share (xpbd_spring_lanes.cpp,
// xpbd_tether_lanes.cpp): four particles' vec4s as their x, y, z and w lanes, read from and written
// back to the positions by index. Only included where the instruction set has SSE2.
#include <immintrin.h>

#include <cstdint>

#include "shaders/shared.h"

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

inline __m128 negate(__m128 a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }  // -a, as the scalar sign flip

// dot(a, b) of three lanes, summed in the scalar dot's order: (x + y) + z.
inline __m128 dot3(__m128 ax, __m128 ay, __m128 az, __m128 bx, __m128 by, __m128 bz) {
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz));
}

// xpbdMultiplierStep (shaders/xpbd.h) in four lanes, to the scalar function's bits; the lanes
// whose stiffness is not positive or whose denominator is not above 1e-30 get +0, as it returns.
inline __m128 multiplierStep(__m128 value, __m128 change, __m128 weight, __m128 stiffness, __m128 dampingTime,
                             __m128 h, __m128 lambda) {
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 compliance = _mm_div_ps(one, _mm_mul_ps(_mm_mul_ps(stiffness, h), h));
  const __m128 gamma = _mm_div_ps(dampingTime, h);
  const __m128 denominator = _mm_add_ps(_mm_mul_ps(_mm_add_ps(one, gamma), weight), compliance);
  const __m128 numerator = _mm_sub_ps(_mm_sub_ps(negate(value), _mm_mul_ps(compliance, lambda)), _mm_mul_ps(gamma, change));
  const __m128 steps = _mm_and_ps(_mm_cmpnle_ps(stiffness, _mm_setzero_ps()), _mm_cmpnle_ps(denominator, _mm_set1_ps(1e-30f)));
  return _mm_and_ps(steps, _mm_div_ps(numerator, denominator));
}

}  // namespace weft::integrators::sse
