#include "solver/integrators/xpbd/xpbd_spring_lanes.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace weft::integrators {

#if defined(__SSE2__)
namespace {

// Four vec4s as their x, y, z and w lanes.
struct Lanes {
  __m128 x, y, z, w;
};
Lanes gather(const glm::vec4* v, const gpu::XpbdConstraint* c, bool second) {
  auto at = [&](int l) { return &v[second ? c[l].node1 : c[l].node0].x; };
  Lanes r{_mm_loadu_ps(at(0)), _mm_loadu_ps(at(1)), _mm_loadu_ps(at(2)), _mm_loadu_ps(at(3))};
  _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
  return r;
}
void scatter(glm::vec4* v, const gpu::XpbdConstraint* c, bool second, Lanes r) {
  _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
  const __m128 rows[4] = {r.x, r.y, r.z, r.w};
  for (int l = 0; l < 4; ++l) _mm_storeu_ps(&v[second ? c[l].node1 : c[l].node0].x, rows[l]);
}
__m128 negate(__m128 a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }  // -a, as the scalar sign flip

}  // namespace

size_t projectSpringLanes(const gpu::XpbdConstraint* c, size_t count, glm::vec4* x, const glm::vec4* start, float h,
                          glm::vec4* lambdas, bool first, bool keep) {
  const __m128 hh = _mm_set1_ps(h);
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 zero = _mm_setzero_ps();
  size_t done = 0;
  for (; done + 4 <= count; done += 4) {
    const gpu::XpbdConstraint* q = c + done;
    if (q[0].node1 == WEFT_XPBD_ELEMENT || q[1].node1 == WEFT_XPBD_ELEMENT || q[2].node1 == WEFT_XPBD_ELEMENT ||
        q[3].node1 == WEFT_XPBD_ELEMENT)
      break;
    const Lanes x0 = gather(x, q, false), x1 = gather(x, q, true);
    const Lanes s0 = gather(start, q, false), s1 = gather(start, q, true);
    const __m128 rest = _mm_setr_ps(q[0].restLength, q[1].restLength, q[2].restLength, q[3].restLength);
    const __m128 stiffness = _mm_setr_ps(q[0].stiffness, q[1].stiffness, q[2].stiffness, q[3].stiffness);
    const __m128 damping = _mm_setr_ps(q[0].damping, q[1].damping, q[2].damping, q[3].damping);
    __m128 lambda = zero;
    if (!first) lambda = _mm_setr_ps(lambdas[done].x, lambdas[done + 1].x, lambdas[done + 2].x, lambdas[done + 3].x);
    // xpbdSpring
    const __m128 dx = _mm_sub_ps(x0.x, x1.x), dy = _mm_sub_ps(x0.y, x1.y), dz = _mm_sub_ps(x0.z, x1.z);
    const __m128 len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz)));
    const __m128 weight = _mm_add_ps(x0.w, x1.w);
    // Springs that return no move: !(len < 1e-9 || weight <= 0 || stiffness <= 0), NaN passing as there.
    const __m128 moves = _mm_and_ps(_mm_and_ps(_mm_cmpnlt_ps(len, _mm_set1_ps(1e-9f)), _mm_cmpnle_ps(weight, zero)),
                                    _mm_cmpnle_ps(stiffness, zero));
    const __m128 nx = _mm_div_ps(dx, len), ny = _mm_div_ps(dy, len), nz = _mm_div_ps(dz, len);
    const __m128 ax = _mm_sub_ps(_mm_sub_ps(x0.x, s0.x), _mm_sub_ps(x1.x, s1.x));
    const __m128 ay = _mm_sub_ps(_mm_sub_ps(x0.y, s0.y), _mm_sub_ps(x1.y, s1.y));
    const __m128 az = _mm_sub_ps(_mm_sub_ps(x0.z, s0.z), _mm_sub_ps(x1.z, s1.z));
    const __m128 change = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, ax), _mm_mul_ps(ny, ay)), _mm_mul_ps(nz, az));
    const __m128 value = _mm_sub_ps(len, rest);
    const __m128 dampingTime = _mm_div_ps(damping, stiffness);
    // xpbdMultiplierStep
    const __m128 compliance = _mm_div_ps(one, _mm_mul_ps(_mm_mul_ps(stiffness, hh), hh));
    const __m128 gamma = _mm_div_ps(dampingTime, hh);
    const __m128 denominator = _mm_add_ps(_mm_mul_ps(_mm_add_ps(one, gamma), weight), compliance);
    const __m128 numerator =
        _mm_sub_ps(_mm_sub_ps(negate(value), _mm_mul_ps(compliance, lambda)), _mm_mul_ps(gamma, change));
    const __m128 dlambda =
        _mm_and_ps(_mm_cmpnle_ps(denominator, _mm_set1_ps(1e-30f)), _mm_div_ps(numerator, denominator));
    // The moves, and +0 (the scalar function's zero move) where the spring returned early.
    const __m128 t0 = _mm_mul_ps(x0.w, dlambda), t1 = negate(_mm_mul_ps(x1.w, dlambda));
    auto move = [&](__m128 t, __m128 n) { return _mm_and_ps(moves, _mm_mul_ps(t, n)); };
    const __m128 dl = _mm_and_ps(moves, dlambda);
    scatter(x, q, false,
            {_mm_add_ps(x0.x, move(t0, nx)), _mm_add_ps(x0.y, move(t0, ny)), _mm_add_ps(x0.z, move(t0, nz)),
             _mm_add_ps(x0.w, zero)});
    scatter(x, q, true,
            {_mm_add_ps(x1.x, move(t1, nx)), _mm_add_ps(x1.y, move(t1, ny)), _mm_add_ps(x1.z, move(t1, nz)),
             _mm_add_ps(x1.w, zero)});
    if (keep) {
      alignas(16) float kept[4];
      _mm_store_ps(kept, _mm_add_ps(lambda, dl));
      for (int l = 0; l < 4; ++l) {
        glm::vec4 full = first ? glm::vec4(0.f) : lambdas[done + l];
        full.x = kept[l];
        lambdas[done + l] = full;
      }
    }
  }
  return done;
}

#else

size_t projectSpringLanes(const gpu::XpbdConstraint*, size_t, glm::vec4*, const glm::vec4*, float, glm::vec4*, bool,
                          bool) {
  return 0;
}

#endif

}  // namespace weft::integrators
