#pragma once
// The CPU backend's contact search (contactSearchVertex in contact.cpp) in vector lanes, eight at
// once with AVX2, four with SSE2 (lane_kernel.h): its walk's distance test of the neighbours in a
// cell, its tests of the vertex against its neighbours' triangles, and its edge–edge tests of each
// foreign edge against each edge the searching vertex owns.
// One after another, a pile's vertex met some three hundred neighbours and two hundred edge pairs a
// search, each test passing about a third to a half of the time. The lanes take every test, each
// lane the scalar test's operations in its order (the distance, pointSegmentDistance2 and
// edgeEdgeBeyond of shaders/contact.h), and give a bit each; the search then takes the passing ones
// in its own order, and lists the same pairs in the same slots.
#include <cstdint>

#include "shaders/shared.h"
#include "solver/cpu/simd/lane_kernel.h"

namespace weft {

// The foreign edges a vertex's search has kept so far (struct of arrays, the lanes' rows): each
// one's ends and its sphere (middle and half length), from `count` on padded with zeros.
struct ContactEdgeBatch {
  static constexpr uint32_t kCapacity = 256;  // a pile's vertex keeps about 70 a search
  static constexpr uint32_t kPadded = kCapacity + 8;
  uint32_t count = 0;
  alignas(32) float q0x[kPadded], q0y[kPadded], q0z[kPadded];
  alignas(32) float q1x[kPadded], q1y[kPadded], q1z[kPadded];
  alignas(32) float cx[kPadded], cy[kPadded], cz[kPadded], cw[kPadded];
};

// An edge the searching vertex owns: its sphere (middle, half length) and its ends.
struct ContactOwnEdge {
  glm::vec4 sphere;
  glm::vec3 p0, p1;
};

// The most owned edges a kernel takes (a bit each); a vertex that owns more is searched one test
// after another (contactSearchVertex).
inline constexpr uint32_t kMaxLaneOwnEdges = 32;

// masks[f] for f in [0, batch.count): bit e set where own edge e and batch edge f pass every test
// the search puts a pair to before it lists it (the middles against the other segment, both ways,
// and their boxes), sharing a corner or not: that the search asks of their indices.
using ContactEdgeMasks = void (*)(const ContactEdgeBatch& batch, const ContactOwnEdge* own, uint32_t ownCount,
                                  float radius, uint32_t* masks);
using ContactEdgeKernel = integrators::LaneKernel<ContactEdgeMasks>;

// The entries of a run of the hash's cells, their positions as rows (CpuContact's entry rows):
// bit j of the result set where entry j of `count` (at most 32) is not `reach2` or more from p (the
// search's `apart2 >= reach2`, NaN passing), its squared distance in apart2[j] for every j.
using ContactNearMask = uint32_t (*)(const float* x, const float* y, const float* z, uint32_t count, glm::vec3 p,
                                     float reach2, float* apart2);
using ContactNearKernel = integrators::LaneKernel<ContactNearMask>;
ContactNearKernel contactNearLanes();
ContactNearMask contactNearLanesSse();
ContactNearMask contactNearLanesAvx2();
uint32_t contactNearMaskScalar(const float* x, const float* y, const float* z, uint32_t count, glm::vec3 p, float reach2,
                               float* apart2);
// The rows of x, y and z a kernel may read past `count`: up to the next whole group of lanes.
inline constexpr uint32_t kContactRowsPadding = 8;

// The triangles a vertex's search has met so far, owned by its neighbours near enough: each one's
// index and corners, from `count` on padded with zeros (a valid index to read and drop).
struct ContactTriangleBatch {
  static constexpr uint32_t kCapacity = 256;  // a pile's vertex meets about 70 a search
  static constexpr uint32_t kPadded = kCapacity + 8;
  uint32_t count = 0;
  uint32_t t[kPadded], a[kPadded], b[kPadded], c[kPadded];
};
// bits[j / 32] bit j % 32 set where triangle j passes the search's tests of vertex p against it
// (sphereBeyond on its sphere, then vertexTriangleBeyond on its corners' box, at `reach`), whether
// or not p is one of its corners: that the search asks of their indices.
using ContactTriangleMasks = void (*)(const ContactTriangleBatch& batch, const glm::vec4* start,
                                      const glm::vec4* spheres, glm::vec3 p, float reach, uint32_t* bits);
using ContactTriangleKernel = integrators::LaneKernel<ContactTriangleMasks>;
ContactTriangleKernel contactTriangleLanes();
ContactTriangleMasks contactTriangleLanesSse();
ContactTriangleMasks contactTriangleLanesAvx2();
void contactTriangleMasksScalar(const ContactTriangleBatch& batch, const glm::vec4* start, const glm::vec4* spheres,
                                glm::vec3 p, float reach, uint32_t* bits);

// The widest kernel this build and processor run (none: run null).
ContactEdgeKernel contactEdgeLanes();
// Each width's kernel, null where the build has none.
ContactEdgeMasks contactEdgeLanesSse();
ContactEdgeMasks contactEdgeLanesAvx2();
// The same bits one pair at a time, with the scalar functions themselves: the reference of the
// tests, and the search's way where there are no lanes.
void contactEdgeMasksScalar(const ContactEdgeBatch& batch, const ContactOwnEdge* own, uint32_t ownCount, float radius,
                            uint32_t* masks);

}  // namespace weft
