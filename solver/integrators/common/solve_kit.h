#pragma once
// The plumbing every iterative GPU solve shares (implicit-cg, newton-chebyshev, nonlinear-cg):
// - its scalar state, in a device buffer that only a one-workgroup scalar pass updates, so no
//   iteration waits on the host;
// - per-workgroup partial sums, which per-particle passes write and the scalar pass reduces;
// - indirect dispatch arguments, which the scalar pass rewrites: zero groups once a solve has
//   stopped, so the rest of a step's recorded iterations cost an empty dispatch each. The full
//   grid's group counts sit last, after `liveEntries` entries the passes dispatch from;
// - the log of each step (gpu::StepLog), read back once a frame.
#include <span>
#include <vector>

#include "engine/commands.h"
#include "solver/backend/backend_state.h"

namespace weft::integrators {

struct SolveKitLayout {
  size_t scalarBytes;        // the solve's scalar struct
  uint32_t partialSlots;     // partial sums per workgroup (several reductions at once)
  uint32_t liveEntries;      // indirect entries the scalar pass writes, before the full grid's
  bool hostVisibleScalars;   // the host reads the scalars between submissions
};

class SolveKit {
 public:
  // `perParticle` is any of the solve's per-particle kernels: its workgroup layout sizes the
  // partial sums and the full grid's indirect entry.
  SolveKit(const GpuState& state, const engine::ComputeProgram& perParticle, const SolveKitLayout& layout);

  // The partial sums' bytes for a cloth of `particles` (the rest of the kit is a few bytes).
  static uint64_t partialBytes(uint64_t particles, uint32_t partialSlots) {
    return uint64_t(partialSlots) * ((particles + WEFT_WORKGROUP_SIZE - 1) / WEFT_WORKGROUP_SIZE) * sizeof(float);
  }

  // Room for `steps` log entries; a larger frame waits for the device before replacing the log.
  void ensureLog(uint32_t steps);
  // The SolveStats of the first `steps` log entries.
  std::vector<SolveStats> readLog(int steps) const;

  // A one-workgroup scalar pass, then the barrier that lets indirect dispatches read what it wrote.
  template <class Push>
  void scalarPass(VkCommandBuffer cmd, const engine::ComputeProgram& program,
                  std::span<const engine::BufferBinding> bindings, const Push& push) const {
    program.dispatch(cmd, 1, bindings, push);
    engine::barrier::computeToIndirect(context_->vk(), cmd);
  }
  // A per-particle pass with the group counts at `word` of the indirect arguments (a multiple of
  // 3, as the shaders' WEFT_*_GROUPS_* name them), then a compute barrier.
  template <class Push>
  void indirectPass(VkCommandBuffer cmd, const engine::ComputeProgram& program, uint32_t word,
                    std::span<const engine::BufferBinding> bindings, const Push& push) const {
    program.dispatchIndirect(cmd, indirect, VkDeviceSize(word) * sizeof(uint32_t), bindings, push);
    engine::barrier::computeToCompute(context_->vk(), cmd);
  }

  engine::Buffer scalars, partials, indirect, stepLog;
  uint32_t partialCount = 0;  // workgroups of a full per-particle pass

 private:
  const engine::Context* context_;
  uint32_t stepLogCapacity_ = 0;
};

}  // namespace weft::integrators
