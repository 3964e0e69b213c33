#include "solver/passes/handles.h"

#include <algorithm>

#include "engine/commands.h"
#include "shaders/physics.h"

namespace weft {

using gpu::xyz;

void applyKinematicStepCpu(CpuState& state, const Kinematics& kinematics, const KinematicStep& step) {
  if (!step.colliders.empty()) state.colliders = step.colliders;
  if (step.colliderGrid) state.colliderGrid = *step.colliderGrid;
  for (const gpu::HandleVertex& carried : kinematics.handleVertices()) {  // handle_move.comp
    state.positions[carried.particle] = glm::vec4(gpu::handleTarget(step.handlePoses[carried.handle], xyz(carried.rest)), 0.f);
    state.velocities[carried.particle] = glm::vec4(0.f);
  }
}

namespace {

struct KinematicResources : UnitResources {
  engine::Buffer vertices, poses;
  uint32_t vertexCount = 0;
  engine::ComputeProgram program;
};

// vkCmdUpdateBuffer takes at most 64 KiB at a time.
template <class T>
void updateBuffer(const engine::VulkanApi& vk, VkCommandBuffer cmd, const engine::Buffer& buffer, const std::vector<T>& data) {
  constexpr size_t kChunk = 65536;
  const size_t bytes = data.size() * sizeof(T);
  const auto* source = reinterpret_cast<const uint8_t*>(data.data());
  for (size_t at = 0; at < bytes; at += kChunk)
    vk.CmdUpdateBuffer(cmd, buffer.handle(), at, std::min(kChunk, bytes - at), source + at);
}

}  // namespace

void prepareKinematicsGpu(GpuState& state, const Kinematics& kinematics) {
  if (state.kinematics || !kinematics.hasHandles()) return;
  auto resources = std::make_unique<KinematicResources>();
  const std::vector<gpu::HandleVertex>& vertices = kinematics.handleVertices();
  resources->vertexCount = static_cast<uint32_t>(vertices.size());
  resources->vertices = engine::Buffer(*state.context, vertices.size() * sizeof(gpu::HandleVertex), engine::kStorageUsage,
                                       engine::MemoryUsage::DeviceLocal, "weft.handleVertices");
  engine::uploadBuffer(*state.context, resources->vertices, vertices.data(), vertices.size() * sizeof(gpu::HandleVertex));
  resources->poses = engine::Buffer(*state.context, kinematics.handleCount() * sizeof(gpu::HandlePose), engine::kStorageUsage,
                                    engine::MemoryUsage::DeviceLocal, "weft.handlePoses");
  resources->program = engine::ComputeProgram(*state.context, *state.shaders, "handle_move.comp");
  state.kinematics = std::move(resources);
}

void uploadColliderGrid(GpuState& state, const ColliderGridData& grid) {
  const size_t bytes = grid.cells.size() * sizeof(uint32_t);
  if (!state.colliderGrid)
    state.colliderGrid = engine::Buffer(*state.context, sizeof(gpu::ColliderGrid), engine::kStorageUsage,
                                        engine::MemoryUsage::DeviceLocal, "weft.colliderGrid");
  if (!state.colliderCells || state.colliderCells.size() < bytes) {
    state.context->vk().DeviceWaitIdle(state.context->device());  // the old buffer may still be read by a frame in flight
    // Twice the room: the grid of a body that moves covers its faces' sweep over a frame, and a frame
    // a host records cannot grow the buffer (reserveColliderGrid).
    state.colliderCells = engine::Buffer(*state.context, 2 * bytes, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal,
                                         "weft.colliderCells");
  }
  engine::uploadBuffer(*state.context, state.colliderGrid, &grid.header, sizeof(gpu::ColliderGrid));
  engine::uploadBuffer(*state.context, state.colliderCells, grid.cells.data(), bytes);
}

void reserveColliderGrid(GpuState& state, std::vector<KinematicStep>& plan, bool mayGrow) {
  if (plan.empty() || !plan.front().colliderGrid) return;
  const size_t bytes = plan.front().colliderGrid->cells.size() * sizeof(uint32_t);
  if (state.colliderCells.size() >= bytes) return;
  if (!mayGrow) {  // every particle tests every collider this frame: the same result, slower
    plan.front().colliderGrid = ColliderGridData{};
    return;
  }
  state.context->vk().DeviceWaitIdle(state.context->device());  // the old buffer may still be read by a frame in flight
  // Half as much again: a moving body's grid changes size from frame to frame.
  state.colliderCells = engine::Buffer(*state.context, bytes + bytes / 2, engine::kStorageUsage,
                                       engine::MemoryUsage::DeviceLocal, "weft.colliderCells");
}

void recordKinematicStep(GpuRecorder& r, const KinematicStep& step) {
  GpuState& s = r.state;
  const engine::VulkanApi& vk = r.vk();
  auto* handles = static_cast<KinematicResources*>(s.kinematics.get());
  engine::barrier::allToUpload(vk, r.cmd);  // the last step's passes read the colliders and wrote the particles
  if (!step.colliders.empty()) updateBuffer(vk, r.cmd, s.colliders, step.colliders);
  if (step.colliderGrid) {  // reserveColliderGrid made room for it
    updateBuffer(vk, r.cmd, s.colliderGrid, std::vector<gpu::ColliderGrid>{step.colliderGrid->header});
    updateBuffer(vk, r.cmd, s.colliderCells, step.colliderGrid->cells);
  }
  if (handles) updateBuffer(vk, r.cmd, handles->poses, step.handlePoses);
  engine::barrier::transferToAll(vk, r.cmd);
  if (!handles) return;
  gpu::HandleParams params{};
  params.vertexCount = handles->vertexCount;
  handles->program.dispatch(r.cmd, handles->vertexCount,
                            {{WEFT_BIND_POSITIONS, &s.positionsIn()},
                             {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
                             {WEFT_BIND_HANDLE_VERTICES, &handles->vertices},
                             {WEFT_BIND_HANDLE_POSES, &handles->poses}},
                            params);
  engine::barrier::computeToCompute(vk, r.cmd);
}

}  // namespace weft
