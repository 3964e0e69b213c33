#include "solver/contact/contact_search_lanes.h"

#include "shaders/physics.h"
#include "solver/contact/contact_search_lanes_kernel.h"
#include "solver/cpu/simd/sse_lanes.h"

namespace weft {

void contactEdgeMasksScalar(const ContactEdgeBatch& b, const ContactOwnEdge* own, uint32_t ownCount, float radius,
                            uint32_t* masks) {
  for (uint32_t f = 0; f < b.count; ++f) {
    const glm::vec3 q0(b.q0x[f], b.q0y[f], b.q0z[f]), q1(b.q1x[f], b.q1y[f], b.q1z[f]);
    const glm::vec4 fSphere(b.cx[f], b.cy[f], b.cz[f], b.cw[f]);
    const float fInvLength2 = fSphere.w > 0.f ? 0.25f / (fSphere.w * fSphere.w) : 0.f;
    const float fReach = radius + fSphere.w;
    uint32_t bits = 0;
    for (uint32_t e = 0; e < ownCount; ++e) {
      const ContactOwnEdge& o = own[e];
      const float eReach = radius + o.sphere.w;
      const float eInvLength2 = o.sphere.w > 0.f ? 0.25f / (o.sphere.w * o.sphere.w) : 0.f;
      if (gpu::pointSegmentDistance2(gpu::xyz(o.sphere), q0, q1 - q0, fInvLength2) >= eReach * eReach) continue;
      if (gpu::pointSegmentDistance2(gpu::xyz(fSphere), o.p0, o.p1 - o.p0, eInvLength2) >= fReach * fReach) continue;
      if (gpu::edgeEdgeBeyond(o.p0, o.p1, q0, q1, radius)) continue;
      bits |= 1u << e;
    }
    masks[f] = bits;
  }
}

uint32_t contactNearMaskScalar(const float* x, const float* y, const float* z, uint32_t count, glm::vec3 p, float reach2,
                               float* apart2) {
  uint32_t bits = 0;
  for (uint32_t j = 0; j < count; ++j) {
    const glm::vec3 gap = glm::vec3(x[j], y[j], z[j]) - p;
    apart2[j] = glm::dot(gap, gap);
    if (!(apart2[j] >= reach2)) bits |= 1u << j;
  }
  return bits;
}

ContactNearMask contactNearLanesSse() { return WEFT_SSE_KERNEL(lanes::contactNearMask<integrators::sse::Ops>); }

ContactNearKernel contactNearLanes() {
  static const ContactNearKernel kernel = integrators::widestLaneKernel(contactNearLanesSse(), contactNearLanesAvx2());
  return kernel;
}

void contactTriangleMasksScalar(const ContactTriangleBatch& b, const glm::vec4* start, const glm::vec4* spheres,
                                glm::vec3 p, float reach, uint32_t* bits) {
  for (uint32_t j = 0; j < b.count; ++j) {
    if (gpu::sphereBeyond(p, spheres[b.t[j]], reach)) continue;
    if (gpu::vertexTriangleBeyond(p, gpu::xyz(start[b.a[j]]), gpu::xyz(start[b.b[j]]), gpu::xyz(start[b.c[j]]), reach)) continue;
    bits[j / 32u] |= 1u << (j % 32u);
  }
}

ContactTriangleMasks contactTriangleLanesSse() {
  return WEFT_SSE_KERNEL(lanes::contactTriangleMasks<integrators::sse::Ops>);
}

ContactTriangleKernel contactTriangleLanes() {
  static const ContactTriangleKernel kernel =
      integrators::widestLaneKernel(contactTriangleLanesSse(), contactTriangleLanesAvx2());
  return kernel;
}

ContactEdgeMasks contactEdgeLanesSse() { return WEFT_SSE_KERNEL(lanes::contactEdgeMasks<integrators::sse::Ops>); }

ContactEdgeKernel contactEdgeLanes() {
  static const ContactEdgeKernel kernel = integrators::widestLaneKernel(contactEdgeLanesSse(), contactEdgeLanesAvx2());
  return kernel;
}

}  // namespace weft
