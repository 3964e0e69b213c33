#include "solver/contact/contact.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include <weft/errors.h>

#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/contact/contact_search_lanes.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/backend/solver.h"
#include "solver/cpu/thread_pool.h"

namespace weft {

using gpu::xyz;

namespace {

uint32_t floatBits(float f) { return std::bit_cast<uint32_t>(f); }
float bitsFloat(uint32_t u) { return std::bit_cast<float>(u); }

// Both backends' statistics start from this: no distance yet, no vertex counted.
gpu::ContactScalars frameStartScalars() {
  gpu::ContactScalars s{};
  s.minDistanceBits = floatBits(FLT_MAX);
  return s;
}

// The step's parameters on top of the topology's layout.
struct ContactCommon;
gpu::ContactParams stepParams(const ContactCommon& k, float dt, uint32_t particles, uint32_t colliders, uint32_t mode,
                              bool collectPairs);

float resolvedRadius(const ContactSpec& settings, const ContactTopology& topology) {
  if (settings.radius > 0.f) return settings.radius;
  return std::max(2.f * settings.thickness, 0.5f * topology.meanEdge);
}

// A radius many edges wide puts much of the cloth in every vertex's search: a typo (metres for
// millimetres) would hang the solver quadratically instead of failing.
constexpr float kMaxRadiusInEdges = 100.f;

void checkReach(float radius, float meanEdge) {
  if (meanEdge > 0.f && radius > kMaxRadiusInEdges * meanEdge)
    throw InputError("contact radius " + std::to_string(radius) + " m is more than " +
                     std::to_string(int(kMaxRadiusInEdges)) + " times the cloth's mean edge (" + std::to_string(meanEdge) +
                     " m): every vertex would be tested against much of the cloth; give a thickness and radius of "
                     "the order of the edges");
}

// In a flat triangulated grid of spacing s, the nearest primitives sharing no corner are parallel
// diagonals s / sqrt 2 apart (s is the median edge: two edges in three are sides). A thickness past
// that pushes every pair of a cloth lying flat apart in every step: the cloth fights its own springs
// (a 256² twist with 3 mm on 3.9 mm edges: every vertex pushed every step, edges stretched ninefold).
constexpr float kMaxThicknessInEdges = 0.7f;

void checkThickness(float thickness, float medianEdge) {
  if (medianEdge > 0.f && thickness > kMaxThicknessInEdges * medianEdge)
    throw InputError("contact thickness " + std::to_string(thickness) + " m is more than " +
                     std::to_string(kMaxThicknessInEdges).substr(0, 3) + " of the cloth's median edge (" +
                     std::to_string(medianEdge) +
                     " m): primitives of the cloth sharing no corner lie that near even when it lies flat, so "
                     "contact would push the cloth apart from itself; give a smaller thickness or a coarser cloth");
}

// What the host keeps on either backend: the tables and the settings.
struct ContactCommon : UnitResources {
  ContactTopology topology;
  float radius = 0.f, thickness = 0.f, staticFriction = 0.f, kineticFriction = 0.f;
  uint32_t candidateSlots = WEFT_CONTACT_CANDIDATE_SLOTS;
  // The listed candidates no longer serve (none yet, or the radius changed): the next step searches.
  bool listStale = true;
  void build(const ClothModel& model, const ContactSpec& settings) {
    topology = buildContactTopology(model.triangles, model.positions);
    addClothFriction(topology, model.particleCount(), settings.clothFriction);
    set(settings);
  }
  void set(const ContactSpec& settings) {  // Solver::setParams refuses other clothFriction
    radius = resolvedRadius(settings, topology);
    checkReach(radius, topology.meanEdge);
    checkThickness(settings.thickness, topology.medianEdge);
    thickness = settings.thickness;
    staticFriction = settings.staticFriction;
    kineticFriction = settings.friction;
    listStale = true;
  }
};

// The step's parameters on top of the topology's layout.
gpu::ContactParams stepParams(const ContactCommon& k, float dt, uint32_t particles, uint32_t colliders, uint32_t mode,
                              bool collectPairs) {
  gpu::ContactParams p = k.topology.layout;
  p.colliderCount = colliders;
  p.collectPairs = collectPairs ? 1u : 0u;
  p.radius = k.radius;
  p.thickness = k.thickness;
  p.staticFriction = k.staticFriction;
  p.kineticFriction = k.kineticFriction;
  p.dt = dt;
  p.particleCount = particles;
  p.tableSize = contactTableSize(particles);
  p.mode = mode;
  p.candidateSlots = k.candidateSlots;
  return p;
}

// A listed pair as the CPU's incidence table holds it for each of its corners: the corners (a
// vertex and a triangle's, or two edges' ends), whether it is an edge–edge pair, and a lower bound
// on its distance when listed (the gap of its corners' boxes, which the evaluation in the step that
// listed it raises to the distance of its nearest points), which lets the evaluation pass over it
// without reading its corners while the list's drift cannot have brought it within the radius.
struct ListedPair {
  glm::uvec4 nodes;
  float listedGap;
  uint32_t edges;
  uint32_t id;    // the GPU's: owner * slots + slot, which orders pairs the vertex keeps (KeptPairs)
  glm::uvec4 at;  // its place in each corner's incidence run (buildContactIncidence)
};

// What a listed pair does to one of its corners this step (evaluateListedPairs), in that corner's
// incidence run: contactCornerShare's distance and push, the corner's weight, and what it adds to
// the corner's grip. Only a share that adds something to the corner's sums is stored
// (CpuContact::live): most pairs within the radius push nothing, and a pile has hundreds of
// incidences a vertex, so the 48 bytes of every share were most of what the sums read.
struct CornerShare {
  glm::vec4 r;
  gpu::ContactGrip grip;
  float weight;
};

struct CpuContact : ContactCommon {
  std::vector<glm::vec4> start;
  std::vector<glm::vec4> passStart;  // start as the pass takes each corner: held where it rests on a collider (contactPassCorner)
  std::vector<glm::vec4> listed;   // the start positions the candidates were listed at
  // Each vertex's move since then, less the common move (contactPairClosing): the listed-gap cull's
  // own-moves bound, filled in the steps that keep the list.
  std::vector<float> ownMoves;
  std::vector<glm::vec4> spheres;  // the search step's, of the triangles then the edges (contactMeasure)
  std::vector<uint32_t> cells, entries;
  // The entries' start positions in the entries' order, as rows (x, y, z), each padded for the
  // search's lanes (contactNearLanes): the search reads each cell's run of them in a row.
  std::vector<float> entryRows[3];
  std::vector<uint32_t> buckets;  // each vertex's bucket, in the search step
  std::vector<uint32_t> marks;    // the frame's WEFT_CONTACT_MARK_* bits per vertex
  // Each vertex's listed pairs, vertex–triangle then edge–edge (the GPU's slots, packed), and
  // (vertex–triangle pairs, edge–edge pairs, the dropped pairs' lower bound as float bits, 0).
  std::vector<std::vector<ListedPair>> candidates;
  std::vector<glm::uvec4> candidateCounts;
  // Each vertex's listed pairs (buildContactIncidence): rows, then the pairs; and what each does this
  // step (evaluateListedPairs): whether its cull kept it (`live`, kIncidenceLive or kIncidencePressed),
  // its distance where it did, and its share where that adds something (kIncidencePressed).
  std::vector<uint32_t> incidenceRows;
  std::vector<uint32_t> incidenceCounts;  // buildContactIncidence's, per run of owners
  std::vector<const ListedPair*> incidences;  // into `candidates`, which only a search remakes
  std::vector<uint8_t> live;
  std::vector<float> distances;
  std::vector<CornerShare> shares;
  gpu::ContactScalars scalars = frameStartScalars();
  uint64_t hostBytes() const override {
    uint64_t pairs = 0;
    for (const std::vector<ListedPair>& list : candidates) pairs += list.capacity();
    return (topology.data.size() + cells.size() + entries.size() + buckets.size() + marks.size() + incidenceRows.size() +
            incidenceCounts.size()) *
               sizeof(uint32_t) +
           (entryRows[0].size() + entryRows[1].size() + entryRows[2].size() + ownMoves.size()) * sizeof(float) +
           (start.size() + passStart.size() + listed.size() + spheres.size() + candidateCounts.size()) * sizeof(glm::vec4) +
           incidences.capacity() * (sizeof(const ListedPair*) + 1 + sizeof(float) + sizeof(CornerShare)) +
           candidates.size() * sizeof(candidates[0]) + pairs * sizeof(ListedPair);
  }
};

struct GpuContact : ContactCommon {
  engine::Buffer start, listed, topologyBuffer, spheres, cells, entries, scalars, marks, candidates, candidateCounts;
  engine::Buffer incidenceRows, incidences, pairLive;
  engine::Buffer pairStates, pairStateBases, liveRows, liveIncidences;  // the step's live pairs (contact_pairs)
  uint32_t pairStateCapacity = 0;  // states pairStates holds (ContactParams::pairStateCapacity)
  // pairs and resolve are built when first recorded, for the colliders' kinds (WEFT_SPEC_COLLIDER_KINDS)
  std::unique_ptr<engine::ComputeProgram> hash, scan, search, incidence, pairs, resolve;
};

CpuContact& cpuContact(CpuState& s) { return static_cast<CpuContact&>(*s.contact); }
const CpuContact& cpuContact(const CpuState& s) { return static_cast<const CpuContact&>(*s.contact); }
GpuContact& gpuContact(GpuState& s) { return static_cast<GpuContact&>(*s.contact); }
const GpuContact& gpuContact(const GpuState& s) { return static_cast<const GpuContact&>(*s.contact); }

// ---- The CPU twins of the kernels (the evaluation once a pair, not once a corner) ----

glm::uvec3 contactTriangle(const std::vector<uint32_t>& topo, const gpu::ContactParams& c, uint32_t t) {
  const uint32_t at = c.trianglesAt + 3u * t;
  return {topo[at], topo[at + 1u], topo[at + 2u]};
}
glm::uvec2 contactEdge(const std::vector<uint32_t>& topo, const gpu::ContactParams& c, uint32_t e) {
  return {topo[c.edgesAt + 2u * e], topo[c.edgesAt + 2u * e + 1u]};
}

// contact_hash.comp, WEFT_CONTACT_MEASURE: the spheres of the triangles and edges vertex i owns
// (is the smallest corner of), and its longest edge, which the caller folds into the step's.
float contactMeasure(uint32_t i, CpuContact& k, const gpu::ContactParams& c) {
  const std::vector<uint32_t>& topology = k.topology.data;
  for (uint32_t t = topology[c.ownedTriangleRowsAt + i]; t < topology[c.ownedTriangleRowsAt + i + 1u]; ++t) {
    const glm::uvec3 q = contactTriangle(topology, c, t);
    k.spheres[t] = gpu::triangleSphere(xyz(k.start[q.x]), xyz(k.start[q.y]), xyz(k.start[q.z]));
  }
  for (uint32_t e = topology[c.ownedEdgeRowsAt + i]; e < topology[c.ownedEdgeRowsAt + i + 1u]; ++e) {
    const glm::uvec2 q = contactEdge(topology, c, e);
    k.spheres[c.triangleCount + e] = gpu::edgeSphere(xyz(k.start[q.x]), xyz(k.start[q.y]));
  }
  float longest = 0.f;
  for (uint32_t e = topology[c.edgeRowsAt + i]; e < topology[c.edgeRowsAt + i + 1u]; ++e) {
    const glm::uvec2 q = contactEdge(topology, c, topology[c.edgeListAt + e]);
    longest = std::max(longest, glm::length(xyz(k.start[q.x]) - xyz(k.start[q.y])));
  }
  return longest;
}

// A vertex's candidate pairs, as contact_search lists them in its slots of the candidate buffer:
// the pairs it is the canonical corner of (contactSearchVertex), each listed once in the whole cloth.
struct CandidateList {
  uint32_t triangles = 0u, edges = 0u;  // vertex–triangle pairs from slot 0 up, edge–edge from the last down
  bool crowded = false;                 // some pair had no slot
  ListedPair slots[WEFT_CONTACT_CANDIDATE_SLOTS];  // the GPU's (vertex, triangle) and (edge, edge), as corners
};

// What a vertex's search has found but not yet listed: its near neighbours' triangles, and the
// foreign edges that passed the first test (contact_search_lanes.h takes the rest of both's), each
// with the place of its neighbour in the walk, so that the pairs are listed in the walk's order:
// a neighbour's triangles, then its edges, as the kernel lists them (which pair an owner past its
// slots drops depends on that order).
struct SearchPending {
  struct Edge {
    uint32_t step, f;
    glm::uvec2 ends;
  };
  ContactTriangleBatch triangleBatch;  // the triangles and their corners, the lanes' rows
  uint32_t triangleSteps[ContactTriangleBatch::kCapacity];
  uint32_t triangleBits[ContactTriangleBatch::kCapacity / 32u];  // those that passed (contactTriangleMasks)
  ContactEdgeBatch batch;  // the edges' geometry, the lanes' rows
  Edge edges[ContactEdgeBatch::kCapacity];
  std::vector<ContactOwnEdge> own;  // the searching vertex's edges
  std::vector<glm::uvec2> ownEnds;
  std::vector<uint32_t> masks;  // per batch edge, a word per 32 own edges (contactEdgeMasks)
};

ListedPair vertexTrianglePair(const std::vector<glm::vec4>& start, uint32_t p, glm::uvec3 c, uint32_t id) {
  const glm::vec3 x = xyz(start[p]), a = xyz(start[c.x]), b = xyz(start[c.y]), d = xyz(start[c.z]);
  return {glm::uvec4(p, c), gpu::boxesGap(x, x, glm::min(a, glm::min(b, d)), glm::max(a, glm::max(b, d))), 0u, id, glm::uvec4(0u)};
}
ListedPair edgeEdgePair(const std::vector<glm::vec4>& start, glm::uvec2 p, glm::uvec2 q, uint32_t id) {
  const glm::vec3 a = xyz(start[p.x]), b = xyz(start[p.y]), c = xyz(start[q.x]), d = xyz(start[q.y]);
  return {glm::uvec4(p, q), gpu::boxesGap(glm::min(a, b), glm::max(a, b), glm::min(c, d), glm::max(c, d)), 1u, id, glm::uvec4(0u)};
}

// atomicMin of contact_search on a vertex's dropped bound (candidateCounts' z: the bits of a
// non-negative float, whose order as unsigned integers is the floats' order).
void lowerDropped(std::vector<glm::uvec4>& counts, uint32_t v, float gap) {
  std::atomic_ref<uint32_t> bits(counts[v].z);
  const uint32_t g = floatBits(gap);
  uint32_t seen = bits.load(std::memory_order_relaxed);
  while (g < seen && !bits.compare_exchange_weak(seen, g, std::memory_order_relaxed)) {}
}

// contact_search.comp for vertex i. It lists each pair it is the canonical corner of: itself against
// every foreign triangle (a vertex–triangle pair's vertex lists it), and each edge it owns (is the
// smaller end of) against the foreign edges owned by a vertex after it (an edge–edge pair's lower
// edge's owner lists it), but a pair whose corners' boxes lie the list's reach apart. Every pair
// within reach is thus listed exactly once; the incidence table
// (buildContactIncidence) hands it to each of its four corners. A pair that finds no slot lowers the
// dropped bound of all four.
// The tests run in vector lanes (contact_search_lanes.h): the walk takes a cell's entries 32 at a
// time, and the near neighbours' triangles and foreign edges wait in `pending` until the lanes test
// them (the edges against all of the vertex's own); the pairs are then listed in the walk's order,
// the kernel's, so that the slots and the bytes are what the tests one at a time gave (on the pile,
// the search's time fell by two fifths: docs/benchmarks.md, Contact).
void contactSearchVertex(uint32_t i, CpuContact& k, const gpu::ContactParams& contact, float longest, CandidateList& list,
                         SearchPending& pending) {
  const std::vector<uint32_t>& topology = k.topology.data;
  const std::vector<glm::vec4>& start = k.start;
  const glm::vec4 si = start[i];
  const float radius = gpu::contactListReach(contact.radius);  // the list's reach: the radius and the skin
  const float cellSize = gpu::contactListCellSize(contact.radius, longest);
  uint32_t triangles = 0u, edges = 0u;
  bool crowded = false;
  const glm::ivec3 home = gpu::contactCell(xyz(si), cellSize);
  const uint32_t ownedBegin = topology[contact.ownedEdgeRowsAt + i];
  const uint32_t ownedEnd = topology[contact.ownedEdgeRowsAt + i + 1u];
  const std::vector<glm::vec4>& spheres = k.spheres;
  const uint32_t edgeSpheresAt = contact.triangleCount;
  const uint32_t slots = contact.candidateSlots;
  // The edges it owns, and the longest of them: every such edge lies within it of the vertex.
  float ownLongest = 0.f;
  pending.own.clear();
  pending.ownEnds.clear();
  for (uint32_t e = ownedBegin; e < ownedEnd; ++e) {
    const glm::uvec2 p = contactEdge(topology, contact, e);
    pending.own.push_back({spheres[edgeSpheresAt + e], xyz(start[p.x]), xyz(start[p.y])});
    pending.ownEnds.push_back(p);
    ownLongest = std::max(ownLongest, 2.f * spheres[edgeSpheresAt + e].w);
  }
  const uint32_t ownCount = ownedEnd - ownedBegin;
  const uint32_t words = (ownCount + kMaxLaneOwnEdges - 1u) / kMaxLaneOwnEdges;
  const ContactNearKernel nearLanes = contactNearLanes();
  const ContactNearMask nearMask = nearLanes.run ? nearLanes.run : contactNearMaskScalar;
  const ContactTriangleKernel triangleLanes = contactTriangleLanes();
  const ContactTriangleMasks triangleMasks = triangleLanes.run ? triangleLanes.run : contactTriangleMasksScalar;
  const ContactEdgeKernel lanes = contactEdgeLanes();
  const ContactEdgeMasks edgeMasks = lanes.run ? lanes.run : contactEdgeMasksScalar;
  // Lists what is pending, in the walk's order: each neighbour's triangles, then its edges.
  auto listPending = [&] {
    ContactEdgeBatch& batch = pending.batch;
    ContactTriangleBatch& triangleBatch = pending.triangleBatch;
    std::fill(std::begin(pending.triangleBits), std::end(pending.triangleBits), 0u);
    triangleMasks(triangleBatch, start.data(), spheres.data(), xyz(si), radius, pending.triangleBits);
    pending.masks.resize(size_t(words) * ContactEdgeBatch::kCapacity);
    for (uint32_t w = 0; w < words; ++w)
      edgeMasks(batch, pending.own.data() + w * kMaxLaneOwnEdges, std::min(kMaxLaneOwnEdges, ownCount - w * kMaxLaneOwnEdges),
                radius, pending.masks.data() + size_t(w) * ContactEdgeBatch::kCapacity);
    uint32_t nextTriangle = 0, nextEdge = 0;
    while (nextTriangle < triangleBatch.count || nextEdge < batch.count) {
      if (nextEdge == batch.count ||
          (nextTriangle < triangleBatch.count && pending.triangleSteps[nextTriangle] <= pending.edges[nextEdge].step)) {
        const uint32_t at = nextTriangle++;
        if ((pending.triangleBits[at / 32u] & (1u << (at % 32u))) == 0u) continue;  // beyond the reach
        const glm::uvec3 c(triangleBatch.a[at], triangleBatch.b[at], triangleBatch.c[at]);
        if (c.x == i || c.y == i || c.z == i) continue;
        if (triangles + edges < slots) {
          list.slots[triangles] = vertexTrianglePair(start, i, c, i * slots + triangles);
          ++triangles;
        } else {
          const float g = gpu::sphereGap(xyz(si), spheres[triangleBatch.t[at]]);
          crowded = crowded || g < radius;
          for (uint32_t v : {i, c.x, c.y, c.z}) lowerDropped(k.candidateCounts, v, g);
        }
        continue;
      }
      const uint32_t at = nextEdge++;
      const glm::uvec2 q = pending.edges[at].ends;
      for (uint32_t w = 0; w < words; ++w)
        for (uint32_t bits = pending.masks[size_t(w) * ContactEdgeBatch::kCapacity + at]; bits != 0u; bits &= bits - 1u) {
          const uint32_t e = w * kMaxLaneOwnEdges + uint32_t(std::countr_zero(bits));
          const glm::uvec2 p = pending.ownEnds[e];
          if (p.x == q.x || p.x == q.y || p.y == q.x || p.y == q.y) continue;
          if (triangles + edges < slots) {
            list.slots[slots - 1u - edges] = edgeEdgePair(start, p, q, i * slots + slots - 1u - edges);
            ++edges;
          } else {
            const glm::vec4 eSphere = pending.own[e].sphere, fSphere = spheres[edgeSpheresAt + pending.edges[at].f];
            const glm::vec3 q0 = xyz(start[q.x]), fAlong = xyz(start[q.y]) - q0;
            const float fInvLength2 = fSphere.w > 0.f ? 0.25f / (fSphere.w * fSphere.w) : 0.f;
            const float g = std::max(std::sqrt(gpu::pointSegmentDistance2(xyz(eSphere), q0, fAlong, fInvLength2)) - eSphere.w, 0.f);
            crowded = crowded || g < radius;
            for (uint32_t v : {p.x, p.y, q.x, q.y}) lowerDropped(k.candidateCounts, v, g);
          }
        }
    }
    triangleBatch.count = 0;
    batch.count = 0;
  };
  const float reach2 = cellSize * cellSize;
  const float nearReach2 = (radius + longest) * (radius + longest);
  uint32_t step = 0u;  // the neighbour's place in the walk
  // A neighbour u within the cell size: its triangles' tests, and its edges kept for the lanes'.
  auto visit = [&](uint32_t u, float apart2) {
    ++step;
    if (apart2 < nearReach2) {  // this vertex within the radius of a triangle of u's
      ContactTriangleBatch& triangleBatch = pending.triangleBatch;
      for (uint32_t t = topology[contact.ownedTriangleRowsAt + u]; t < topology[contact.ownedTriangleRowsAt + u + 1u]; ++t) {
        if (triangleBatch.count == ContactTriangleBatch::kCapacity) listPending();
        const glm::uvec3 c = contactTriangle(topology, contact, t);
        const uint32_t at = triangleBatch.count++;
        triangleBatch.t[at] = t, triangleBatch.a[at] = c.x, triangleBatch.b[at] = c.y, triangleBatch.c[at] = c.z;
        pending.triangleSteps[at] = step;
      }
    }
    if (u < i || ownCount == 0u) return;  // its edges are before this vertex's: their owner lists the pairs
    ContactEdgeBatch& batch = pending.batch;
    for (uint32_t f = topology[contact.ownedEdgeRowsAt + u]; f < topology[contact.ownedEdgeRowsAt + u + 1u]; ++f) {
      const glm::vec4 fSphere = spheres[edgeSpheresAt + f];
      if (gpu::sphereBeyond(xyz(si), fSphere, radius + ownLongest)) continue;  // every edge it owns is within ownLongest of it
      if (batch.count == ContactEdgeBatch::kCapacity) listPending();
      const glm::uvec2 q = contactEdge(topology, contact, f);
      const glm::vec4 q0 = start[q.x], q1 = start[q.y];
      const uint32_t at = batch.count++;
      batch.q0x[at] = q0.x, batch.q0y[at] = q0.y, batch.q0z[at] = q0.z;
      batch.q1x[at] = q1.x, batch.q1y[at] = q1.y, batch.q1z[at] = q1.z;
      batch.cx[at] = fSphere.x, batch.cy[at] = fSphere.y, batch.cz[at] = fSphere.z, batch.cw[at] = fSphere.w;
      pending.edges[at] = {step, f, q};
    }
  };
  // The walk: the 27 cells' buckets, each once, and in each its entries within the cell size.
  uint32_t seen[27];
  uint32_t seenCount = 0u;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const uint32_t h = gpu::contactBucket(home + glm::ivec3(dx, dy, dz), contact.tableSize);
        bool again = false;  // two of the 27 cells in one bucket: its vertices are visited once
        for (uint32_t b = 0u; b < seenCount; ++b) again = again || seen[b] == h;
        if (again) continue;
        seen[seenCount++] = h;
        const uint32_t first = h > 0u ? k.cells[h - 1u] : 0u, last = k.cells[h];
        for (uint32_t base = first; base < last; base += 32u) {  // 32 entries at a time
          float apart[32u + kContactRowsPadding];
          uint32_t near = nearMask(k.entryRows[0].data() + base, k.entryRows[1].data() + base, k.entryRows[2].data() + base,
                                   std::min(32u, last - base), xyz(si), reach2, apart);
          for (; near != 0u; near &= near - 1u) {
            const uint32_t j = uint32_t(std::countr_zero(near));
            const uint32_t u = k.entries[base + j];
            if (u != i) visit(u, apart[j]);
          }
        }
      }
  listPending();
  list.crowded = crowded;
  list.triangles = triangles;
  list.edges = edges;
}

struct VertexOutcome {
  float nearest;
  uint32_t marks;  // WEFT_CONTACT_MARK_*
};

// The runs of owners the incidence table is built in side by side (at most; one a worker), each
// with a count per vertex.
constexpr uint32_t kIncidenceRuns = 4;

// An incidence's state this step (CpuContact::live): beyond the radius by its pair's cull, within it,
// or within it with a share that adds something to the corner's sums (shareAddsSomething).
constexpr uint8_t kIncidenceBeyond = 0u, kIncidenceLive = 1u, kIncidencePressed = 2u;

// The corner of `nodes` that contact_resolve evaluates at vertex v: its first place there (a face
// naming a vertex twice has it in two places, and both incidences take the first).
uint32_t cornerOf(glm::uvec4 nodes, uint32_t v) { return nodes.x == v ? 0u : (nodes.y == v ? 1u : (nodes.z == v ? 2u : 3u)); }

// contact_resolve.comp's evaluation of every pair listed by `owner`, once a pair rather than once a
// corner: the pair's geometry (vertexTriangleState, edgeEdgeState) and each corner's share
// (contactCornerShare, with the corner's own friction and a grip of its own), written to the
// corner's place in its incidence run, where contactResolveVertex sums them in the run's order:
// the same arithmetic in the same order as the kernel, which evaluates the pair at each corner.
// `drift`: since the list was made (contactListDrift).
void evaluateListedPairs(uint32_t owner, CpuContact& k, const CpuState& s, const gpu::ContactParams& contact, float drift) {
  const std::vector<uint32_t>& topology = k.topology.data;
  const std::vector<glm::vec4>& start = k.start;
  const std::vector<glm::vec4>& positions = s.positions;
  const float thickness = contact.thickness;
  const glm::vec2 reach(thickness, contact.collectPairs != 0u ? gpu::contactForceReach(thickness, contact.radius) : 0.f);
  const glm::vec2 sceneFriction(contact.staticFriction, contact.kineticFriction);
  // A particle's own coefficients, or the scene's.
  auto frictionOf = [&](uint32_t v) {
    if (contact.frictionAt == 0u) return sceneFriction;
    const glm::vec2 f(bitsFloat(topology[contact.frictionAt + 2u * v]), bitsFloat(topology[contact.frictionAt + 2u * v + 1u]));
    return f.x < 0.f ? sceneFriction : f;
  };
  // A pair's, between corner v and particle w (a corner of the other primitive: one cloth).
  auto pairFriction = [&](uint32_t v, uint32_t w) {
    return contact.frictionAt == 0u ? sceneFriction : gpu::contactPairFriction(frictionOf(v), frictionOf(w));
  };
  // A pair listed far enough away cannot have come within the radius since (contactListedBeyond):
  // the cull below, by its boxes and by its distance (vertexTrianglePairBeyond, edgeEdgePairBeyond:
  // the kernel's), would pass over it too. First by the drift, then by its corners' own moves
  // (contactPairClosing), which pass over the pairs of a resting part while another falls: on the
  // pile's 150 frames, 18 % fewer pair states and the resolve 5-14 % faster; the device has neither.
  const bool listedHere = drift == 0.f;  // the step's start is where the pairs were listed (up to a common move)
  const std::vector<float>& moves = k.ownMoves;
  for (ListedPair& pair : k.candidates[owner]) {
    const glm::uvec4 v = pair.nodes;
    const bool edges = pair.edges != 0u;
    bool beyond =
        gpu::contactListedBeyond(pair.listedGap, drift, contact.radius) ||
        (!listedHere &&
         gpu::contactListedBeyondBy(pair.listedGap,
                                    gpu::contactPairClosing(glm::vec4(moves[v.x], moves[v.y], moves[v.z], moves[v.w]), edges),
                                    contact.radius)) ||
        (edges ? gpu::edgeEdgeBeyond(xyz(start[v.x]), xyz(start[v.y]), xyz(start[v.z]), xyz(start[v.w]), contact.radius)
               : gpu::vertexTriangleBeyond(xyz(start[v.x]), xyz(start[v.y]), xyz(start[v.z]), xyz(start[v.w]), contact.radius));
    gpu::ContactPairState state{};
    if (!beyond) {
      const std::vector<glm::vec4>& c = k.passStart;
      state = edges ? gpu::edgeEdgeState(c[v.x], c[v.y], c[v.z], c[v.w], xyz(positions[v.x]), xyz(positions[v.y]),
                                         xyz(positions[v.z]), xyz(positions[v.w]))
                    : gpu::vertexTriangleState(c[v.x], c[v.y], c[v.z], c[v.w], xyz(positions[v.x]),
                                               xyz(positions[v.y]), xyz(positions[v.z]), xyz(positions[v.w]));
      if (listedHere) pair.listedGap = std::max(pair.listedGap, state.d);
      beyond = gpu::contactDistanceBeyond(state.d, contact.radius);  // the distance the kernel's cull takes
    }
    if (beyond) continue;  // its corners' entries stay kIncidenceBeyond, as the pass found them
    for (int m = 0; m < 4; ++m) {
      const uint32_t corner = cornerOf(v, v[m]);
      const uint32_t other = edges ? (corner < 2u ? v.z : v.x) : (corner == 0u ? v.y : v.x);
      CornerShare share;
      share.grip = gpu::noGrip();
      share.r = gpu::contactCornerShare(state, corner, reach, pairFriction(v[m], other), share.weight, share.grip);
      const uint32_t at = pair.at[m];
      k.distances[at] = share.r.x;
      const bool adds = gpu::shareAddsSomething(share.weight, share.grip);
      k.live[at] = adds ? kIncidencePressed : kIncidenceLive;
      if (adds) k.shares[at] = share;
    }
  }
}

// movesApartFromHolders() of contact_resolve.comp: whether `move` takes vertex i away from every
// live pair within the hold distance of it, those pairs evaluated again as the kernel does.
bool movesApartFromHolders(uint32_t i, const CpuState& s, const CpuContact& k, glm::vec3 move) {
  const std::vector<glm::vec4>& x0 = k.passStart;  // the states evaluateListedPairs took
  const std::vector<glm::vec4>& x = s.positions;
  for (uint32_t m = k.incidenceRows[i]; m < k.incidenceRows[i + 1u]; ++m) {
    if (k.live[m] == kIncidenceBeyond || !gpu::contactHeldBy(k.distances[m], k.thickness)) continue;
    const ListedPair& pair = *k.incidences[m];
    const glm::uvec4 v = pair.nodes;
    const bool edges = pair.edges != 0u;
    const gpu::ContactPairState state =
        edges ? gpu::edgeEdgeState(x0[v.x], x0[v.y], x0[v.z], x0[v.w], xyz(x[v.x]), xyz(x[v.y]), xyz(x[v.z]), xyz(x[v.w]))
              : gpu::vertexTriangleState(x0[v.x], x0[v.y], x0[v.z], x0[v.w], xyz(x[v.x]), xyz(x[v.y]), xyz(x[v.z]), xyz(x[v.w]));
    if (!gpu::contactMovesApart(move, state, cornerOf(v, i), edges)) return false;
  }
  return true;
}

// contact_resolve.comp for vertex i: the shares of the pairs it is a corner of (evaluateListedPairs
// wrote them), summed exactly (ContactSums) as the kernel sums them in whatever order its atomics
// made, `drift` after they were listed (contactListDrift).
VertexOutcome contactResolveVertex(uint32_t i, CpuState& s, const CpuContact& k, const gpu::ContactParams& contact, float drift) {
  const glm::uvec4 listed = k.candidateCounts[i];
  const std::vector<glm::vec4>& start = k.start;
  const glm::vec4 si = start[i];
  const glm::vec4 xi = s.positions[i];
  const glm::vec4 vi = s.velocities[i];
  const float thickness = contact.thickness;
  float nearest = contact.radius;
  float nearestFree = contact.radius;  // of the pairs beyond the hold distance (contactMovesApart)
  gpu::ContactSums sums = gpu::noSums();
  // keepPair() and sortKept() of contact_resolve.comp: the pairs kept for the next implicit solve.
  float keptRank[WEFT_CONTACT_PAIR_SLOTS];
  uint32_t keptId[WEFT_CONTACT_PAIR_SLOTS];
  uint32_t keptCount = 0u;
  gpu::Element* keptPairs = s.elements.contactPairs.data() + size_t(i) * WEFT_CONTACT_PAIR_SLOTS;
  auto keepPair = [&](float d, glm::uvec4 nodes, bool edges, uint32_t corner, uint32_t id) {
    if (contact.collectPairs == 0u || d >= contact.radius || !(d > 0.f)) return;
    const float rank = gpu::contactKeepRank(d, edges, nodes, contact.thickness);
    uint32_t slot = keptCount;
    if (keptCount == WEFT_CONTACT_PAIR_SLOTS) {
      slot = 0u;
      for (uint32_t j = 1u; j < WEFT_CONTACT_PAIR_SLOTS; ++j)
        if (gpu::keptBefore(keptRank[slot], keptId[slot], keptRank[j], keptId[j])) slot = j;
      if (!gpu::keptBefore(rank, id, keptRank[slot], keptId[slot])) return;
    } else {
      ++keptCount;
    }
    keptRank[slot] = rank;
    keptId[slot] = id;
    const glm::vec4 x0 = start[nodes.x], x1 = start[nodes.y], x2 = start[nodes.z], x3 = start[nodes.w];
    const glm::vec4 g = edges ? gpu::edgeEdgeWeights(xyz(x0), xyz(x1), xyz(x2), xyz(x3))
                              : gpu::vertexTriangleWeights(xyz(x0), xyz(x1), xyz(x2), xyz(x3));
    keptPairs[slot] = gpu::contactPairElement(nodes, g, x0, x1, x2, x3, corner, contact.thickness, contact.radius, contact.dt);
  };
  for (uint32_t m = k.incidenceRows[i]; m < k.incidenceRows[i + 1u]; ++m) {
    const uint8_t live = k.live[m];
    if (live == kIncidenceBeyond) continue;
    const float d = k.distances[m];
    if (contact.collectPairs != 0u) {
      const ListedPair& pair = *k.incidences[m];
      const uint32_t corner = cornerOf(pair.nodes, i);
      const glm::uvec4 v = pair.nodes;
      // An edge–edge pair is kept as the keeper's edge against the other (the rank's hash and the
      // element take that order).
      if (pair.edges == 0u || corner < 2u) keepPair(d, v, pair.edges != 0u, corner, pair.id);
      else keepPair(d, glm::uvec4(v.z, v.w, v.x, v.y), true, corner - 2u, pair.id);
    }
    nearest = std::min(nearest, d);
    if (!gpu::contactHeldBy(d, thickness)) nearestFree = std::min(nearestFree, d);
    if (live == kIncidencePressed) {
      const CornerShare& share = k.shares[m];
      gpu::addShare(sums, share.r, share.weight, share.grip);
    }
  }
  for (uint32_t a = 1u; a < keptCount; ++a)
    for (uint32_t b = a; b > 0u && gpu::keptBefore(keptRank[b], keptId[b], keptRank[b - 1u], keptId[b - 1u]); --b) {
      std::swap(keptRank[b], keptRank[b - 1u]);
      std::swap(keptId[b], keptId[b - 1u]);
      std::swap(keptPairs[b], keptPairs[b - 1u]);
    }
  const glm::vec3 push = gpu::sumsPush(sums);
  const float weights = gpu::fixedValue(sums.weights);
  const gpu::ContactGrip grip = gpu::sumsGrip(sums);
  const glm::vec3 pushed = xyz(xi) + push / std::max(1.f, weights) + gpu::contactGripMove(grip);
  const glm::vec3 target = xyz(xi) + integrators::colliderGripAll(xyz(xi), pushed - xyz(xi), s.colliders, s.colliderGrid);
  // Pairs past the list lay farther than its reach when listed, the dropped ones farther than their
  // bound; each has closed by at most twice the drift since.
  const float dropped = gpu::contactDroppedNow(bitsFloat(listed.z), drift);
  float bound = gpu::contactBound(std::min(nearest, dropped), thickness);
  const float free = std::min(nearestFree, dropped);
  if (bound == 0.f && !gpu::contactHeldBy(free, thickness) && movesApartFromHolders(i, s, k, target - xyz(si)))
    bound = gpu::contactBound(free, thickness);
  const glm::vec3 x = gpu::limitMove(xyz(si), target, bound);
  s.positionsOut[i] = glm::vec4(x, xi.w);
  s.velocitiesOut[i] = glm::vec4(gpu::carryCorrection(xyz(vi), x, xyz(xi), contact.dt), vi.w);
  s.elements.contactPairCounts[i] = keptCount;
  return {nearest, gpu::contactMarks(nearest, contact.radius, weights, x != target, bound)};
}

}  // namespace

ContactTopology buildContactTopology(const std::vector<glm::uvec3>& triangles, const std::vector<glm::vec3>& positions) {
  const size_t n = positions.size();
  for (const glm::uvec3& t : triangles)
    if (t.x >= n || t.y >= n || t.z >= n)
      throw InputError("contact: a triangle names particle " + std::to_string(std::max({t.x, t.y, t.z})) + " of " +
                       std::to_string(n));
  auto smallest = [](glm::uvec3 t) { return std::min({t.x, t.y, t.z}); };
  std::vector<glm::uvec3> sorted = triangles;
  std::stable_sort(sorted.begin(), sorted.end(), [&](glm::uvec3 a, glm::uvec3 b) { return smallest(a) < smallest(b); });
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(3 * sorted.size());
  for (const glm::uvec3& t : sorted)
    for (auto [a, b] : {std::pair{t.x, t.y}, std::pair{t.y, t.z}, std::pair{t.z, t.x}}) edges.emplace_back(std::min(a, b), std::max(a, b));
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

  ContactTopology out;
  gpu::ContactParams& c = out.layout;
  c.triangleCount = static_cast<uint32_t>(sorted.size());
  c.edgeCount = static_cast<uint32_t>(edges.size());
  std::vector<uint32_t>& d = out.data;
  // A CSR table over the vertices from (vertex, item) incidences: rows, then items.
  auto csr = [&](const std::vector<std::pair<uint32_t, uint32_t>>& incidences, uint32_t& rowsAt, uint32_t* listAt) {
    rowsAt = static_cast<uint32_t>(d.size());
    d.resize(d.size() + n + 1, 0u);
    for (auto [v, item] : incidences) ++d[rowsAt + v + 1];
    for (size_t v = 0; v < n; ++v) d[rowsAt + v + 1] += d[rowsAt + v];
    if (!listAt) return;
    *listAt = static_cast<uint32_t>(d.size());
    d.resize(d.size() + incidences.size());
    std::vector<uint32_t> fill(d.begin() + rowsAt, d.begin() + rowsAt + n);
    for (auto [v, item] : incidences) d[*listAt + fill[v]++] = item;
  };
  c.trianglesAt = 0;
  for (const glm::uvec3& t : sorted) d.insert(d.end(), {t.x, t.y, t.z});
  c.edgesAt = static_cast<uint32_t>(d.size());
  for (auto [a, b] : edges) d.insert(d.end(), {a, b});
  std::vector<std::pair<uint32_t, uint32_t>> around, owned;
  for (uint32_t t = 0; t < sorted.size(); ++t) {
    for (uint32_t v : {sorted[t].x, sorted[t].y, sorted[t].z}) around.emplace_back(v, t);
    owned.emplace_back(smallest(sorted[t]), t);
  }
  csr(around, c.triangleRowsAt, &c.triangleListAt);
  csr(owned, c.ownedTriangleRowsAt, nullptr);  // the sorted triangles are the list
  around.clear();
  owned.clear();
  double total = 0.0;
  std::vector<float> lengths;
  lengths.reserve(edges.size());
  for (uint32_t e = 0; e < edges.size(); ++e) {
    around.emplace_back(edges[e].first, e);
    around.emplace_back(edges[e].second, e);
    owned.emplace_back(edges[e].first, e);
    lengths.push_back(glm::length(positions[edges[e].first] - positions[edges[e].second]));
    total += lengths.back();
  }
  csr(around, c.edgeRowsAt, &c.edgeListAt);
  csr(owned, c.ownedEdgeRowsAt, nullptr);  // the sorted edges are the list
  out.meanEdge = edges.empty() ? 0.f : static_cast<float>(total / double(edges.size()));
  if (!lengths.empty()) {
    std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
    out.medianEdge = lengths[lengths.size() / 2];
  }
  return out;
}

void addClothFriction(ContactTopology& topology, size_t particles, const std::vector<ClothFriction>& cloths) {
  if (cloths.empty()) return;
  std::vector<uint32_t>& d = topology.data;
  topology.layout.frictionAt = static_cast<uint32_t>(d.size());
  d.resize(d.size() + 2 * particles, floatBits(-1.f));  // -1: the scene's own coefficients
  for (const ClothFriction& cloth : cloths) {
    if (uint64_t(cloth.firstParticle) + cloth.particleCount > particles)
      throw InputError("contact: a cloth's friction names particles " + std::to_string(cloth.firstParticle) + " to " +
                       std::to_string(uint64_t(cloth.firstParticle) + cloth.particleCount) + " of " +
                       std::to_string(particles));
    for (uint32_t i = cloth.firstParticle; i < cloth.firstParticle + cloth.particleCount; ++i) {
      d[topology.layout.frictionAt + 2 * i] = floatBits(cloth.staticFriction);
      d[topology.layout.frictionAt + 2 * i + 1] = floatBits(cloth.friction);
    }
  }
}

uint32_t contactTableSize(size_t particles) { return std::bit_ceil(static_cast<uint32_t>(std::max<size_t>(particles, 1))); }

void checkContactSettings(const std::unique_ptr<UnitResources>& contact, const ContactSpec& settings) {
  if (!settings.enabled || !contact) return;
  const ContactTopology& topology = static_cast<const ContactCommon&>(*contact).topology;
  checkReach(resolvedRadius(settings, topology), topology.meanEdge);
  checkThickness(settings.thickness, topology.medianEdge);
}

void applyContactSettings(std::unique_ptr<UnitResources>& contact, const ContactSpec& settings) {
  if (!settings.enabled) {
    contact.reset();
    return;
  }
  if (!contact)
    throw InputError("contact is turned on when the solver is made (its tables come from the cloth): "
                     "make a new solver with contact in its parameters");
  static_cast<ContactCommon&>(*contact).set(settings);
}

bool hasContact(const CpuState& state) { return state.contact != nullptr; }
bool hasContact(const GpuState& state) { return state.contact != nullptr; }

void forgetContactPairsCpu(CpuState& state) {
  if (!state.contact) {  // contact turned off: nothing to keep them for
    state.elements.contactPairs.clear();
    state.elements.contactPairCounts.clear();
  }
  std::fill(state.elements.contactPairCounts.begin(), state.elements.contactPairCounts.end(), 0u);
}

// ---- CPU ----

void prepareContactCpu(CpuState& state, const ClothModel& model, const ContactSpec& settings) {
  state.elements.contactPairs.clear();
  state.elements.contactPairCounts.clear();
  if (!settings.enabled) {
    state.contact.reset();
    return;
  }
  auto k = std::make_unique<CpuContact>();
  k->build(model, settings);
  k->start.resize(model.particleCount());
  k->listed.resize(model.particleCount());
  k->candidates.resize(model.particleCount());
  k->candidateCounts.resize(model.particleCount());
  k->spheres.resize(size_t(k->topology.layout.triangleCount) + k->topology.layout.edgeCount);
  k->cells.resize(contactTableSize(model.particleCount()));
  k->entries.resize(model.particleCount());
  k->buckets.resize(model.particleCount());
  k->marks.resize(model.particleCount());
  state.elements.contactPairs.assign(model.particleCount() * WEFT_CONTACT_PAIR_SLOTS, gpu::Element{});
  state.elements.contactPairCounts.assign(model.particleCount(), 0u);
  state.contact = std::move(k);
}

void startContactFrameCpu(CpuState& state) {
  CpuContact& k = cpuContact(state);
  k.scalars = frameStartScalars();
  std::fill(k.marks.begin(), k.marks.end(), 0u);
}

void startContactStepCpu(CpuState& state) { cpuContact(state).start = state.positions; }

namespace {

// The list of vertex i's candidates from the search's (the GPU's slots, packed: vertex–triangle
// pairs, then edge–edge in the order they were listed).
void keepCandidates(uint32_t i, CpuContact& k, const CandidateList& list) {
  std::vector<ListedPair>& pairs = k.candidates[i];
  pairs.assign(list.slots, list.slots + list.triangles);
  for (uint32_t j = 0u; j < list.edges; ++j) pairs.push_back(list.slots[k.candidateSlots - 1u - j]);
  k.candidateCounts[i].x = list.triangles;  // z, the dropped bound, is the search's atomics'
  k.candidateCounts[i].y = list.edges;
  k.listed[i] = k.start[i];
}

// The incidence table of the listed pairs: for each vertex, every pair it is a corner of, with the
// pair's place in each corner's run recorded in the pair (ListedPair::at): the vertex–triangle pairs
// first, then the edge–edge pairs (the kernel's two rows a vertex), each kind by owner. The order
// changes no sum (ContactSums) and no kept pair (KeptPairs); it is fixed only so that a run repeats
// itself. The owners are cut into a few runs, one a worker: each run counts its pairs' corners on
// its own, so that the runs can scatter side by side, each from where the runs before it end in
// every vertex's row.
void buildContactIncidence(CpuContact& k, uint32_t n, ThreadPool& pool) {
  const uint32_t runs = std::max(1u, std::min(pool.size(), kIncidenceRuns));
  const uint32_t perRun = (n + runs - 1u) / runs;
  // [kind][run][vertex]: each run's count of each kind, then its place in each vertex's row.
  std::vector<uint32_t>& counts = k.incidenceCounts;
  counts.assign(2 * size_t(runs) * n, 0u);
  auto countsOf = [&](uint32_t edges, size_t run) { return counts.data() + (size_t(edges) * runs + run) * n; };
  pool.parallelFor(runs, [&](size_t begin, size_t end) {
    for (size_t run = begin; run < end; ++run)
      for (uint32_t owner = uint32_t(run) * perRun; owner < std::min(n, uint32_t(run + 1) * perRun); ++owner)
        for (const ListedPair& pair : k.candidates[owner]) {
          uint32_t* mine = countsOf(pair.edges, run);
          for (int m = 0; m < 4; ++m) ++mine[pair.nodes[m]];
        }
  }, 1);
  std::vector<uint32_t>& rows = k.incidenceRows;
  rows.assign(size_t(n) + 1u, 0u);
  for (uint32_t v = 0; v < n; ++v) {
    uint32_t at = rows[v];
    for (uint32_t edges = 0; edges < 2; ++edges)
      for (uint32_t run = 0; run < runs; ++run) at += std::exchange(countsOf(edges, run)[v], at);
    rows[v + 1u] = at;
  }
  k.incidences.resize(rows[n]);
  k.live.resize(rows[n]);
  k.distances.resize(rows[n]);
  k.shares.resize(rows[n]);
  pool.parallelFor(runs, [&](size_t begin, size_t end) {
    for (size_t run = begin; run < end; ++run) {
      auto scatter = [&](ListedPair& pair) {
        uint32_t* fill = countsOf(pair.edges, run);
        for (int m = 0; m < 4; ++m) pair.at[m] = fill[pair.nodes[m]]++;
        for (int m = 0; m < 4; ++m) k.incidences[pair.at[m]] = &pair;
      };
      for (uint32_t owner = uint32_t(run) * perRun; owner < std::min(n, uint32_t(run + 1) * perRun); ++owner) {
        std::vector<ListedPair>& pairs = k.candidates[owner];
        const uint32_t triangles = k.candidateCounts[owner].x;
        for (uint32_t j = 0; j < triangles; ++j) scatter(pairs[j]);
        for (size_t j = pairs.size(); j-- > triangles;) scatter(pairs[j]);
      }
    }
  }, 1);
}

}  // namespace

// The vertices a thread claims at a time in the contact passes (ThreadPool::parallelForClaimed): a
// pile's vertices have hundreds of pairs where it is dense and none where it falls free, and they
// are numbered along the cloth, so halves of the numbering carry very different work.
constexpr size_t kContactGrain = 16;

ContactPassTimes resolveContactCpu(CpuState& state, float dt, bool collectPairs, ThreadPool& pool) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point found0 = Clock::now();
  CpuContact& k = cpuContact(state);
  const uint32_t n = static_cast<uint32_t>(state.positions.size());
  gpu::ContactParams c = stepParams(k, dt, n, static_cast<uint32_t>(state.colliders.size()), WEFT_CONTACT_MEASURE, collectPairs);
  if (k.listStale) std::fill(k.listed.begin(), k.listed.end(), glm::vec4(INFINITY));
  k.listStale = false;
  // contact_hash's WEFT_CONTACT_DRIFT: the box of the moves since the candidates were listed.
  glm::uvec3 low(UINT32_MAX), high(0u);
  for (uint32_t i = 0; i < n; ++i) {
    const glm::vec3 moved = xyz(k.start[i]) - xyz(k.listed[i]);
    for (int a = 0; a < 3; ++a) {
      low[a] = std::min(low[a], gpu::orderedFloatBits(moved[a]));
      high[a] = std::max(high[a], gpu::orderedFloatBits(moved[a]));
    }
  }
  const auto decode = [](glm::uvec3 u) {
    return glm::vec3(gpu::orderedBitsFloat(u.x), gpu::orderedBitsFloat(u.y), gpu::orderedBitsFloat(u.z));
  };
  const float drift = gpu::contactDriftOf(decode(low), decode(high));
  const bool search = !gpu::contactListHolds(drift, c.radius);
  const float listDrift = gpu::contactListDrift(drift, c.radius);
  if (listDrift > 0.f) {  // each vertex's own move, from the moves' box centre
    const glm::vec3 centre = 0.5f * (decode(low) + decode(high));
    k.ownMoves.resize(n);
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) k.ownMoves[i] = glm::length(xyz(k.start[i]) - xyz(k.listed[i]) - centre);
    });
  }
  k.scalars.searchSteps += search ? 1u : 0u;
  // In a search step, the longest edge, then the buckets: a counting sort in vertex order (the GPU
  // scatters by atomics, then sorts each bucket's run into the same order: WEFT_CONTACT_SORT).
  float longest = 0.f;
  if (search) {
    for (uint32_t i = 0; i < n; ++i) longest = std::max(longest, contactMeasure(i, k, c));
    const float cellSize = gpu::contactListCellSize(c.radius, longest);
    std::fill(k.cells.begin(), k.cells.end(), 0u);
    std::vector<uint32_t>& bucketOf = k.buckets;
    for (uint32_t i = 0; i < n; ++i) ++k.cells[bucketOf[i] = gpu::contactBucket(gpu::contactCell(xyz(k.start[i]), cellSize), c.tableSize)];
    uint32_t running = 0;
    for (uint32_t& cell : k.cells) running += std::exchange(cell, running);
    for (uint32_t i = 0; i < n; ++i) k.entries[k.cells[bucketOf[i]]++] = i;
    for (int a = 0; a < 3; ++a) {
      k.entryRows[a].resize(size_t(n) + kContactRowsPadding);
      for (uint32_t en = 0; en < n; ++en) k.entryRows[a][en] = k.start[k.entries[en]][a];
    }
  }
  std::atomic<uint32_t> minBits{k.scalars.minDistanceBits};
  std::atomic<uint32_t> pushed{0}, limited{0}, near{0}, crowded{0};
  if (search) {  // the lists, each pair at its owner, then the table that hands them to their corners
    const float listReach = gpu::contactListReach(c.radius);
    for (glm::uvec4& counts : k.candidateCounts) counts.z = floatBits(listReach);
    pool.parallelForClaimed(n, kContactGrain, [&](size_t begin, size_t end) {
      uint32_t m = 0;
      auto list = std::make_unique<CandidateList>();  // 8 KiB: off the worker's stack
      auto pending = std::make_unique<SearchPending>();
      for (size_t i = begin; i < end; ++i) {
        contactSearchVertex(static_cast<uint32_t>(i), k, c, longest, *list, *pending);
        m += list->crowded;
        keepCandidates(static_cast<uint32_t>(i), k, *list);
      }
      crowded += m;
    }, 64);
    buildContactIncidence(k, n, pool);
  }
  const Clock::time_point resolved0 = Clock::now();
  k.passStart.resize(n);
  pool.parallelFor(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      k.passStart[i] = gpu::contactPassCorner(
          k.start[i], integrators::restsOnAnyCollider(xyz(k.start[i]), state.colliders, state.colliderGrid));
  });
  // Every incidence entry beyond the radius until its pair's evaluation finds it live: most listed
  // pairs are culled, and their corners' entries lie scattered over the table.
  std::fill(k.live.begin(), k.live.end(), kIncidenceBeyond);
  pool.parallelForClaimed(n, kContactGrain, [&](size_t begin, size_t end) {
    for (size_t owner = begin; owner < end; ++owner) evaluateListedPairs(static_cast<uint32_t>(owner), k, state, c, listDrift);
  }, 64);
  pool.parallelForClaimed(n, kContactGrain, [&](size_t begin, size_t end) {
    float nearest = FLT_MAX;
    uint32_t p = 0, l = 0, q = 0;
    for (size_t i = begin; i < end; ++i) {
      const VertexOutcome o = contactResolveVertex(static_cast<uint32_t>(i), state, k, c, listDrift);
      if (o.nearest < c.radius) nearest = std::min(nearest, o.nearest);
      p += (o.marks & WEFT_CONTACT_MARK_PUSHED) != 0;
      l += (o.marks & WEFT_CONTACT_MARK_LIMITED) != 0;
      q += (o.marks & WEFT_CONTACT_MARK_NEAR) != 0;
      k.marks[i] |= o.marks;  // vertex i's own entry: no other thread writes it
    }
    uint32_t seen = minBits.load();
    while (floatBits(nearest) < seen && !minBits.compare_exchange_weak(seen, floatBits(nearest))) {}
    pushed += p;
    limited += l;
    near += q;
  }, 64);  // hundreds of pair tests per vertex: worth the workers from a few dozen vertices
  k.scalars.minDistanceBits = minBits.load();
  k.scalars.contactVertices += pushed.load();
  k.scalars.limitedVertices += limited.load();
  k.scalars.nearVertices += near.load();
  k.scalars.crowdedVertices += crowded.load();
  k.scalars.maxEdgeBits = floatBits(longest);
  for (int a = 0; a < 3; ++a) {
    k.scalars.driftLow[a] = low[a];
    k.scalars.driftHigh[a] = high[a];
  }
  state.swapPositions();
  state.swapVelocities();
  const auto ms = [](Clock::time_point from, Clock::time_point to) { return std::chrono::duration<double, std::milli>(to - from).count(); };
  const Clock::time_point end = Clock::now();
  return {ms(found0, resolved0), ms(resolved0, end)};
}

namespace {
ContactStats contactStats(const gpu::ContactScalars& s, float radius) {
  ContactStats out;
  out.contactVertices = s.contactVertices;
  out.limitedVertices = s.limitedVertices;
  out.nearVertices = s.nearVertices;
  out.crowdedVertices = s.crowdedVertices;
  out.searchSteps = s.searchSteps;
  out.unstoredSteps = s.unstoredSteps;
  out.minDistance = std::min(bitsFloat(s.minDistanceBits), radius);
  return out;
}
}  // namespace

ContactStats contactStatsCpu(const CpuState& state) {
  if (!hasContact(state)) return {};
  const CpuContact& k = cpuContact(state);
  return contactStats(k.scalars, k.radius);
}

std::vector<uint32_t> contactMarksCpu(const CpuState& state) {
  return hasContact(state) ? cpuContact(state).marks : std::vector<uint32_t>{};
}

// ---- GPU ----

namespace {
engine::Buffer deviceBuffer(const engine::Context& context, size_t bytes, const char* name) {
  return engine::Buffer(context, std::max<size_t>(bytes, 16), engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, name);
}
}  // namespace

// Candidate pairs a vertex owns where the cloth lies near itself: the CPU's memory estimate.
constexpr uint64_t kTypicalCandidates = WEFT_CONTACT_MIN_CANDIDATE_SLOTS;

// The GPU's largest contact buffer per candidate slot: the incidence runs, four ids a pair.
constexpr uint64_t kIncidenceBytesPerSlot = 4 * sizeof(uint32_t);
constexpr uint64_t kPairStatesPerVertex = WEFT_CONTACT_PAIR_STATES_PER_VERTEX;
constexpr uint64_t kPairStateBytes = WEFT_CONTACT_PAIR_STATE_VEC4S * sizeof(glm::vec4);

uint32_t contactCandidateSlots(size_t particles, uint64_t maxBufferBytes) {
  uint32_t slots = WEFT_CONTACT_CANDIDATE_SLOTS;
  while (slots > WEFT_CONTACT_MIN_CANDIDATE_SLOTS && uint64_t(particles) * slots * kIncidenceBytesPerSlot > maxBufferBytes) slots /= 2;
  return slots;
}

uint32_t contactPairStateCapacity(size_t particles, uint64_t maxBufferBytes) {
  const uint64_t wanted = uint64_t(particles) * kPairStatesPerVertex;
  // The live runs keep a state's place beside the corner's bits (contact_pair_states.glsl's liveEntry).
  const uint64_t places = uint64_t(1) << (32u - WEFT_CONTACT_LIVE_CORNER_BITS);
  return static_cast<uint32_t>(std::min<uint64_t>({wanted, maxBufferBytes / kPairStateBytes, places}));
}

MemoryNeed contactMemoryNeed(size_t particles, size_t triangles, uint32_t candidateSlots, uint32_t pairStates) {
  const uint64_t n = particles, t = triangles, edges = 3 * t;
  MemoryNeed need;
  need.add(std::max<uint64_t>(n * sizeof(glm::vec4), 16));                                        // start
  need.add(std::max<uint64_t>(n * sizeof(glm::vec4), 16));                                        // listed
  need.add(std::max<uint64_t>((6 * t + 4 * edges + 6 * n + 4) * sizeof(uint32_t), 16));           // topology, each particle's friction
  need.add(std::max<uint64_t>((t + edges) * sizeof(glm::vec4), 16));                              // spheres
  need.add(std::max<uint64_t>(uint64_t(contactTableSize(particles)) * sizeof(uint32_t), 16));     // cells
  need.add(std::max<uint64_t>(n * sizeof(uint32_t), 16));                                         // entries
  need.add(std::max<uint64_t>(n * sizeof(uint32_t), 16));  // the CPU's buckets (the GPU's scalars are smaller)
  need.add(std::max<uint64_t>(n * sizeof(uint32_t), 16));  // marks
  if (candidateSlots > 0) {
    need.add(std::max<uint64_t>(n * candidateSlots * sizeof(glm::uvec2), 16));       // the GPU's candidate pairs
    need.add(std::max<uint64_t>(n * candidateSlots * kIncidenceBytesPerSlot, 16));   // and their incidence runs
    need.add(std::max<uint64_t>(n * candidateSlots / 8, 16));                        // and a live bit each
    need.add(std::max<uint64_t>(pairStates * kPairStateBytes, 16));                  // the live pairs' states
    need.add(std::max<uint64_t>(pairStates * 4 * sizeof(glm::uvec2), 16));           // and their incidence runs
    need.add(std::max<uint64_t>(3 * n * sizeof(uint32_t), 16));                      // and rows, each owner's first
  } else {  // the CPU's lists grow to what each vertex meets: count a typical list's worth
    need.add(std::max<uint64_t>(n * (sizeof(std::vector<ListedPair>) + kTypicalCandidates * sizeof(ListedPair)), 16));
    need.add(std::max<uint64_t>(n * 4 * kTypicalCandidates * sizeof(ListedPair), 16));  // and their incidence runs
    need.add(std::max<uint64_t>(n * sizeof(float), 16));  // each vertex's own move (contactPairClosing)
  }
  need.add(std::max<uint64_t>(n * sizeof(glm::uvec4), 16));  // and their counts
  need.add(std::max<uint64_t>(2 * n * sizeof(uint32_t), 16));  // the incidence rows
  need.add(std::max<uint64_t>(n * WEFT_CONTACT_PAIR_SLOTS * sizeof(gpu::Element), 16));  // the pairs kept for implicit solves
  need.add(std::max<uint64_t>(n * sizeof(uint32_t), 16));                                // and their counts
  return need;
}

void prepareContactGpu(GpuState& state, const ClothModel& model, const ContactSpec& settings, uint32_t candidateSlots,
                       uint32_t pairStates) {
  if (!settings.enabled) {
    state.contact.reset();
    return;
  }
  const engine::Context& context = *state.context;
  auto k = std::make_unique<GpuContact>();
  k->build(model, settings);
  const size_t n = model.particleCount();
  k->start = deviceBuffer(context, n * sizeof(glm::vec4), "weft.contactStart");
  k->listed = deviceBuffer(context, n * sizeof(glm::vec4), "weft.contactListed");
  k->topologyBuffer = deviceBuffer(context, k->topology.data.size() * sizeof(uint32_t), "weft.contactTopology");
  if (!k->topology.data.empty())
    engine::uploadBuffer(context, k->topologyBuffer, k->topology.data.data(), k->topology.data.size() * sizeof(uint32_t));
  k->spheres = deviceBuffer(context, (size_t(k->topology.layout.triangleCount) + k->topology.layout.edgeCount) * sizeof(glm::vec4),
                            "weft.contactSpheres");
  k->cells = deviceBuffer(context, contactTableSize(n) * sizeof(uint32_t), "weft.contactCells");
  k->entries = deviceBuffer(context, n * sizeof(uint32_t), "weft.contactEntries");
  k->scalars = deviceBuffer(context, sizeof(gpu::ContactScalars), "weft.contactScalars");
  k->marks = deviceBuffer(context, n * sizeof(uint32_t), "weft.contactMarks");
  k->candidateSlots = candidateSlots;
  k->candidates = deviceBuffer(context, n * candidateSlots * sizeof(glm::uvec2), "weft.contactCandidates");
  k->candidateCounts = deviceBuffer(context, n * sizeof(glm::uvec4), "weft.contactCandidateCounts");
  k->incidenceRows = deviceBuffer(context, 2 * n * sizeof(uint32_t), "weft.contactIncidenceRows");
  k->incidences = deviceBuffer(context, 4 * n * candidateSlots * sizeof(uint32_t), "weft.contactIncidences");
  k->pairLive = deviceBuffer(context, n * candidateSlots / 32 * sizeof(uint32_t), "weft.contactPairLive");
  k->pairStateCapacity = pairStates;
  k->pairStates = deviceBuffer(context, pairStates * kPairStateBytes, "weft.contactPairStates");
  k->pairStateBases = deviceBuffer(context, n * sizeof(uint32_t), "weft.contactPairStateBases");
  k->liveRows = deviceBuffer(context, 2 * n * sizeof(uint32_t), "weft.contactLiveRows");
  k->liveIncidences = deviceBuffer(context, 4 * size_t(pairStates) * sizeof(glm::uvec2), "weft.contactLiveIncidences");
  const gpu::ContactScalars initial = frameStartScalars();
  engine::uploadBuffer(context, k->scalars, &initial, sizeof initial);
  k->hash = std::make_unique<engine::ComputeProgram>(context, *state.shaders, "contact_hash.comp");
  k->scan = std::make_unique<engine::ComputeProgram>(context, *state.shaders, "contact_scan.comp");
  k->search = std::make_unique<engine::ComputeProgram>(context, *state.shaders, "contact_search.comp");
  k->incidence = std::make_unique<engine::ComputeProgram>(context, *state.shaders, "contact_incidence.comp");
  state.contact = std::move(k);  // contact_pairs and contact_resolve are built when first recorded
}

void recordContactFrameStart(GpuRecorder& r) {
  GpuContact& k = gpuContact(r.state);
  engine::barrier::allToUpload(r.vk(), r.cmd);
  r.vk().CmdFillBuffer(r.cmd, k.scalars.handle(), offsetof(gpu::ContactScalars, minDistanceBits), 4, floatBits(FLT_MAX));
  r.vk().CmdFillBuffer(r.cmd, k.scalars.handle(), offsetof(gpu::ContactScalars, contactVertices),
                       sizeof(gpu::ContactScalars) - offsetof(gpu::ContactScalars, contactVertices), 0u);
  r.vk().CmdFillBuffer(r.cmd, k.marks.handle(), 0, VK_WHOLE_SIZE, 0u);
  engine::barrier::transferToAll(r.vk(), r.cmd);
}

void recordContactStepStart(GpuRecorder& r) {
  GpuContact& k = gpuContact(r.state);
  engine::barrier::allToTransfer(r.vk(), r.cmd);
  const VkBufferCopy region{0, 0, VkDeviceSize(r.state.particleCount) * sizeof(glm::vec4)};
  r.vk().CmdCopyBuffer(r.cmd, r.state.positionsIn().handle(), k.start.handle(), 1, &region);
  engine::barrier::transferToAll(r.vk(), r.cmd);
}

void recordContactResolve(GpuRecorder& r, float dt, bool collectPairs) {
  GpuState& s = r.state;
  GpuContact& k = gpuContact(s);
  const uint32_t n = s.particleCount;
  gpu::ContactParams c = stepParams(k, dt, n, s.colliderCount, WEFT_CONTACT_MEASURE, collectPairs);
  c.pairStateCapacity = k.pairStateCapacity;
  // For the colliders' kinds (WEFT_SPEC_COLLIDER_KINDS): a pair's corner resting on one is held, and
  // the resolve grips it.
  if (!k.pairs) k.pairs = std::make_unique<engine::ComputeProgram>(*s.context, *s.shaders, "contact_pairs.comp", s.specialization());
  if (!k.resolve)
    k.resolve = std::make_unique<engine::ComputeProgram>(*s.context, *s.shaders, "contact_resolve.comp", s.specialization());
  const std::vector<engine::BufferBinding> hashBindings{{WEFT_BIND_CONTACT_START, &k.start},
                                                        {WEFT_BIND_CONTACT_LISTED, &k.listed},
                                                        {WEFT_BIND_CONTACT_TOPOLOGY, &k.topologyBuffer},
                                                        {WEFT_BIND_CONTACT_SPHERES, &k.spheres},
                                                        {WEFT_BIND_CONTACT_CELLS, &k.cells},
                                                        {WEFT_BIND_CONTACT_ENTRIES, &k.entries},
                                                        {WEFT_BIND_CONTACT_SCALARS, &k.scalars},
                                                        {WEFT_BIND_CONTACT_CANDIDATE_COUNTS, &k.candidateCounts},
                                                        {WEFT_BIND_CONTACT_INCIDENCE_ROWS, &k.incidenceRows}};
  std::vector<engine::BufferBinding> searchBindings = hashBindings;  // the grid, and the lists it fills
  searchBindings.push_back({WEFT_BIND_CONTACT_CANDIDATES, &k.candidates});
  std::vector<engine::BufferBinding> incidenceBindings = searchBindings;
  incidenceBindings.push_back({WEFT_BIND_CONTACT_INCIDENCES, &k.incidences});
  // Each pass in contact.mode `mode` over `count` threads, then a barrier before the next.
  auto pass = [&](engine::ComputeProgram& program, uint32_t mode, uint32_t count, const std::vector<engine::BufferBinding>& bindings) {
    c.mode = mode;
    program.dispatch(r.cmd, count, bindings, c);
    engine::barrier::computeToCompute(r.vk(), r.cmd);
  };
  engine::timed(r.timer, r.cmd, kContactFindPass, [&] {
    engine::barrier::allToUpload(r.vk(), r.cmd);
    r.vk().CmdFillBuffer(r.cmd, k.scalars.handle(), offsetof(gpu::ContactScalars, maxEdgeBits), 4, 0u);
    r.vk().CmdFillBuffer(r.cmd, k.scalars.handle(), offsetof(gpu::ContactScalars, driftLow), sizeof(gpu::ContactScalars::driftLow), UINT32_MAX);
    r.vk().CmdFillBuffer(r.cmd, k.scalars.handle(), offsetof(gpu::ContactScalars, driftHigh), sizeof(gpu::ContactScalars::driftHigh), 0u);
    r.vk().CmdFillBuffer(r.cmd, k.scalars.handle(), offsetof(gpu::ContactScalars, pairStates), sizeof(gpu::ContactScalars::pairStates), 0u);
    r.vk().CmdFillBuffer(r.cmd, k.liveRows.handle(), 0, VK_WHOLE_SIZE, 0u);
    r.vk().CmdFillBuffer(r.cmd, k.cells.handle(), 0, VK_WHOLE_SIZE, 0u);
    if (k.listStale) r.vk().CmdFillBuffer(r.cmd, k.listed.handle(), 0, VK_WHOLE_SIZE, floatBits(INFINITY));
    k.listStale = false;
    engine::barrier::transferToAll(r.vk(), r.cmd);
    // The drift first: the hash and the search that follow stand aside while the list holds.
    pass(*k.hash, WEFT_CONTACT_DRIFT, n, hashBindings);
    pass(*k.hash, WEFT_CONTACT_MEASURE, n, hashBindings);
    pass(*k.hash, WEFT_CONTACT_COUNT, n, hashBindings);
    pass(*k.scan, WEFT_CONTACT_COUNT, WEFT_WORKGROUP_SIZE, hashBindings);  // the buckets' counts into starts
    pass(*k.hash, WEFT_CONTACT_SCATTER, n, hashBindings);
    pass(*k.hash, WEFT_CONTACT_SORT, c.tableSize, hashBindings);
    pass(*k.search, WEFT_CONTACT_SORT, n, searchBindings);  // the search reads no mode
    // The incidence table: the search's counts into starts, each pair into its corners' runs.
    pass(*k.scan, WEFT_CONTACT_INCIDENCE_SCAN, WEFT_WORKGROUP_SIZE, hashBindings);
    pass(*k.incidence, WEFT_CONTACT_INCIDENCE_SCATTER, n, incidenceBindings);
  });
  engine::timed(r.timer, r.cmd, kContactResolvePass, [&] {
    // In every step: each listed pair's cull and state, once, and the live ones handed to their corners.
    std::vector<engine::BufferBinding> pairBindings{{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                                    {WEFT_BIND_CONTACT_START, &k.start},
                                                    {WEFT_BIND_CONTACT_TOPOLOGY, &k.topologyBuffer},
                                                    {WEFT_BIND_CONTACT_SCALARS, &k.scalars},
                                                    {WEFT_BIND_CONTACT_CANDIDATES, &k.candidates},
                                                    {WEFT_BIND_CONTACT_CANDIDATE_COUNTS, &k.candidateCounts},
                                                    {WEFT_BIND_CONTACT_PAIR_LIVE, &k.pairLive},
                                                    {WEFT_BIND_CONTACT_PAIR_STATES, &k.pairStates},
                                                    {WEFT_BIND_CONTACT_PAIR_STATE_BASES, &k.pairStateBases},
                                                    {WEFT_BIND_CONTACT_LIVE_ROWS, &k.liveRows},
                                                    {WEFT_BIND_CONTACT_LIVE_INCIDENCES, &k.liveIncidences},
                                                    {WEFT_BIND_COLLIDERS, &s.colliders},
                                                    {WEFT_BIND_COLLIDER_GRID, &s.colliderGrid},
                                                    {WEFT_BIND_COLLIDER_CELLS, &s.colliderCells}};
    pass(*k.pairs, WEFT_CONTACT_PAIR_CULL, n, pairBindings);
    std::vector<engine::BufferBinding> liveScanBindings = hashBindings;  // the live rows where the incidence rows stand
    for (engine::BufferBinding& b : liveScanBindings)
      if (b.binding == WEFT_BIND_CONTACT_INCIDENCE_ROWS) b.buffer = &k.liveRows;
    pass(*k.scan, WEFT_CONTACT_LIVE_SCAN, WEFT_WORKGROUP_SIZE, liveScanBindings);
    pass(*k.pairs, WEFT_CONTACT_LIVE_SCATTER, n, pairBindings);
    std::vector<engine::BufferBinding> resolveBindings = pairBindings;  // and what the vertex's move takes and writes
    resolveBindings.insert(resolveBindings.end(), {{WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
                                                   {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                                   {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()},
                                                   {WEFT_BIND_CONTACT_MARKS, &k.marks},
                                                   {WEFT_BIND_CONTACT_INCIDENCE_ROWS, &k.incidenceRows},
                                                   {WEFT_BIND_CONTACT_INCIDENCES, &k.incidences},
                                                   {WEFT_BIND_CONTACT_PAIRS, &s.contactPairs},
                                                   {WEFT_BIND_CONTACT_PAIR_COUNTS, &s.contactPairCounts}});
    k.resolve->dispatch(r.cmd, n, resolveBindings, c);
    engine::barrier::computeToCompute(r.vk(), r.cmd);
    s.swapPositions();
    s.swapVelocities();
  });
}

void dropContactColliderKernels(GpuState& state) {
  if (!hasContact(state)) return;
  gpuContact(state).pairs.reset();
  gpuContact(state).resolve.reset();
}

ContactStats readContactStatsGpu(const GpuState& state) {
  if (!hasContact(state)) return {};
  const GpuContact& k = gpuContact(state);
  gpu::ContactScalars scalars{};
  engine::downloadBuffer(*state.context, k.scalars, &scalars, sizeof scalars);
  return contactStats(scalars, k.radius);
}

std::vector<uint32_t> readContactMarksGpu(const GpuState& state) {
  if (!hasContact(state)) return {};
  std::vector<uint32_t> marks(state.particleCount);
  if (!marks.empty()) engine::downloadBuffer(*state.context, gpuContact(state).marks, marks.data(), marks.size() * sizeof(uint32_t));
  return marks;
}

const engine::Buffer* contactMarkBuffer(const GpuState& state) {
  return hasContact(state) ? &gpuContact(state).marks : nullptr;
}

}  // namespace weft
