#include "solver/integrators/xpbd/xpbd_spring_lanes.h"

#if defined(__SSE2__)
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

#if defined(__SSE2__)
namespace {

using sse::Lanes;
using sse::negate;

// Each spring's end `second ? node1 : node0`.
void ends(const gpu::XpbdConstraint* c, bool second, uint32_t at[4]) {
  for (int l = 0; l < 4; ++l) at[l] = second ? c[l].node1 : c[l].node0;
}

}  // namespace

size_t projectSpringLanes(const gpu::XpbdConstraint* c, size_t count, glm::vec4* x, const glm::vec4* start, float h,
                          glm::vec4* lambdas, bool first, bool keep) {
  const __m128 hh = _mm_set1_ps(h);
  const __m128 zero = _mm_setzero_ps();
  size_t done = 0;
  for (; done + 4 <= count; done += 4) {
    const gpu::XpbdConstraint* q = c + done;
    if (q[0].node1 == WEFT_XPBD_ELEMENT || q[1].node1 == WEFT_XPBD_ELEMENT || q[2].node1 == WEFT_XPBD_ELEMENT ||
        q[3].node1 == WEFT_XPBD_ELEMENT)
      break;
    uint32_t at0[4], at1[4];
    ends(q, false, at0);
    ends(q, true, at1);
    const Lanes x0 = sse::gather(x, at0), x1 = sse::gather(x, at1);
    const Lanes s0 = sse::gather(start, at0), s1 = sse::gather(start, at1);
    const __m128 rest = _mm_setr_ps(q[0].restLength, q[1].restLength, q[2].restLength, q[3].restLength);
    const __m128 stiffness = _mm_setr_ps(q[0].stiffness, q[1].stiffness, q[2].stiffness, q[3].stiffness);
    const __m128 damping = _mm_setr_ps(q[0].damping, q[1].damping, q[2].damping, q[3].damping);
    __m128 lambda = zero;
    if (!first) lambda = _mm_setr_ps(lambdas[done].x, lambdas[done + 1].x, lambdas[done + 2].x, lambdas[done + 3].x);
    // xpbdSpring
    const __m128 dx = _mm_sub_ps(x0.x, x1.x), dy = _mm_sub_ps(x0.y, x1.y), dz = _mm_sub_ps(x0.z, x1.z);
    const __m128 len = _mm_sqrt_ps(sse::dot3(dx, dy, dz, dx, dy, dz));
    const __m128 weight = _mm_add_ps(x0.w, x1.w);
    // Springs that return no move: !(len < 1e-9 || weight <= 0 || stiffness <= 0), NaN passing as there.
    const __m128 moves = _mm_and_ps(_mm_and_ps(_mm_cmpnlt_ps(len, _mm_set1_ps(1e-9f)), _mm_cmpnle_ps(weight, zero)),
                                    _mm_cmpnle_ps(stiffness, zero));
    const __m128 nx = _mm_div_ps(dx, len), ny = _mm_div_ps(dy, len), nz = _mm_div_ps(dz, len);
    const __m128 ax = _mm_sub_ps(_mm_sub_ps(x0.x, s0.x), _mm_sub_ps(x1.x, s1.x));
    const __m128 ay = _mm_sub_ps(_mm_sub_ps(x0.y, s0.y), _mm_sub_ps(x1.y, s1.y));
    const __m128 az = _mm_sub_ps(_mm_sub_ps(x0.z, s0.z), _mm_sub_ps(x1.z, s1.z));
    const __m128 change = sse::dot3(nx, ny, nz, ax, ay, az);
    const __m128 value = _mm_sub_ps(len, rest);
    const __m128 dampingTime = _mm_div_ps(damping, stiffness);
    const __m128 dlambda = sse::multiplierStep(value, change, weight, stiffness, dampingTime, hh, lambda);
    // The moves, and +0 (the scalar function's zero move) where the spring returned early.
    const __m128 t0 = _mm_mul_ps(x0.w, dlambda), t1 = negate(_mm_mul_ps(x1.w, dlambda));
    auto move = [&](__m128 t, __m128 n) { return _mm_and_ps(moves, _mm_mul_ps(t, n)); };
    const __m128 dl = _mm_and_ps(moves, dlambda);
    sse::scatter(x, at0, {_mm_add_ps(x0.x, move(t0, nx)), _mm_add_ps(x0.y, move(t0, ny)),
                          _mm_add_ps(x0.z, move(t0, nz)), _mm_add_ps(x0.w, zero)});
    sse::scatter(x, at1, {_mm_add_ps(x1.x, move(t1, nx)), _mm_add_ps(x1.y, move(t1, ny)),
                          _mm_add_ps(x1.z, move(t1, nz)), _mm_add_ps(x1.w, zero)});
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
