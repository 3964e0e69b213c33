// Contact on the CPU backend: the frame's and the step's start, the search and the resolve passes
// over both threads, and what contact did.
#include "solver/contact/contact_state.h"

namespace weft {

using namespace contact_detail;

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


ContactStats contactStatsCpu(const CpuState& state) {
  if (!hasContact(state)) return {};
  const CpuContact& k = cpuContact(state);
  return contactStats(k.scalars, k.radius);
}

std::vector<uint32_t> contactMarksCpu(const CpuState& state) {
  return hasContact(state) ? cpuContact(state).marks : std::vector<uint32_t>{};
}

}  // namespace weft
