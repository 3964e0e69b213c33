#pragma once
// Render attachments: a move-only 2-D image with its own memory and one view, the depth format to
// draw with, and the begin of a render pass that clears colour and depth and covers the extent.
// The offscreen renderer and the viewer's swapchain draw through the same three.
#include <string>

#include <glm/glm.hpp>
#include <vulkan/vulkan_core.h>

namespace weft::engine {

class Context;
struct VulkanApi;

class Image {
 public:
  Image() = default;
  // Device-local where the device has such memory; the view covers the one mip level and layer.
  Image(const Context& context, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
        VkSampleCountFlagBits samples, VkImageAspectFlags aspect, const std::string& name);
  ~Image();
  Image(Image&& other) noexcept;
  Image& operator=(Image&& other) noexcept;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  explicit operator bool() const { return image_ != VK_NULL_HANDLE; }

 private:
  void release();
  const VulkanApi* vk_ = nullptr;
  VkDevice device_ = VK_NULL_HANDLE;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
};

// D32, else D24, else D16 (the one every device must support), as an optimal-tiling attachment.
VkFormat chooseDepthFormat(const Context& context);

// Begins `renderPass` on `framebuffer` with colour attachment 0 cleared to `clear` and attachment 1
// (depth) to 1, and sets a viewport and scissor covering `extent`.
void beginRenderPass(const VulkanApi& vk, VkCommandBuffer cmd, VkRenderPass renderPass, VkFramebuffer framebuffer,
                     VkExtent2D extent, glm::vec3 clear);

}  // namespace weft::engine
