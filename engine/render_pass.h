#pragma once
// The one kind of render pass weft draws with: a single subpass into a colour and a depth attachment,
// both cleared, optionally multisampled and resolved into a single-sampled image. The offscreen
// render target and the viewer's swapchain differ only in what follows the pass (a copy to the host,
// or a present), so both describe their pass with a DrawPassDesc and share the attachments,
// subpass and dependencies written here.
#include <string>

#include <vulkan/vulkan_core.h>

namespace weft::engine {

class Context;

struct DrawPassDesc {
  VkFormat colorFormat = VK_FORMAT_UNDEFINED;
  VkFormat depthFormat = VK_FORMAT_UNDEFINED;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // above 1: attachment 2 receives the resolve
  // Layout of the image that outlives the pass (the colour attachment, or the resolve target):
  // TRANSFER_SRC_OPTIMAL for a readback, PRESENT_SRC_KHR for a swapchain image.
  VkImageLayout finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  bool copiedAfter = false;  // a transfer reads that image after the pass (and the last frame's copy, before it)
};

// Attachments: 0 colour (samples), 1 depth (samples), 2 resolve target (one sample) when samples > 1.
// Framebuffers list the views in that order; engine::beginRenderPass clears 0 and 1.
VkRenderPass createDrawPass(const Context& context, const DrawPassDesc& desc, const std::string& name);

// The largest sample count up to `wanted` that colour attachments of `colorFormat` (transient) and
// depth attachments of `depthFormat` both support on this device; 1 always qualifies.
VkSampleCountFlagBits chooseSampleCount(const Context& context, VkFormat colorFormat, VkFormat depthFormat,
                                        VkSampleCountFlagBits wanted);

// Usage of the multisampled attachments, which are cleared and resolved within the pass and never
// stored: tile memory may hold them on devices that have it.
constexpr VkImageUsageFlags kTransientColorUsage =
    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
constexpr VkImageUsageFlags kTransientDepthUsage =
    VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;

}  // namespace weft::engine
