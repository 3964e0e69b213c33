#include "solver/integrators/xpbd/xpbd_tether_lanes.h"

#include "solver/integrators/xpbd/xpbd_tether.h"

#if defined(__SSE2__)
#include "solver/integrators/xpbd/xpbd_sse_lanes.h"
#endif

namespace weft::integrators {

#if defined(__SSE2__)

size_t projectTetherLanes(const gpu::XpbdConstraint* c, size_t count, const gpu::Element* elements, glm::vec4* x,
                          const glm::vec4* start, float h, glm::vec4* lambdas, bool first, bool keep) {
  using sse::Lanes;
  const __m128 hh = _mm_set1_ps(h);
  const __m128 zero = _mm_setzero_ps();
  size_t done = 0;
  for (; done + 4 <= count; done += 4) {
    const gpu::XpbdConstraint* q = c + done;
    const gpu::Element* e[4];
    uint32_t at0[4], at1[4];
    bool lanes = true;
    for (int l = 0; l < 4 && lanes; ++l) {
      if (q[l].node1 != WEFT_XPBD_ELEMENT) {
        lanes = false;
        break;
      }
      e[l] = &elements[q[l].node0];
      at0[l] = e[l]->nodes.x;
      at1[l] = e[l]->nodes.y;
      lanes = projectsAsTether(*e[l]) && !(x[at1[l]].w > 0.f);
    }
    if (!lanes) break;
    const Lanes x0 = sse::gather(x, at0), x1 = sse::gather(x, at1);
    const Lanes s0 = sse::gather(start, at0), s1 = sse::gather(start, at1);
    const __m128 rest = _mm_setr_ps(e[0]->rest.x, e[1]->rest.x, e[2]->rest.x, e[3]->rest.x);
    const __m128 stiffness = _mm_setr_ps(e[0]->stiffness0, e[1]->stiffness0, e[2]->stiffness0, e[3]->stiffness0);
    const __m128 damping = _mm_setr_ps(e[0]->damping, e[1]->damping, e[2]->damping, e[3]->damping);
    const __m128 lambda =
        first ? zero : _mm_setr_ps(lambdas[done].x, lambdas[done + 1].x, lambdas[done + 2].x, lambdas[done + 3].x);
    // xpbdTether: active beyond the limit only, !(len <= rest || len < 1e-12), NaN passing as there.
    const __m128 dx = _mm_sub_ps(x0.x, x1.x), dy = _mm_sub_ps(x0.y, x1.y), dz = _mm_sub_ps(x0.z, x1.z);
    const __m128 len = _mm_sqrt_ps(sse::dot3(dx, dy, dz, dx, dy, dz));
    const __m128 active = _mm_and_ps(_mm_cmpnle_ps(len, rest), _mm_cmpnlt_ps(len, _mm_set1_ps(1e-12f)));
    const __m128 gx = _mm_div_ps(dx, len), gy = _mm_div_ps(dy, len), gz = _mm_div_ps(dz, len);
    const __m128 hx = sse::negate(gx), hy = sse::negate(gy), hz = sse::negate(gz);  // the anchor's gradient
    const __m128 zeroDot = sse::dot3(zero, zero, zero, zero, zero, zero);
    const __m128 slotZero = _mm_mul_ps(x0.w, zeroDot);  // slots 2 and 3: node i, zero gradient
    const __m128 weight = _mm_add_ps(
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(x0.w, sse::dot3(gx, gy, gz, gx, gy, gz)), _mm_mul_ps(x1.w, sse::dot3(hx, hy, hz, hx, hy, hz))),
                   slotZero),
        slotZero);
    const __m128 ux = _mm_sub_ps(x0.x, s0.x), uy = _mm_sub_ps(x0.y, s0.y), uz = _mm_sub_ps(x0.z, s0.z);
    const __m128 vx = _mm_sub_ps(x1.x, s1.x), vy = _mm_sub_ps(x1.y, s1.y), vz = _mm_sub_ps(x1.z, s1.z);
    const __m128 zeroRate = sse::dot3(zero, zero, zero, ux, uy, uz);
    const __m128 change = _mm_add_ps(
        _mm_add_ps(_mm_add_ps(sse::dot3(gx, gy, gz, ux, uy, uz), sse::dot3(hx, hy, hz, vx, vy, vz)), zeroRate), zeroRate);
    const __m128 dlambda = _mm_and_ps(
        active, sse::multiplierStep(_mm_sub_ps(len, rest), change, weight, stiffness, damping, hh, lambda));
    // projectTether's writes to node i, each of slots 0, 2 and 3 adding to what the last wrote;
    // xpbdTether sums each move onto +0 (which turns a -0 move to +0), and leaves +0 where the
    // tether is slack. Node i is written only where it is free; the anchor is pinned, not written.
    const __m128 t0 = _mm_mul_ps(x0.w, dlambda);
    auto move = [&](__m128 t, __m128 g) { return _mm_and_ps(active, _mm_add_ps(zero, _mm_mul_ps(t, g))); };
    const __m128 m2 = move(t0, zero);
    auto slots = [&](__m128 coordinate, __m128 m0) {
      return _mm_add_ps(_mm_add_ps(_mm_add_ps(coordinate, m0), m2), m2);
    };
    const __m128 w = _mm_add_ps(_mm_add_ps(_mm_add_ps(x0.w, zero), zero), zero);
    const __m128 free = _mm_cmpgt_ps(x0.w, zero);
    auto written = [&](__m128 now, __m128 before) { return _mm_or_ps(_mm_and_ps(free, now), _mm_andnot_ps(free, before)); };
    sse::scatter(x, at0,
                 {written(slots(x0.x, move(t0, gx)), x0.x), written(slots(x0.y, move(t0, gy)), x0.y),
                  written(slots(x0.z, move(t0, gz)), x0.z), written(w, x0.w)});
    if (keep) {
      alignas(16) float changes[4];
      _mm_store_ps(changes, dlambda);
      for (int l = 0; l < 4; ++l) {
        const glm::vec4 before = first ? glm::vec4(0.f) : lambdas[done + l];
        lambdas[done + l] = before + glm::vec4(changes[l], 0.f, 0.f, 0.f);
      }
    }
  }
  return done;
}

#else

size_t projectTetherLanes(const gpu::XpbdConstraint*, size_t, const gpu::Element*, glm::vec4*, const glm::vec4*, float,
                          glm::vec4*, bool, bool) {
  return 0;
}

#endif

}  // namespace weft::integrators
