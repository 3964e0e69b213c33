// contactNearLanes', contactTriangleLanes' and contactEdgeLanes' eight-wide kernels (contact_search_lanes.h), compiled for AVX2 by a target switch
// on this unit's own functions (cpu/simd/avx2_target_begin.h), so the rest of the binary
// still runs on any x86-64; it is called only where the processor has AVX2.
#include <cstdint>

#include "shaders/shared.h"
#include "solver/contact/contact_search_lanes.h"

#if WEFT_XPBD_AVX2_LANES
#include "solver/cpu/simd/avx2_target_begin.h"

#include "solver/contact/contact_search_lanes_kernel.h"
#include "solver/cpu/simd/avx2_lanes.h"

namespace weft {
namespace {

uint32_t contactNearMaskAvx2(const float* x, const float* y, const float* z, uint32_t count, glm::vec3 p, float reach2,
                             float* apart2) {
  return lanes::contactNearMask<integrators::avx2::Ops>(x, y, z, count, p, reach2, apart2);
}

void contactTriangleMasksAvx2(const ContactTriangleBatch& batch, const glm::vec4* start, const glm::vec4* spheres,
                              glm::vec3 p, float reach, uint32_t* bits) {
  lanes::contactTriangleMasks<integrators::avx2::Ops>(batch, start, spheres, p, reach, bits);
}

void contactEdgeMasksAvx2(const ContactEdgeBatch& batch, const ContactOwnEdge* own, uint32_t ownCount, float radius,
                          uint32_t* masks) {
  lanes::contactEdgeMasks<integrators::avx2::Ops>(batch, own, ownCount, radius, masks);
}

}  // namespace
}  // namespace weft

#include "solver/cpu/simd/avx2_target_end.h"
#endif  // WEFT_XPBD_AVX2_LANES

namespace weft {

// Outside the target switch: asked on any processor.
ContactNearMask contactNearLanesAvx2() { return WEFT_AVX2_KERNEL(contactNearMaskAvx2); }
ContactTriangleMasks contactTriangleLanesAvx2() { return WEFT_AVX2_KERNEL(contactTriangleMasksAvx2); }
ContactEdgeMasks contactEdgeLanesAvx2() { return WEFT_AVX2_KERNEL(contactEdgeMasksAvx2); }

}  // namespace weft
