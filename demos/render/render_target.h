#pragma once
// An offscreen frame: RGBA8 colour (multisampled where the device can, then resolved), depth, the
// render pass and framebuffer that draw into them, and a readback buffer the frame is copied to.
#include <vulkan/vulkan_core.h>

#include <cstdint>

#include <glm/glm.hpp>

#include "engine/buffer.h"
#include "engine/image.h"

namespace weft {

namespace engine {
class Context;
}

constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;

class RenderTarget {
 public:
  RenderTarget() = default;
  // The most samples up to maxSamples that colour and depth both support (4x MSAA by default).
  RenderTarget(const engine::Context& context, uint32_t width, uint32_t height,
               VkSampleCountFlagBits maxSamples = VK_SAMPLE_COUNT_4_BIT);
  ~RenderTarget();
  RenderTarget(RenderTarget&& other) noexcept;
  RenderTarget& operator=(RenderTarget&& other) noexcept;
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  VkSampleCountFlagBits samples() const { return samples_; }
  VkRenderPass renderPass() const { return renderPass_; }

  // Begins the render pass (colour cleared to `clear`, depth to 1) with a whole-image viewport.
  void begin(VkCommandBuffer cmd, glm::vec3 clear) const;
  // Ends the render pass and copies the (resolved) image into the readback buffer; the host may read
  // readback() once the submission has completed.
  void endAndCopy(VkCommandBuffer cmd) const;
  const uint8_t* readback() const { return static_cast<const uint8_t*>(readback_.mapped()); }

 private:
  void release();

  const engine::VulkanApi* vk_ = nullptr;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t width_ = 0;
  uint32_t height_ = 0;
  VkSampleCountFlagBits samples_ = VK_SAMPLE_COUNT_1_BIT;
  VkFormat depthFormat_ = VK_FORMAT_UNDEFINED;
  engine::Image color_;    // what the pass draws into: multisampled, or the final image when samples_ is 1
  engine::Image depth_;
  engine::Image resolve_;  // single-sampled copy source; unused when samples_ is 1
  VkRenderPass renderPass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  engine::Buffer readback_;
};

}  // namespace weft
