#pragma once
// The memory a solver's state takes, estimated before anything is allocated, so that a cloth too
// large for the device or the host is refused with a sentence (InputError) rather than crashing
// the driver or paging the host to a halt. Each integrator unit states its own buffers
// (IntegratorUnit::memory) next to the code that makes them; the estimate counts the buffers that
// grow with the cloth, not the few of fixed size (solve scalars, indirect arguments, logs).
#include <cstdint>
#include <string>
#include <vector>

#include "solver/model/cloth_model.h"
#include "solver/model/scene.h"

namespace weft {

// The sizes the solver state is built from: the spring and element tables' entries.
struct StateSize {
  uint64_t particles = 0;
  uint64_t springEntries = 0;  // 2 per spring, at least 1 (the tables keep an unread entry)
  uint64_t elements = 0;       // at least 1 (an inert element when the cloth has none)
  uint64_t elementRefs = 0;    // incidence entries, at least 1
  uint64_t strainLimitEntries = 0;  // springEntries where some spring's limit is projected, else 0
  uint64_t forceBoundEntries = 0;   // springEntries where some spring's force is bounded, else 0
  uint64_t tearEntries = 0;         // springEntries where some spring tears, else 0
  uint64_t gridRestLengths = 0;     // WEFT_GRID_REST_SLOTS per particle for a grid (solver/model/grid_stencil.h), else 0
};
StateSize stateSize(const ClothModel& model);

// A set of buffers (or vectors): their total and the largest of them, bytes.
struct MemoryNeed {
  uint64_t total = 0;
  uint64_t largest = 0;
  void add(uint64_t bytes);
  void add(const MemoryNeed& other);
};

// What one integrator unit adds to the shared state on each backend.
struct UnitMemory {
  uint32_t gpuScratch = 0;  // vec4[N] scratch buffers it asks GpuState::ensureScratch for
  MemoryNeed gpuOwn;        // its own buffers
  MemoryNeed cpu;           // the vectors its CPU loop grows (scratch included)
  // vec4[N] more on each backend (a GPU scratch buffer, a CPU vector) with acceleration "nesterov":
  // each particle's last un-extrapolated Jacobi iterate.
  uint32_t nesterovVectors = 0;
  // What the two-level preconditioner (common/cg/cg_coarse.h) adds on the CPU backend, for a unit
  // that solves with CG: its per-particle, per-entry and per-incidence tables exactly, and an
  // estimate of its coarse level (which grows as about N^(3/4)).
  MemoryNeed cpuTwoLevel;
};

// The state every integrator shares plus one integrator's own, or plus the worst integrator's: a
// solver's integrator may change after it is built (Solver::setParams), so it checks the worst,
// with Nesterov's vectors for the same reason.
MemoryNeed gpuStateNeed(const StateSize& size, Integrator integrator, Acceleration acceleration = Acceleration::Chebyshev);
MemoryNeed cpuStateNeed(const StateSize& size, Integrator integrator, Acceleration acceleration = Acceleration::Chebyshev,
                        Preconditioner preconditioner = Preconditioner::BlockJacobi);
MemoryNeed gpuStateNeed(const StateSize& size);
MemoryNeed cpuStateNeed(const StateSize& size);  // the worst, with the two-level preconditioner

// What bounds the GPU state: the device's largest device-local heap, its largest storage buffer
// and the workgroups one dispatch may have along x and y (ComputeProgram::groupsFor folds).
struct DeviceLimits {
  std::string deviceName;
  uint64_t deviceMemory = 0;
  uint64_t maxStorageBufferRange = 0;
  uint32_t maxGroupsX = 0, maxGroupsY = 0;
};

// InputError, one sentence naming the size asked for and the limit, when the state does not fit.
// `what` names the cloth ("a 4096 x 4096 cloth", "a cloth of 70000 particles").
void checkGpuFits(const MemoryNeed& need, uint64_t particles, const DeviceLimits& limits, const std::string& what);
void checkHostFits(const MemoryNeed& need, uint64_t available, const std::string& what);

// "a W x H cloth" for a grid, else "a cloth of N particles".
std::string describeCloth(const ClothModel& model);

}  // namespace weft
