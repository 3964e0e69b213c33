#include "solver/gpu/gpu_solver.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/commands.h"
#include "engine/error.h"
#include "solver/contact/contact.h"
#include "solver/integrators/integrator_unit.h"
#include "solver/passes/handles.h"
#include "solver/backend/memory_budget.h"
#include "solver/passes/strain_limit.h"
#include "solver/passes/tear_detection.h"

namespace weft {
namespace {

// What the GPU backend refuses of a solver's parameters whatever its state.
void checkGpuParams(const SolverParams& params) {
  if (solvesWithCg(params.integrator) && params.preconditioner == Preconditioner::TwoLevel)
    throw InputError(std::string("the two-level preconditioner runs on the CPU backend only (") +
                     integratorName(params.integrator) +
                     " on the GPU backend solves with block-jacobi): use --backend cpu, or \"preconditioner\": \"block-jacobi\"");
}

engine::Buffer storage(const engine::Context& context, size_t bytes, const std::string& name) {
  return engine::Buffer(context, bytes, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, name);
}
// The largest device-local heap is where storage buffers go (Buffer asks for DEVICE_LOCAL). Its
// size, not a budget: the context enables no VK_EXT_memory_budget, and a device's other users are
// unknown to weft anyway.
DeviceLimits deviceLimits(const engine::Context& context) {
  DeviceLimits limits;
  limits.deviceName = context.deviceName();
  const VkPhysicalDeviceMemoryProperties& memory = context.memoryProperties();
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i)
    if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      limits.deviceMemory = std::max<uint64_t>(limits.deviceMemory, memory.memoryHeaps[i].size);
  const VkPhysicalDeviceLimits& device = context.properties().limits;
  limits.maxStorageBufferRange = device.maxStorageBufferRange;
  limits.maxGroupsX = device.maxComputeWorkGroupCount[0];
  limits.maxGroupsY = device.maxComputeWorkGroupCount[1];
  return limits;
}
template <class T>
void upload(const engine::Context& context, const engine::Buffer& buffer, const std::vector<T>& data) {
  engine::uploadBuffer(context, buffer, data.data(), data.size() * sizeof(T));
}
}  // namespace

GpuSolver::GpuSolver(const ClothModel& model, const SolverParams& params, engine::Context& context,
                     const engine::ShaderLibrary& shaders)
    : context_(context) {
  checkGpuParams(params);
  params_ = params;
  state_.context = &context;
  state_.shaders = &shaders;
  loadTables(model);
  writeState(packPositions(model), packVelocities(model));
  keepModelForTearing(model);
  noteTetherAnchors(model);
  kinematics_ = Kinematics(params_.colliders, params_.handles, model.positions);
  prepareKinematicsGpu(state_, kinematics_);
  onParamsChanged();
}

void GpuSolver::loadTables(const ClothModel& model) {
  // Before any allocation: a driver out of memory may crash rather than return an error.
  MemoryNeed need = gpuStateNeed(stateSize(model));
  const DeviceLimits limits = deviceLimits(context_);
  const uint32_t candidateSlots = contactCandidateSlots(model.particleCount(), limits.maxStorageBufferRange);
  const uint32_t pairStates = contactPairStateCapacity(model.particleCount(), limits.maxStorageBufferRange);
  if (params_.contact.enabled)
    need.add(contactMemoryNeed(model.particleCount(), model.triangles.size(), candidateSlots, pairStates));
  checkGpuFits(need, model.particleCount(), limits, describeCloth(model));
  const engine::Context& context = context_;
  particleCount_ = model.particleCount();
  const size_t n = model.particleCount();
  const size_t vec4Bytes = n * sizeof(glm::vec4);
  SpringTable table = buildSpringTable(model);
  for (int k = 0; k < 2; ++k) {
    state_.positions[k] = storage(context, vec4Bytes, "weft.positions" + std::to_string(k));
    state_.velocities[k] = storage(context, vec4Bytes, "weft.velocities" + std::to_string(k));
  }
  state_.currentPositions = state_.currentVelocities = 0;
  state_.prevPositions = storage(context, vec4Bytes, "weft.prevPositions");
  state_.springRows = storage(context, table.rows.size() * sizeof(uint32_t), "weft.springRows");
  state_.springs = storage(context, table.entries.size() * sizeof(gpu::SpringEntry), "weft.springs");
  state_.particleCount = static_cast<uint32_t>(n);
  upload(context, state_.springRows, table.rows);
  upload(context, state_.springs, table.entries);
  state_.springLinks = storage(context, table.links.size() * sizeof(gpu::SpringLink), "weft.springLinks");
  upload(context, state_.springLinks, table.links);
  state_.strainLimits = {};
  state_.strainExcessSums = {};
  if (!table.strainLimits.empty()) {
    state_.strainLimits = storage(context, table.strainLimits.size() * sizeof(gpu::StrainLimit), "weft.strainLimits");
    upload(context, state_.strainLimits, table.strainLimits);
    state_.strainExcessSums = storage(context, n * sizeof(float), "weft.strainExcessSums");
  }
  state_.tearLimits = {};
  state_.tearList = {};
  if (!table.tearLimits.empty()) {  // room for every spring in the list: a count, then indices
    state_.tearLimits = storage(context, table.tearLimits.size() * sizeof(gpu::TearLimit), "weft.tearLimits");
    upload(context, state_.tearLimits, table.tearLimits);
    state_.tearList = storage(context, (1 + model.springs.size()) * sizeof(uint32_t), "weft.tearList");
  }
  {  // a one-entry placeholder, shorter than the spring table, says "no bounds" to springBound()
    const std::vector<gpu::StrainLimit> bounds =
        table.forceBounds.empty() ? std::vector<gpu::StrainLimit>{{0.f, 0.f}} : table.forceBounds;
    state_.springBounds = storage(context, bounds.size() * sizeof(gpu::StrainLimit), "weft.springBounds");
    upload(context, state_.springBounds, bounds);
  }
  {  // a grid's springs found from the index; for any other cloth a stencil of width 0 and one rest length
    state_.gridStencil = storage(context, sizeof(gpu::GridStencil), "weft.gridStencil");
    upload(context, state_.gridStencil, std::vector<gpu::GridStencil>{table.grid.stencil});
    const std::vector<float> rest = table.grid.restLengths.empty() ? std::vector<float>{0.f} : table.grid.restLengths;
    state_.gridRestLengths = storage(context, rest.size() * sizeof(float), "weft.gridRestLengths");
    upload(context, state_.gridRestLengths, rest);
    state_.hasGridStencil = table.grid.stencil.width != 0;
  }
  ElementTable elements = buildElementTable(model);
  state_.elements = storage(context, elements.elements.size() * sizeof(gpu::Element), "weft.elements");
  state_.elementRows = storage(context, elements.rows.size() * sizeof(uint32_t), "weft.elementRows");
  state_.elementRefs = storage(context, elements.refs.size() * sizeof(uint32_t), "weft.elementRefs");
  upload(context, state_.elements, elements.elements);
  upload(context, state_.elementRows, elements.rows);
  upload(context, state_.elementRefs, elements.refs);
  state_.elementRefCount = elements.rows.back();
  state_.elementKinds = elements.kinds | (params_.contact.enabled ? WEFT_ELEMENT_KIND_BIT(WEFT_ELEMENT_CONTACT) : 0u);
  state_.hostSprings = std::make_shared<const SpringTable>(std::move(table));
  state_.hostElements = std::make_shared<const ElementTable>(std::move(elements));
  prepareContactGpu(state_, model, params_.contact, candidateSlots, pairStates);
  {  // zero counts: no pair is kept before contact's first pass
    const size_t n = params_.contact.enabled ? model.particleCount() : 0;
    state_.contactPairs = storage(context, std::max<size_t>(16, n * WEFT_CONTACT_PAIR_SLOTS * sizeof(gpu::Element)), "weft.contactPairs");
    state_.contactPairCounts = storage(context, std::max<size_t>(16, n * sizeof(uint32_t)), "weft.contactPairCounts");
    upload(context, state_.contactPairCounts, std::vector<uint32_t>(std::max<size_t>(4, n), 0u));
  }
  // Everything sized by the particle or spring count is made again on first use.
  state_.scratch.clear();
  for (auto& unit : state_.units) unit.reset();
}

std::vector<uint32_t> GpuSolver::detectTears() {
  if (!hasTearing(state_)) return {};
  return readTearList(state_);
}

void GpuSolver::reloadTopology(const ClothModel& model, const std::vector<glm::vec4>& positions,
                               const std::vector<glm::vec4>& velocities) {
  context_.vk().DeviceWaitIdle(context_.device());  // the old tables may still be read by a frame in flight
  loadTables(model);
  writeState(positions, velocities);
}

GpuSolver::~GpuSolver() = default;

std::string GpuState::kernel(const char* file) const {
  return elementRefCount == 0 && !contact ? std::string(file) + engine::kNoElementsVariant : std::string(file);
}

std::string GpuState::springKernel(const char* file) const {
  return kernel(file) + (hasGridStencil ? engine::kGridStencilVariant : "");
}

engine::ComputeProgram GpuState::program(const std::string& name) const {
  return engine::ComputeProgram(*context, *shaders, name, specialization());
}

LastPassCollides GpuState::lastPassCollides(const std::string& name) const {
  return {engine::ComputeProgram(*context, *shaders, name, specialization(false)),
          engine::ComputeProgram(*context, *shaders, name, specialization())};
}

std::vector<engine::BufferBinding> GpuState::withTables(std::initializer_list<engine::BufferBinding> own) const {
  std::vector<engine::BufferBinding> bindings(own);
  bindings.insert(bindings.end(), {{WEFT_BIND_SPRING_ROWS, &springRows},
                                   {WEFT_BIND_SPRINGS, &springs},
                                   {WEFT_BIND_SPRING_LINKS, &springLinks},
                                   {WEFT_BIND_SPRING_BOUNDS, &springBounds},
                                   {WEFT_BIND_GRID_STENCIL, &gridStencil},
                                   {WEFT_BIND_GRID_REST_LENGTHS, &gridRestLengths},
                                   {WEFT_BIND_ELEMENTS, &elements},
                                   {WEFT_BIND_ELEMENT_ROWS, &elementRows},
                                   {WEFT_BIND_ELEMENT_REFS, &elementRefs},
                                   {WEFT_BIND_CONTACT_PAIRS, &contactPairs},
                                   {WEFT_BIND_CONTACT_PAIR_COUNTS, &contactPairCounts},
                                   {WEFT_BIND_COLLIDERS, &colliders},
                                   {WEFT_BIND_COLLIDER_GRID, &colliderGrid},
                                   {WEFT_BIND_COLLIDER_CELLS, &colliderCells}});
  return bindings;
}

void GpuState::ensureScratch(size_t count) {
  while (scratch.size() < count)
    scratch.push_back(storage(*context, particleCount * sizeof(glm::vec4), "weft.scratch" + std::to_string(scratch.size())));
}

void GpuSolver::onParamsChanged() {
  std::vector<gpu::Collider> colliders = packColliders(kinematics_.collidersNow());
  size_t bytes = std::max<size_t>(1, colliders.size()) * sizeof(gpu::Collider);
  if (!state_.colliders || state_.colliders.size() < bytes) {
    context_.vk().DeviceWaitIdle(context_.device());  // the old buffer may still be read by a frame in flight
    state_.colliders = storage(context_, bytes, "weft.colliders");
  }
  upload(context_, state_.colliders, colliders);
  state_.colliderCount = static_cast<uint32_t>(colliders.size());
  // The kernels are built for the collider kinds and for contact: where either changes they are
  // dropped, to be built again on first use, once no frame in flight still reads the units' buffers.
  auto dropBuiltKernels = [&] {
    context_.vk().DeviceWaitIdle(context_.device());
    for (auto& unit : state_.units) unit.reset();
    state_.strainLimitPrograms.reset();
    dropContactColliderKernels(state_);
  };
  const uint32_t kinds = colliderKindBits(colliders, params_.colliderGrid);
  if (kinds != state_.colliderKinds) {
    dropBuiltKernels();
    state_.colliderKinds = kinds;
  }
  uploadColliderGrid(state_, params_.colliderGrid ? buildColliderGrid({&colliders}, kColliderGridStaticStep)
                                                 : ColliderGridData{});
  if (hasContact(state_) && !params_.contact.enabled) {
    // Contact's buffers go (a frame in flight may still read them), and with them the kernels built
    // for contact (their variant and element kinds, GpuState::kernel and elementKinds): built again,
    // a cloth whose contact was turned off runs the kernels of one made without it.
    dropBuiltKernels();
    state_.elementKinds = state_.hostElements->kinds;
  }
  applyContactSettings(state_.contact, params_.contact);
}


void GpuSolver::checkParams(const SolverParams& params) const {
  checkContactSettings(state_.contact, params.contact);
  checkGpuParams(params);
}

ContactStats GpuSolver::lastContactStats() const { return readContactStatsGpu(state_); }

std::vector<uint32_t> GpuSolver::lastContactMarks() const { return readContactMarksGpu(state_); }

const engine::Buffer* GpuSolver::contactMarkBuffer() const { return weft::contactMarkBuffer(state_); }

void GpuSolver::setHandle(uint32_t index, glm::vec3 target) {
  checkHandle(index, target);
  if (handle_ && *handle_ != index) clearHandle();
  if (!handle_) {
    // One 16-byte readback per grab, never per frame: the inverse mass to restore on release.
    glm::vec4 p;
    engine::downloadBuffer(context_, state_.positionsIn(), &p, sizeof p, size_t(index) * sizeof p);
    handleInvMass_ = p.w;
    handle_ = index;
  }
  handleTarget_ = target;
  handleMoved_ = true;
}

void GpuSolver::clearHandle() {
  if (!handle_) return;
  releases_.emplace_back(*handle_, handleInvMass_);
  handle_.reset();
  handleMoved_ = false;
}

void GpuSolver::recordHandle(VkCommandBuffer cmd) {
  if (!handleMoved_ && releases_.empty()) return;
  const engine::VulkanApi& vk = context_.vk();
  engine::barrier::allToUpload(vk, cmd);  // earlier passes and draws read and wrote these particles
  for (auto [index, invMass] : releases_)  // only w: the particle stays where the drag left it
    vk.CmdUpdateBuffer(cmd, state_.positionsIn().handle(), VkDeviceSize(index) * sizeof(glm::vec4) + 12,
                       sizeof(float), &invMass);
  releases_.clear();
  if (handle_ && handleMoved_) {
    const glm::vec4 position(handleTarget_, 0.f), velocity(0.f);
    const VkDeviceSize offset = VkDeviceSize(*handle_) * sizeof(glm::vec4);
    vk.CmdUpdateBuffer(cmd, state_.positionsIn().handle(), offset, sizeof position, &position);
    vk.CmdUpdateBuffer(cmd, state_.velocitiesIn().handle(), offset, sizeof velocity, &velocity);
  }
  handleMoved_ = false;
  engine::barrier::transferToAll(vk, cmd);
}

void GpuSolver::recordAdvance(VkCommandBuffer cmd, float frameDt, int substeps, engine::GpuTimer* timer) {
  const integrators::IntegratorUnit& unit = integrators::integratorUnit(params_.integrator);
  if (!unit.recordsFrames())
    throw std::logic_error(std::string(integratorName(params_.integrator)) +
                           " decides on the host after every step, so it cannot record a frame into one command "
                           "buffer: use advance()");
  // Before anything is recorded: a path that would carry a collider through the cloth is refused here.
  std::vector<KinematicStep> plan =
      kinematics_.active() ? kinematics_.planFrame(frameDt, substeps, params_.colliderGrid) : std::vector<KinematicStep>{};
  reserveColliderGrid(state_, plan, recordingOwnFrame_);
  recordHandle(cmd);
  prepare(substeps);  // nothing to do when the caller prepared
  const gpu::StepParams step = stepParams(frameDt, substeps);
  const bool limited = hasStrainLimit(state_), contact = hasContact(state_);
  GpuRecorder recorder{cmd, state_, timer};
  if (contact) recordContactFrameStart(recorder);
  for (int s = 0; s < substeps; ++s) {  // the kinematics before every step, the strain limit and contact after
    if (contact) recordContactStepStart(recorder);
    if (!plan.empty()) recordKinematicStep(recorder, plan[static_cast<size_t>(s)]);
    unit.recordStep(recorder, params_, step, static_cast<uint32_t>(s));
    if (limited) recordStrainLimit(recorder, step, params_.strainLimitIterations);
    if (contact) recordContactResolve(recorder, step.dt, step.contactPairs != 0u);
  }
  if (hasTearing(state_)) recordTearDetection(recorder, step);
  kinematics_.finishFrame(frameDt);
}

void GpuSolver::prepare(int substeps) {
  integrators::integratorUnit(params_.integrator).prepareGpu(state_, params_, substeps);
  if (hasStrainLimit(state_)) prepareStrainLimitGpu(state_);
  if (hasTearing(state_)) prepareTearDetectionGpu(state_);
  prepareKinematicsGpu(state_, kinematics_);
}

gpu::StepParams GpuSolver::stepParams(float frameDt, int substeps) const {
  return makeStepParams(params_, frameDt / static_cast<float>(substeps), state_.particleCount, state_.colliderCount,
                        state_.elementRefCount);
}

void GpuSolver::submitTimed(const std::function<void(VkCommandBuffer)>& record) {
  engine::submitAndWait(context_, [&](VkCommandBuffer cmd) {
    timer_.reset(cmd);
    record(cmd);
  });
  for (const auto& [name, ms] : timer_.read()) {
    const std::string& pass = name;  // a lambda may not capture a structured binding before Clang 16
    auto it = std::find_if(passTimes_.begin(), passTimes_.end(), [&](auto& p) { return p.first == pass; });
    if (it == passTimes_.end()) passTimes_.emplace_back(name, ms);
    else it->second += ms;
  }
}

// A recorded frame is one submission; a unit that submits its own frames (to stop a solve at
// convergence, or to retry a step) gets the handle's update in a submission of its own first.
void GpuSolver::advance(float frameDt, int substeps) {
  const integrators::IntegratorUnit& unit = integrators::integratorUnit(params_.integrator);
  const uint32_t submittedSteps = unit.submitsOwnFrames() ? 1u : static_cast<uint32_t>(substeps);
  const bool limited = hasStrainLimit(state_), contact = hasContact(state_);
  // contact: kContactFindPass and kContactResolvePass
  const uint32_t passes = (unit.timedPassesPerStep(params_) + (limited ? 1u : 0u) + (contact ? 2u : 0u)) * submittedSteps +
                          (hasTearing(state_) ? 1u : 0u);
  if (passes > timerCapacity_) {
    timer_ = engine::GpuTimer(context_, passes);
    timerCapacity_ = passes;
  }
  passTimes_.clear();
  if (unit.submitsOwnFrames()) {
    const bool moving = kinematics_.active();
    std::vector<KinematicStep> plan =
        moving ? kinematics_.planFrame(frameDt, substeps, params_.colliderGrid) : std::vector<KinematicStep>{};
    reserveColliderGrid(state_, plan, true);
    engine::submitAndWait(context_, [&](VkCommandBuffer cmd) { recordHandle(cmd); });
    unit.prepareGpu(state_, params_, substeps);
    integrators::GpuFrame frame{state_, &timer_, [this](const auto& record) { submitTimed(record); }};
    const gpu::StepParams step = stepParams(frameDt, substeps);
    if (!limited && !contact && !moving) {
      solveStats_ = unit.advanceGpu(frame, params_, step, frameDt, substeps);
    } else {
      // As on the CPU: one step of the unit at a time (its own submissions), the kinematics before it
      // and the strain limit and contact after it, each in a submission of their own.
      if (limited) prepareStrainLimitGpu(state_);
      solveStats_.clear();
      for (int s = 0; s < substeps; ++s) {
        if (contact || moving)
          submitTimed([&](VkCommandBuffer cmd) {
            GpuRecorder recorder{cmd, state_, &timer_};
            if (contact && s == 0) recordContactFrameStart(recorder);
            if (contact) recordContactStepStart(recorder);
            if (moving) recordKinematicStep(recorder, plan[static_cast<size_t>(s)]);
          });
        const std::vector<SolveStats> stats = unit.advanceGpu(frame, params_, step, step.dt, 1);
        solveStats_.insert(solveStats_.end(), stats.begin(), stats.end());
        if (limited || contact)
          submitTimed([&](VkCommandBuffer cmd) {
            GpuRecorder recorder{cmd, state_, &timer_};
            if (limited) recordStrainLimit(recorder, step, params_.strainLimitIterations);
            if (contact) recordContactResolve(recorder, step.dt, step.contactPairs != 0u);
          });
      }
    }
    kinematics_.finishFrame(frameDt);
    if (hasTearing(state_)) {
      prepareTearDetectionGpu(state_);
      submitTimed([&](VkCommandBuffer cmd) {
        GpuRecorder recorder{cmd, state_, &timer_};
        recordTearDetection(recorder, step);
      });
    }
  } else {
    unit.prepareGpu(state_, params_, substeps);
    if (hasTearing(state_)) prepareTearDetectionGpu(state_);
    recordingOwnFrame_ = true;  // the grid's buffer may grow: every earlier submission of ours is done
    try {
      submitTimed([&](VkCommandBuffer cmd) { recordAdvance(cmd, frameDt, substeps, &timer_); });
    } catch (...) {
      recordingOwnFrame_ = false;
      throw;
    }
    recordingOwnFrame_ = false;
    solveStats_ = unit.readFrameStats(state_, substeps);
  }
  if (tears()) applyTears(detectTears());
}

void GpuSolver::readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const {
  positions.resize(particleCount_);
  velocities.resize(particleCount_);
  engine::downloadBuffer(context_, state_.positionsIn(), positions.data(), particleCount_ * sizeof(glm::vec4));
  engine::downloadBuffer(context_, state_.velocitiesIn(), velocities.data(), particleCount_ * sizeof(glm::vec4));
}

void GpuSolver::writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) {
  checkWrittenState(positions, velocities);
  upload(context_, state_.positionsIn(), positions);
  upload(context_, state_.velocitiesIn(), velocities);
  if (hasContact(state_))  // the pairs kept were found about the positions that were
    upload(context_, state_.contactPairCounts, std::vector<uint32_t>(state_.particleCount, 0u));
  integrators::integratorUnit(params_.integrator).stateWritten(state_);
}

}  // namespace weft
