#include "demos/view/swapchain.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "engine/context.h"
#include "engine/error.h"
#include "engine/render_pass.h"
#include "engine/vk_check.h"

namespace weft {
namespace {

// UNORM, not sRGB: the offscreen renderer writes R8G8B8A8_UNORM, so the window and the PNGs show the
// same colours and tests compare screenshots with the same palette.
VkSurfaceFormatKHR chooseFormat(const engine::Context& context, VkSurfaceKHR surface) {
  const engine::VulkanApi& vk = context.vk();
  uint32_t count = 0;
  VK_CHECK(vk.GetPhysicalDeviceSurfaceFormatsKHR(context.physicalDevice(), surface, &count, nullptr));
  std::vector<VkSurfaceFormatKHR> formats(count);
  VK_CHECK(vk.GetPhysicalDeviceSurfaceFormatsKHR(context.physicalDevice(), surface, &count, formats.data()));
  if (formats.empty()) throw InputError("the window surface offers no image format");
  for (VkSurfaceFormatKHR f : formats)
    if (f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) return f;
  return formats[0];
}

}  // namespace

Swapchain::Swapchain(const engine::Context& context, VkSurfaceKHR surface, VkExtent2D wanted,
                     VkSampleCountFlagBits samples)
    : context_(context), surface_(surface) {
  if (!context.vk().CreateSwapchainKHR || !context.vk().GetPhysicalDeviceSurfaceFormatsKHR)
    throw std::logic_error("Swapchain needs a context made with VK_KHR_surface and VK_KHR_swapchain");
  VkSurfaceFormatKHR format = chooseFormat(context, surface);
  format_ = format.format;
  colorSpace_ = format.colorSpace;
  depthFormat_ = engine::chooseDepthFormat(context);
  samples_ = engine::chooseSampleCount(context, format_, depthFormat_, samples);
  renderPass_ = engine::createDrawPass(context,
                                       {.colorFormat = format_,
                                        .depthFormat = depthFormat_,
                                        .samples = samples_,
                                        .finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                                        .copiedAfter = false},
                                       "view.pass");
  create(wanted, VK_NULL_HANDLE);
}

Swapchain::~Swapchain() {
  destroyImages();
  if (swapchain_) context_.vk().DestroySwapchainKHR(context_.device(), swapchain_, nullptr);
  if (renderPass_) context_.vk().DestroyRenderPass(context_.device(), renderPass_, nullptr);
}

bool Swapchain::isBgr() const { return format_ == VK_FORMAT_B8G8R8A8_UNORM || format_ == VK_FORMAT_B8G8R8A8_SRGB; }

void Swapchain::recreate(VkExtent2D wanted) {
  context_.vk().DeviceWaitIdle(context_.device());  // nothing may still use the old images or semaphores
  destroyImages();
  VkSwapchainKHR old = swapchain_;
  create(wanted, old);
  context_.vk().DestroySwapchainKHR(context_.device(), old, nullptr);
}

void Swapchain::create(VkExtent2D wanted, VkSwapchainKHR old) {
  VkDevice device = context_.device();
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(context_.vk().GetPhysicalDeviceSurfaceCapabilitiesKHR(context_.physicalDevice(), surface_, &caps));
  extent_ = caps.currentExtent.width != UINT32_MAX
                ? caps.currentExtent
                : VkExtent2D{std::clamp(wanted.width, caps.minImageExtent.width, caps.maxImageExtent.width),
                             std::clamp(wanted.height, caps.minImageExtent.height, caps.maxImageExtent.height)};
  uint32_t imageCount = caps.minImageCount + 1;
  if (caps.maxImageCount > 0) imageCount = std::min(imageCount, caps.maxImageCount);
  copyable_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;

  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface_;
  info.minImageCount = imageCount;
  info.imageFormat = format_;
  info.imageColorSpace = colorSpace_;
  info.imageExtent = extent_;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (copyable_ ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                            : VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha);
  info.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always available; paces the loop to the display
  info.clipped = VK_TRUE;
  info.oldSwapchain = old;
  VK_CHECK(context_.vk().CreateSwapchainKHR(device, &info, nullptr, &swapchain_));
  context_.setName(VK_OBJECT_TYPE_SWAPCHAIN_KHR, reinterpret_cast<uint64_t>(swapchain_), "view.swapchain");

  uint32_t count = 0;
  VK_CHECK(context_.vk().GetSwapchainImagesKHR(device, swapchain_, &count, nullptr));
  images_.resize(count);
  VK_CHECK(context_.vk().GetSwapchainImagesKHR(device, swapchain_, &count, images_.data()));

  // Depth and the multisampled colour: one image each for all frames; the render pass's external
  // dependency orders each frame's clears after the previous frame's attachment writes. With
  // multisampling the swapchain image is only the resolve target.
  const bool msaa = samples_ != VK_SAMPLE_COUNT_1_BIT;
  depth_ = engine::Image(context_, extent_, depthFormat_, engine::kTransientDepthUsage, samples_,
                         VK_IMAGE_ASPECT_DEPTH_BIT, "view.depth");
  if (msaa)
    multisampled_ = engine::Image(context_, extent_, format_, engine::kTransientColorUsage, samples_,
                                  VK_IMAGE_ASPECT_COLOR_BIT, "view.colorMsaa");
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format_;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  for (VkImage image : images_) {
    view.image = image;
    VkImageView colorView;
    VK_CHECK(context_.vk().CreateImageView(device, &view, nullptr, &colorView));
    views_.push_back(colorView);
    // In engine::createDrawPass's order: colour, depth, resolve target.
    std::array<VkImageView, 3> attachments = {colorView, depth_.view(), VK_NULL_HANDLE};
    if (msaa) attachments = {multisampled_.view(), depth_.view(), colorView};
    VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb.renderPass = renderPass_;
    fb.attachmentCount = msaa ? 3 : 2;
    fb.pAttachments = attachments.data();
    fb.width = extent_.width;
    fb.height = extent_.height;
    fb.layers = 1;
    VkFramebuffer framebuffer;
    VK_CHECK(context_.vk().CreateFramebuffer(device, &fb, nullptr, &framebuffer));
    framebuffers_.push_back(framebuffer);
    VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore done;
    VK_CHECK(context_.vk().CreateSemaphore(device, &sem, nullptr, &done));
    renderDone_.push_back(done);
  }
}

void Swapchain::destroyImages() {
  VkDevice device = context_.device();
  for (VkSemaphore s : renderDone_) context_.vk().DestroySemaphore(device, s, nullptr);
  for (VkFramebuffer f : framebuffers_) context_.vk().DestroyFramebuffer(device, f, nullptr);
  for (VkImageView v : views_) context_.vk().DestroyImageView(device, v, nullptr);
  renderDone_.clear();
  framebuffers_.clear();
  views_.clear();
  images_.clear();
  depth_ = engine::Image();
  multisampled_ = engine::Image();
}

void Swapchain::begin(VkCommandBuffer cmd, uint32_t index, glm::vec3 clear) const {
  engine::beginRenderPass(context_.vk(), cmd, renderPass_, framebuffers_[index], extent_, clear);
}

}  // namespace weft
