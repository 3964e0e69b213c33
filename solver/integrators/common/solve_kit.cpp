#include "solver/integrators/common/solve_kit.h"

#include <string>

#include "engine/context.h"

namespace weft::integrators {

SolveKit::SolveKit(const GpuState& state, const engine::ComputeProgram& perParticle, const SolveKitLayout& layout)
    : context_(state.context) {
  scalars = engine::Buffer(*context_, layout.scalarBytes, engine::kStorageUsage,
                           layout.hostVisibleScalars ? engine::MemoryUsage::Readback : engine::MemoryUsage::DeviceLocal,
                           "weft.solveScalars");
  uint32_t x, y;
  perParticle.groupsFor(state.particleCount, x, y);
  partialCount = x * y;
  partials = engine::Buffer(*context_, size_t(layout.partialSlots) * partialCount * sizeof(float),
                            engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, "weft.partials");
  // The live entries start as the full grid too: a pass dispatched before its scalar pass ran
  // covers every particle.
  std::vector<uint32_t> args;
  for (uint32_t e = 0; e <= layout.liveEntries; ++e) args.insert(args.end(), {x, y, 1u});
  indirect = engine::Buffer(*context_, args.size() * sizeof(uint32_t),
                            engine::kStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                            engine::MemoryUsage::DeviceLocal, "weft.indirect");
  engine::uploadBuffer(*context_, indirect, args.data(), args.size() * sizeof(uint32_t));
}

void SolveKit::ensureLog(uint32_t steps) {
  if (steps <= stepLogCapacity_) return;
  context_->vk().DeviceWaitIdle(context_->device());  // a frame in flight may still write the old log
  stepLog = engine::Buffer(*context_, steps * sizeof(gpu::StepLog), engine::kStorageUsage,
                           engine::MemoryUsage::DeviceLocal, "weft.stepLog");
  stepLogCapacity_ = steps;
}

std::vector<SolveStats> SolveKit::readLog(int steps) const {
  std::vector<gpu::StepLog> log(static_cast<size_t>(steps));
  engine::downloadBuffer(*context_, stepLog, log.data(), log.size() * sizeof(gpu::StepLog));
  std::vector<SolveStats> stats;
  for (const gpu::StepLog& entry : log)
    stats.push_back({static_cast<int>(entry.iterations), entry.residual, entry.converged != 0, entry.dt});
  return stats;
}

}  // namespace weft::integrators
