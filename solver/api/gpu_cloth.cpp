// weft::GpuCloth: a GpuSolver recorded into the host's command buffers, with an output position
// buffer whose identity never changes (the solver's own ping-pong pair swaps with the parity of its
// passes) and the normals a renderer shades with.
#include "weft/gpu_cloth.h"

#include <cmath>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/buffer.h"
#include "engine/commands.h"
#include "engine/error.h"
#include "engine/program.h"
#include "shaders/shared.h"
#include "solver/api/api_internal.h"
#include "solver/gpu/gpu_solver.h"
#include "solver/integrators/integrator_unit.h"
#include "solver/model/vertex_triangles.h"

namespace weft {


namespace {

void refuseUnrecordable(const SolverParams& params) {
  if (!integrators::integratorUnit(params.integrator).recordsFrames())
    throw InputError(std::string(integratorName(params.integrator)) +
                     " decides on the host between steps, so a GpuCloth cannot record it into a command buffer; "
                     "use a CpuCloth or another integrator");
  if (solvesWithCg(params.integrator) && params.preconditioner == Preconditioner::TwoLevel)
    throw InputError(std::string("the two-level preconditioner is a CpuCloth's alone (") + integratorName(params.integrator) +
                     " in a GpuCloth solves with block-jacobi): use a CpuCloth, or preconditioner \"block-jacobi\"");
}

engine::Buffer deviceBuffer(const engine::Context& context, VkDeviceSize bytes, VkBufferUsageFlags usage,
                            const char* name) {
  return engine::Buffer(context, std::max<VkDeviceSize>(bytes, 16), usage | engine::kStorageUsage,
                        engine::MemoryUsage::DeviceLocal, name);
}

}  // namespace

ResourceState vertexInput() {
  return {VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, VK_QUEUE_FAMILY_IGNORED};
}
ResourceState vertexShaderRead() {
  return {VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT, VK_QUEUE_FAMILY_IGNORED};
}
ResourceState transferRead() {
  return {VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_QUEUE_FAMILY_IGNORED};
}

void recordBarrier(const Device& device, VkCommandBuffer cmd, VkBuffer buffer, const ResourceState& from,
                   const ResourceState& to) {
  // Vulkan 1.2 devices may lack synchronization2: every stage and access weft names fits the
  // original 32-bit masks, whose bits are the same.
  constexpr uint64_t kLow = 0xffffffffull;
  if ((from.stages | to.stages | from.access | to.access) & ~kLow)
    throw std::invalid_argument("weft::recordBarrier takes the stages and accesses of Vulkan 1.0's masks only");
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = static_cast<VkAccessFlags>(from.access);
  barrier.dstAccessMask = static_cast<VkAccessFlags>(to.access);
  barrier.srcQueueFamilyIndex = from.queueFamily;
  barrier.dstQueueFamilyIndex = to.queueFamily;
  if (from.queueFamily == VK_QUEUE_FAMILY_IGNORED || to.queueFamily == VK_QUEUE_FAMILY_IGNORED)
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = buffer;
  barrier.offset = 0;
  barrier.size = VK_WHOLE_SIZE;
  const VkPipelineStageFlags src = from.stages ? static_cast<VkPipelineStageFlags>(from.stages)
                                              : VkPipelineStageFlags{VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT};
  const VkPipelineStageFlags dst = to.stages ? static_cast<VkPipelineStageFlags>(to.stages)
                                            : VkPipelineStageFlags{VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT};
  device.impl().context->vk().CmdPipelineBarrier(cmd, src, dst, 0, 0, nullptr, 1, &barrier, 0, nullptr);
}

GpuCloth::GpuCloth(Device& device, const Fabric& fabric, const StepSettings& settings, const GpuClothOptions& options)
    : impl_(std::make_unique<detail::GpuClothImpl>()) {
  const SolverParams params = detail::toSolverParams(settings);
  refuseUnrecordable(params);
  detail::GpuClothImpl& c = *impl_;
  c.context = device.impl().context.get();
  c.shaders = &device.impl().shaders;
  const ClothModel& model = fabric.data().model;
  c.solver = std::make_unique<GpuSolver>(model, params, *c.context, *c.shaders);
  c.particleCount = static_cast<uint32_t>(model.particleCount());
  const VkDeviceSize positionBytes = VkDeviceSize(c.particleCount) * sizeof(glm::vec4);
  if (options.positionBuffer) {
    c.positions = options.positionBuffer;
    c.positionOffset = options.positionOffset;
  } else {
    c.ownPositions = deviceBuffer(*c.context, positionBytes,
                                  VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  "weft.cloth.positions");
    c.positions = c.ownPositions.handle();
  }
  const std::vector<uint32_t>& corners = fabric.triangleIndices();
  c.indexCount = static_cast<uint32_t>(corners.size());
  c.indices = deviceBuffer(*c.context, corners.size() * sizeof(uint32_t),
                           VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, "weft.cloth.indices");
  if (!corners.empty()) engine::uploadBuffer(*c.context, c.indices, corners.data(), corners.size() * sizeof(uint32_t));
  if (options.normals) {
    const VertexTriangles around = buildVertexTriangles(model.triangles, model.particleCount());
    c.vertexTriRows = deviceBuffer(*c.context, around.rows.size() * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, "weft.cloth.vertexTriRows");
    c.vertexTris = deviceBuffer(*c.context, around.triangles.size() * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, "weft.cloth.vertexTris");
    engine::uploadBuffer(*c.context, c.vertexTriRows, around.rows.data(), around.rows.size() * 4);
    if (!around.triangles.empty())
      engine::uploadBuffer(*c.context, c.vertexTris, around.triangles.data(), around.triangles.size() * 4);
    c.normals = deviceBuffer(*c.context, positionBytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, "weft.cloth.normals");
    c.normalsProgram = engine::ComputeProgram(*c.context, *c.shaders, "normals.comp");
  }
}

GpuCloth::~GpuCloth() {
  // The host's last frame may still read or write the cloth's buffers.
  if (impl_) impl_->context->vk().DeviceWaitIdle(impl_->context->device());
}
GpuCloth::GpuCloth(GpuCloth&&) noexcept = default;
GpuCloth& GpuCloth::operator=(GpuCloth&& other) noexcept {
  if (this != &other) {
    if (impl_) impl_->context->vk().DeviceWaitIdle(impl_->context->device());
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void GpuCloth::prepare(int maxSubsteps) {
  if (maxSubsteps < 1 || maxSubsteps > kMaxSubsteps)
    throw InputError("prepare: substeps must be in [1, " + std::to_string(kMaxSubsteps) + "] (got " +
                     std::to_string(maxSubsteps) + ")");
  impl_->solver->prepare(maxSubsteps);
  impl_->preparedSubsteps = std::max(impl_->preparedSubsteps, maxSubsteps);
}

void GpuCloth::recordStep(VkCommandBuffer cmd, float frameDt, int substeps) {
  detail::GpuClothImpl& c = *impl_;
  if (substeps < 1 || substeps > c.preparedSubsteps)
    throw std::logic_error("GpuCloth::recordStep: " + std::to_string(substeps) + " substeps, but prepare() was called for " +
                           std::to_string(c.preparedSubsteps) + "; call prepare(" + std::to_string(substeps) +
                           ") first, outside the frame");
  if (!(frameDt > 0.f) || !std::isfinite(frameDt))
    throw std::invalid_argument("GpuCloth::recordStep: frameDt must be a positive number of seconds");
  const engine::VulkanApi& vk = c.context->vk();
  // After every earlier use of the cloth's buffers, whatever submission it was in: the last
  // frame's draw read the output buffers this frame overwrites.
  VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  before.srcAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  before.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  vk.CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &before, 0,
                        nullptr, 0, nullptr);
  c.solver->recordAdvance(cmd, frameDt, substeps);
  engine::barrier::allToTransfer(vk, cmd);
  const engine::Buffer& solved = c.solver->positionBuffer();
  VkBufferCopy region{0, c.positionOffset, VkDeviceSize(c.particleCount) * sizeof(glm::vec4)};
  if (region.size > 0) vk.CmdCopyBuffer(cmd, solved.handle(), c.positions, 1, &region);
  if (c.normals && c.particleCount > 0) {
    gpu::NormalsParams params{c.particleCount, 0, 0, 0};
    c.normalsProgram.dispatch(cmd, c.particleCount,
                              {{WEFT_BIND_RENDER_POSITIONS, &solved},
                               {WEFT_BIND_RENDER_NORMALS, &c.normals},
                               {WEFT_BIND_RENDER_TRIANGLES, &c.indices},
                               {WEFT_BIND_RENDER_VERTEX_TRI_ROWS, &c.vertexTriRows},
                               {WEFT_BIND_RENDER_VERTEX_TRIS, &c.vertexTris}},
                              params);
  }
}

VkBuffer GpuCloth::positionBuffer() const { return impl_->positions; }
VkDeviceSize GpuCloth::positionOffset() const { return impl_->positionOffset; }
VkBuffer GpuCloth::normalBuffer() const { return impl_->normals ? impl_->normals.handle() : VK_NULL_HANDLE; }
VkBuffer GpuCloth::indexBuffer() const { return impl_->indices.handle(); }
uint32_t GpuCloth::indexCount() const { return impl_->indexCount; }
size_t GpuCloth::particleCount() const { return impl_->particleCount; }

ResourceState GpuCloth::positionsWritten() const {
  return {VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
          VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT, impl_->context->queueFamily()};
}

void GpuCloth::setSettings(const StepSettings& settings) {
  const SolverParams params = detail::toSolverParams(settings);
  refuseUnrecordable(params);
  if (params.integrator != impl_->solver->params().integrator) impl_->preparedSubsteps = 0;
  impl_->solver->setParams(params);
}

void GpuCloth::setColliderTransform(size_t index, const glm::mat4& transform) {
  detail::setColliderTransform(*impl_->solver, index, transform);
}
void GpuCloth::setColliderVertices(size_t index, const std::vector<glm::vec3>& vertices) {
  detail::setColliderVertices(*impl_->solver, index, vertices);
}
ContactReport GpuCloth::readContactReport() const { return detail::contactReport(*impl_->solver); }
std::vector<uint32_t> GpuCloth::readContactMarks() const { return impl_->solver->lastContactMarks(); }
VkBuffer GpuCloth::contactMarkBuffer() const {
  const engine::Buffer* marks = impl_->solver->contactMarkBuffer();
  return marks ? marks->handle() : VK_NULL_HANDLE;
}

void GpuCloth::setHandle(uint32_t index, glm::vec3 target) { impl_->solver->setHandle(index, target); }
void GpuCloth::releaseHandle() { impl_->solver->clearHandle(); }

void GpuCloth::readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const {
  impl_->solver->readState(positions, velocities);
}

void GpuCloth::writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) {
  impl_->solver->writeState(positions, velocities);
}

}  // namespace weft
