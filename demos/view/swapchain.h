#pragma once
// A swapchain for a window surface with what drawing into it needs: one render pass (colour cleared,
// depth, multisampled where asked and resolved into the swapchain image, which ends in PRESENT_SRC),
// the depth and multisampled colour images, a framebuffer per image, and one "rendering done"
// semaphore per image (a present may still wait on it when the frame slot comes round again, so it
// cannot belong to the frame slot). recreate() keeps the render pass: the format does not change
// with the size, so pipelines made for it stay valid.
#include <vector>

#include <glm/glm.hpp>
#include <vulkan/vulkan_core.h>

#include "engine/image.h"

namespace weft {

namespace engine {
class Context;
}

class Swapchain {
 public:
  // `samples`: the most samples per pixel wanted; the device may offer fewer (samples() says).
  Swapchain(const engine::Context& context, VkSurfaceKHR surface, VkExtent2D wanted, VkSampleCountFlagBits samples);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  // After a resize or an out-of-date result. Waits for the device to go idle.
  void recreate(VkExtent2D wanted);

  VkSwapchainKHR handle() const { return swapchain_; }
  VkRenderPass renderPass() const { return renderPass_; }
  VkFormat format() const { return format_; }
  VkSampleCountFlagBits samples() const { return samples_; }  // pipelines drawing in the pass use this
  VkExtent2D extent() const { return extent_; }
  uint32_t imageCount() const { return static_cast<uint32_t>(images_.size()); }
  VkImage image(uint32_t index) const { return images_[index]; }
  VkSemaphore renderDone(uint32_t index) const { return renderDone_[index]; }
  bool supportsCopy() const { return copyable_; }  // images may be copied from (screenshots)
  bool isBgr() const;                               // B8G8R8A8: screenshots swap red and blue

  // Begins the render pass on image `index` (colour cleared to `clear`, depth to 1) with a
  // whole-image viewport and scissor.
  void begin(VkCommandBuffer cmd, uint32_t index, glm::vec3 clear) const;

 private:
  void create(VkExtent2D wanted, VkSwapchainKHR old);
  void destroyImages();

  const engine::Context& context_;
  VkSurfaceKHR surface_;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkColorSpaceKHR colorSpace_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  VkFormat depthFormat_ = VK_FORMAT_UNDEFINED;
  VkSampleCountFlagBits samples_ = VK_SAMPLE_COUNT_1_BIT;
  VkExtent2D extent_{};
  bool copyable_ = false;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkRenderPass renderPass_ = VK_NULL_HANDLE;
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkFramebuffer> framebuffers_;
  std::vector<VkSemaphore> renderDone_;
  engine::Image depth_;
  engine::Image multisampled_;  // colour drawn with samples_ > 1, resolved into the swapchain image
};

}  // namespace weft
