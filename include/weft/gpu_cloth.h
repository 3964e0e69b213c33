#pragma once
// A cloth stepped on a weft::Device, recorded into the host's command buffers.
//
//   weft::GpuCloth cloth(device, fabric, settings);   // allocates, uploads: submits and waits
//   cloth.prepare(substeps);                          // builds what a frame needs: submits and waits
//   ... each frame, outside a render pass:
//   cloth.recordStep(cmd, 1.f / 60.f, substeps);      // records only
//   weft::recordBarrier(cmd, cloth.positionsWritten(), weft::vertexInput());
//   ... draw with cloth.positionBuffer() as a vertex buffer (vec4 per particle, xyz in m)
//
// Threads: a GpuCloth is used from one thread at a time. Different cloths, on one Device or on
// several, may be used from different threads at once, except for the calls that submit: those use
// the Device's queue, which the host must not use at the same moment (Vulkan's rule for queues).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <vulkan/vulkan.h>

#include "weft/device.h"
#include "weft/fabric.h"
#include "weft/settings.h"

namespace weft {

namespace detail {
struct GpuClothImpl;
}

// A buffer's last use, or the next one: the stage and access masks of a synchronization2 barrier,
// and the queue family that owns the buffer.
struct ResourceState {
  VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;
  VkAccessFlags2 access = VK_ACCESS_2_NONE;
  uint32_t queueFamily = VK_QUEUE_FAMILY_IGNORED;
};
// The host's most common next uses of the position and normal buffers.
ResourceState vertexInput();   // bound as vertex buffers
ResourceState vertexShaderRead();  // read as storage buffers by a vertex shader
ResourceState transferRead();  // copied elsewhere

// Records one buffer memory barrier from `from` to `to` over the whole of `buffer`
// (vkCmdPipelineBarrier2 through the device's table). Different queue families in the two states
// make it one half of an ownership transfer: record it on the releasing queue, then on the
// acquiring one.
void recordBarrier(const Device& device, VkCommandBuffer cmd, VkBuffer buffer, const ResourceState& from,
                   const ResourceState& to);

struct GpuClothOptions {
  // Optional: the host's own buffer to receive the positions (vec4 per particle from `offset`), made
  // with VK_BUFFER_USAGE_TRANSFER_DST_BIT. Null: weft makes one with vertex, storage and transfer usage.
  VkBuffer positionBuffer = VK_NULL_HANDLE;
  VkDeviceSize positionOffset = 0;
  bool normals = true;  // also keep per-particle normals (vec4) for shading, one pass per frame
};

class GpuCloth {
 public:
  // Allocates and uploads the cloth (submits to the device's queue and waits). InputError for
  // settings weft refuses (an unknown integrator, nonlinear-cg, which decides on the host between
  // steps and so cannot be recorded: use CpuCloth or another integrator for it).
  GpuCloth(Device& device, const Fabric& fabric, const StepSettings& settings, const GpuClothOptions& options = {});
  ~GpuCloth();  // waits until the device is idle, then frees the cloth's buffers
  GpuCloth(GpuCloth&&) noexcept;
  GpuCloth& operator=(GpuCloth&&) noexcept;
  GpuCloth(const GpuCloth&) = delete;
  GpuCloth& operator=(const GpuCloth&) = delete;

  // Builds everything a frame of up to `maxSubsteps` steps needs (pipelines, scratch buffers, the
  // solve's log). Submits and waits. Call it before the first recordStep, and again before one with
  // more substeps or after setSettings.
  void prepare(int maxSubsteps);
  // Records a frame of `substeps` equal steps of frameDt / substeps into `cmd`, outside a render
  // pass. Never submits, waits or allocates: std::logic_error if prepare() was not called for this
  // many substeps. It begins with a barrier after every earlier command's use of the cloth's
  // buffers (the last frame's draw included), and leaves positionBuffer() and normalBuffer() in
  // positionsWritten(): the host records one barrier from there to its use.
  void recordStep(VkCommandBuffer cmd, float frameDt, int substeps);
  // The same buffer for the cloth's life, whatever the substeps and iterations: particleCount()
  // vec4 from positionOffset() (xyz m, w the inverse mass, 0 for pinned particles).
  VkBuffer positionBuffer() const;
  VkDeviceSize positionOffset() const;
  VkBuffer normalBuffer() const;    // vec4 per particle (xyz unit normal); null without options.normals
  VkBuffer indexBuffer() const;     // uint32 per corner, three per triangle: Fabric::triangleIndices()
  uint32_t indexCount() const;
  ResourceState positionsWritten() const;  // the state recordStep leaves both buffers in
  size_t particleCount() const;

  // Changes the settings from the next recordStep on. Colliders are uploaded at once: submits and
  // waits. Call prepare() again after a change of integrator.
  void setSettings(const StepSettings& settings);
  // Moves collider `index` of the settings: `transform` (rotation and translation only, applied to
  // the collider as the settings give it) is where it is at the end of the next frame. The frame's
  // steps take it there in a straight line, turning the shorter way, and friction drags the cloth
  // with its surface. An animated body's host calls it every frame. InputError for a transform
  // with scale or shear, or an index past the colliders.
  void setColliderTransform(size_t index, const glm::mat4& transform);
  // Deforms mesh collider `index` (a skinned body): `vertices`, as many as Collider::mesh gave it and
  // in the same frame (setColliderTransform's transform still applies), are where its vertices are
  // at the end of the next frame. The frame's steps take each there in a straight line, each face
  // swept with its centre's velocity, and friction drags the cloth with it. InputError, with nothing
  // changed, for an index past the colliders, a collider that is not a mesh, another vertex count or
  // a vertex that is not finite.
  void setColliderVertices(size_t index, const std::vector<glm::vec3>& vertices);
  // A moving pin (a mouse drag): particle `index` follows `target` from the next recordStep on,
  // until releaseHandle(). The first call for a particle reads its inverse mass back: submits and waits.
  // std::out_of_range for an index past the particles, InputError for a target that is not finite.
  void setHandle(uint32_t index, glm::vec3 target);
  void releaseHandle();

  // The state as vec4 per particle (positions: xyz m, w inverse mass; velocities: xyz m/s). Both
  // submit and wait for the device's queue. writeState throws InputError, with nothing written, for
  // another particle count, a value that is not finite, a negative inverse mass, or a particle the
  // cloth's tethers hang from given an inverse mass (a tether's pin stays pinned).
  void readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const;
  void writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities);
  // What contact did in the last frame recorded (docs/contact.md), once the device has run it: a
  // summary and one ContactMark bit set per particle (empty without contact). Both wait for the device.
  ContactReport readContactReport() const;
  std::vector<uint32_t> readContactMarks() const;
  // The marks in place, uint32 per particle, for drawing them: recordStep writes them in a compute
  // shader (a barrier from positionsWritten() to their use orders the read). The same buffer while
  // contact is on; null without contact. setSettings turning contact off frees it.
  VkBuffer contactMarkBuffer() const;

  const detail::GpuClothImpl& impl() const { return *impl_; }

 private:
  std::unique_ptr<detail::GpuClothImpl> impl_;
};

}  // namespace weft
