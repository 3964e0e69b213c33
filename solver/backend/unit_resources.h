#pragma once
// What the backends keep per unit beside the state every integrator shares (cpu/cpu_state.h,
// gpu/gpu_state.h): an integrator's kernels, buffers or derived tables, contact's, a pass's.
#include <cstdint>

namespace weft {

// The resources one integrator unit keeps between steps (solver/integrators/*/): on the GPU its
// kernels and buffers, on the CPU tables it derives from the cloth's. Made on the unit's first use,
// dropped when the cloth's topology changes.
struct UnitResources {
  virtual ~UnitResources() = default;
  // Host memory the resources hold that grows with the cloth (CpuSolver::stateBytes counts it).
  virtual uint64_t hostBytes() const { return 0; }
};

}  // namespace weft
