// The CPU twins of the contact kernels: the search, the evaluation of listed pairs and each
// vertex's bounded move, the same arithmetic in the same order as the shaders.
#include "solver/contact/contact_state.h"

namespace weft::contact_detail {

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

}  // namespace weft::contact_detail
