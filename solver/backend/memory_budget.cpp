#include "solver/backend/memory_budget.h"

#include <algorithm>

#include "engine/error.h"
#include "shaders/shared.h"
#include "solver/model/host_memory.h"
#include "solver/integrators/integrator_unit.h"

namespace weft {

StateSize stateSize(const ClothModel& model) {
  StateSize size;
  size.particles = model.particleCount();
  size.springEntries = std::max<uint64_t>(1, 2 * uint64_t(model.springs.size()));
  size.elements = std::max<uint64_t>(1, model.elements.size());
  uint64_t refs = 0;  // tethers are listed at their free end only (buildElementTable)
  for (const gpu::Element& e : model.elements)
    refs += e.kind == WEFT_ELEMENT_TETHER ? 1 : elementNodeCount(e.kind);
  size.elementRefs = std::max<uint64_t>(1, refs);
  if (std::any_of(model.springs.begin(), model.springs.end(), projectsStrain)) size.strainLimitEntries = size.springEntries;
  if (std::any_of(model.springs.begin(), model.springs.end(), boundsStrainForce)) size.forceBoundEntries = size.springEntries;
  if (std::any_of(model.springs.begin(), model.springs.end(), [](const Spring& s) { return s.tearStrain() > 0.f; }))
    size.tearEntries = size.springEntries;
  // A grid's rest lengths beside its stencil (findGridSprings): where it has seed 004's springs, as
  // many as buildGrid makes, and its material leaves their forces unbounded. (One whose springs were
  // edited, not added or removed, reads its table instead, and the estimate keeps the slack.)
  const uint64_t w = model.gridWidth, h = model.gridHeight;
  const uint64_t gridSprings = w == 0 || h == 0 ? 0
                               : w * (h - 1) + (w - 1) * h + 2 * (w - 1) * (h - 1) +
                                     (w > 2 ? (w - 2) * h : 0) + (h > 2 ? w * (h - 2) : 0);
  if (gridSprings != 0 && model.springs.size() == gridSprings && size.forceBoundEntries == 0)
    size.gridRestLengths = size.particles * WEFT_GRID_REST_SLOTS;
  return size;
}

void MemoryNeed::add(uint64_t bytes) {
  total += bytes;
  largest = std::max(largest, bytes);
}

void MemoryNeed::add(const MemoryNeed& other) {
  total += other.total;
  largest = std::max(largest, other.largest);
}

namespace {
constexpr uint64_t kVec4 = sizeof(glm::vec4);

// The constructors' state, the same on both backends: the ping-pong positions and velocities,
// Verlet's previous positions, the spring table, the element table and the strain limits' tables.
MemoryNeed sharedState(const StateSize& size) {
  MemoryNeed need;
  for (int k = 0; k < 5; ++k) need.add(size.particles * kVec4);
  need.add((size.particles + 1) * sizeof(uint32_t));
  need.add(size.springEntries * sizeof(gpu::SpringEntry));
  need.add(size.springEntries * sizeof(gpu::SpringLink));
  need.add(size.elements * sizeof(gpu::Element));
  need.add((size.particles + 1) * sizeof(uint32_t));
  need.add(size.elementRefs * sizeof(uint32_t));
  if (size.strainLimitEntries > 0) {  // solver/passes/strain_limit.h: the limits and the per-particle counts
    need.add(size.strainLimitEntries * sizeof(gpu::StrainLimit));
    need.add(size.particles * sizeof(float));
  }
  if (size.tearEntries > 0) {  // solver/passes/tear_detection.h: the breaking lengths and the list
    need.add(size.tearEntries * sizeof(gpu::TearLimit));
    need.add((1 + size.tearEntries / 2) * sizeof(uint32_t));
  }
  // The force bounds (the GPU's one-entry placeholder without them is within its estimate's slack).
  if (size.forceBoundEntries > 0) need.add(size.forceBoundEntries * sizeof(gpu::StrainLimit));
  if (size.gridRestLengths > 0) need.add(size.gridRestLengths * sizeof(float));
  return need;
}

uint32_t nesterovVectors(const UnitMemory& unit, Acceleration acceleration) {
  return acceleration == Acceleration::Nesterov ? unit.nesterovVectors : 0;
}

MemoryNeed gpuUnit(const StateSize& size, Integrator integrator, Acceleration acceleration) {
  const UnitMemory unit = integrators::integratorUnit(integrator).memory(size);
  MemoryNeed need = unit.gpuOwn;
  const uint32_t scratch = unit.gpuScratch + nesterovVectors(unit, acceleration);
  for (uint32_t k = 0; k < scratch; ++k) need.add(size.particles * kVec4);
  return need;
}

MemoryNeed cpuUnit(const StateSize& size, Integrator integrator, Acceleration acceleration, Preconditioner preconditioner) {
  const UnitMemory unit = integrators::integratorUnit(integrator).memory(size);
  MemoryNeed need = unit.cpu;
  for (uint32_t k = 0; k < nesterovVectors(unit, acceleration); ++k) need.add(size.particles * kVec4);
  if (preconditioner == Preconditioner::TwoLevel) need.add(unit.cpuTwoLevel);
  return need;
}
MemoryNeed worstCpuUnit(const StateSize& size, Integrator integrator, Acceleration acceleration) {
  return cpuUnit(size, integrator, acceleration, Preconditioner::TwoLevel);
}

template <class Unit>
MemoryNeed withWorstUnit(const StateSize& size, Unit unit) {
  MemoryNeed worst;
  for (size_t i = 0; i < kIntegratorCount; ++i) {
    const MemoryNeed need = unit(size, static_cast<Integrator>(i), Acceleration::Nesterov);
    if (need.total > worst.total) worst = need;
  }
  MemoryNeed need = sharedState(size);
  need.add(worst);
  return need;
}
}  // namespace

MemoryNeed gpuStateNeed(const StateSize& size, Integrator integrator, Acceleration acceleration) {
  MemoryNeed need = sharedState(size);
  need.add(gpuUnit(size, integrator, acceleration));
  return need;
}

MemoryNeed cpuStateNeed(const StateSize& size, Integrator integrator, Acceleration acceleration,
                        Preconditioner preconditioner) {
  MemoryNeed need = sharedState(size);
  need.add(cpuUnit(size, integrator, acceleration, preconditioner));
  return need;
}

MemoryNeed gpuStateNeed(const StateSize& size) { return withWorstUnit(size, gpuUnit); }
MemoryNeed cpuStateNeed(const StateSize& size) { return withWorstUnit(size, worstCpuUnit); }

void checkGpuFits(const MemoryNeed& need, uint64_t particles, const DeviceLimits& limits, const std::string& what) {
  if (need.total > limits.deviceMemory || need.largest > limits.maxStorageBufferRange)
    throw InputError(what + " needs " + formatBytes(need.total) + " of device memory (its largest buffer " +
                     formatBytes(need.largest) + "); the device '" + limits.deviceName + "' has " +
                     formatBytes(limits.deviceMemory) + " (maxStorageBufferRange " +
                     formatBytes(limits.maxStorageBufferRange) + ")");
  // Per-particle passes dispatch a workgroup per WEFT_WORKGROUP_SIZE particles, folded into rows
  // of at most maxGroupsX (ComputeProgram::groupsFor).
  const uint64_t groups = (particles + WEFT_WORKGROUP_SIZE - 1) / WEFT_WORKGROUP_SIZE;
  if (groups > uint64_t(limits.maxGroupsX) * limits.maxGroupsY)
    throw InputError(what + " needs " + std::to_string(groups) + " workgroups per pass; the device '" +
                     limits.deviceName + "' dispatches at most " + std::to_string(limits.maxGroupsX) + " x " +
                     std::to_string(limits.maxGroupsY) + " (maxComputeWorkGroupCount)");
}

void checkHostFits(const MemoryNeed& need, uint64_t available, const std::string& what) {
  requireHostMemory(need.total, available, what, "the CPU backend's state");
}

std::string describeCloth(const ClothModel& model) {
  if (model.gridWidth && uint64_t(model.gridWidth) * model.gridHeight == model.particleCount())
    return "a " + std::to_string(model.gridWidth) + " x " + std::to_string(model.gridHeight) + " cloth";
  return "a cloth of " + std::to_string(model.particleCount()) + " particles";
}

}  // namespace weft
