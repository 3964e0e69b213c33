// Contact on the GPU backend: the memory it needs, its buffers and kernels, and the passes a step
// records (no host round trip inside a frame).
#include "solver/contact/contact_state.h"

namespace weft {

using namespace contact_detail;

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
