#pragma once
// Draws a weft::GpuCloth into the host's own pass: a classic render pass, or dynamic rendering
// (Vulkan 1.3, or VK_KHR_dynamic_rendering enabled by the host). Two-sided Lambert shading from
// the cloth's normals. A host with its own pipeline skips this and binds
// GpuCloth::positionBuffer(), normalBuffer() and indexBuffer() itself.
#include <memory>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <vulkan/vulkan.h>

#include "weft/device.h"
#include "weft/gpu_cloth.h"

namespace weft {

namespace detail {
struct ClothDrawerImpl;
}

// Where the drawer's pipeline draws: a render pass and subpass, or (renderPass null) the formats
// of dynamic rendering. depth: whether the pass has a depth attachment (tested and written).
struct DrawTarget {
  VkRenderPass renderPass = VK_NULL_HANDLE;
  uint32_t subpass = 0;
  VkFormat colorFormat = VK_FORMAT_UNDEFINED;  // dynamic rendering only
  VkFormat depthFormat = VK_FORMAT_UNDEFINED;  // dynamic rendering only; UNDEFINED: no depth
  bool depth = true;                           // render pass only
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

struct DrawStyle {
  glm::vec3 color{0.85f, 0.32f, 0.25f};
  glm::vec3 lightDirection{0.4f, 0.8f, 0.45f};  // towards the light; normalised by the drawer
};

class ClothDrawer {
 public:
  // Builds the pipeline (shared by every drawer on the device for the same target).
  ClothDrawer(Device& device, const DrawTarget& target);
  ~ClothDrawer();
  ClothDrawer(ClothDrawer&&) noexcept;
  ClothDrawer& operator=(ClothDrawer&&) noexcept;

  // Inside the host's render pass or dynamic rendering, with its viewport and scissor set (the
  // pipeline's dynamic state). After a barrier from cloth.positionsWritten() to vertexShaderRead():
  // the drawer pulls positions, normals and indices in its vertex shader. Records only.
  void record(VkCommandBuffer cmd, const GpuCloth& cloth, const glm::mat4& viewProjection,
              const DrawStyle& style = {}) const;

 private:
  std::unique_ptr<detail::ClothDrawerImpl> impl_;
};

}  // namespace weft
