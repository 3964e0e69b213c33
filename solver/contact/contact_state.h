#pragma once
// What the contact module's files share (solver/contact/ only; the solver sees contact.h): the
// tables and settings each backend keeps (ContactCommon, CpuContact, GpuContact), the pairs as the
// CPU lists them, and the CPU twins of the kernels that its passes call (contact_kernels_cpu.cpp).
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
#include "solver/contact/contact.h"

namespace weft::contact_detail {

using gpu::xyz;

inline uint32_t floatBits(float f) { return std::bit_cast<uint32_t>(f); }
inline float bitsFloat(uint32_t u) { return std::bit_cast<float>(u); }

// Both backends' statistics start from this: no distance yet, no vertex counted.
inline gpu::ContactScalars frameStartScalars() {
  gpu::ContactScalars s{};
  s.minDistanceBits = floatBits(FLT_MAX);
  return s;
}

// The step's parameters on top of the topology's layout.
struct ContactCommon;
inline gpu::ContactParams stepParams(const ContactCommon& k, float dt, uint32_t particles, uint32_t colliders, uint32_t mode,
                              bool collectPairs);

inline float resolvedRadius(const ContactSpec& settings, const ContactTopology& topology) {
  if (settings.radius > 0.f) return settings.radius;
  return std::max(2.f * settings.thickness, 0.5f * topology.meanEdge);
}

// A radius many edges wide puts much of the cloth in every vertex's search: a typo (metres for
// millimetres) would hang the solver quadratically instead of failing.
constexpr float kMaxRadiusInEdges = 100.f;

inline void checkReach(float radius, float meanEdge) {
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

inline void checkThickness(float thickness, float medianEdge) {
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
inline gpu::ContactParams stepParams(const ContactCommon& k, float dt, uint32_t particles, uint32_t colliders, uint32_t mode,
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

inline CpuContact& cpuContact(CpuState& s) { return static_cast<CpuContact&>(*s.contact); }
inline const CpuContact& cpuContact(const CpuState& s) { return static_cast<const CpuContact&>(*s.contact); }
inline GpuContact& gpuContact(GpuState& s) { return static_cast<GpuContact&>(*s.contact); }
inline const GpuContact& gpuContact(const GpuState& s) { return static_cast<const GpuContact&>(*s.contact); }

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

inline ContactStats contactStats(const gpu::ContactScalars& s, float radius) {
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

// contact_hash.comp, WEFT_CONTACT_MEASURE: the spheres of the triangles and edges vertex i owns
// (is the smallest corner of), and its longest edge, which the caller folds into the step's.
float contactMeasure(uint32_t i, CpuContact& k, const gpu::ContactParams& c);

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
                         SearchPending& pending);

// contact_resolve.comp's evaluation of every pair listed by `owner`, once a pair rather than once a
// corner: the pair's geometry (vertexTriangleState, edgeEdgeState) and each corner's share
// (contactCornerShare, with the corner's own friction and a grip of its own), written to the
// corner's place in its incidence run, where contactResolveVertex sums them in the run's order:
// the same arithmetic in the same order as the kernel, which evaluates the pair at each corner.
// `drift`: since the list was made (contactListDrift).
void evaluateListedPairs(uint32_t owner, CpuContact& k, const CpuState& s, const gpu::ContactParams& contact, float drift);

// contact_resolve.comp for vertex i: the shares of the pairs it is a corner of (evaluateListedPairs
// wrote them), summed exactly (ContactSums) as the kernel sums them in whatever order its atomics
// made, `drift` after they were listed (contactListDrift).
VertexOutcome contactResolveVertex(uint32_t i, CpuState& s, const CpuContact& k, const gpu::ContactParams& contact, float drift);

}  // namespace weft::contact_detail
