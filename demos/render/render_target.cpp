#include "demos/render/render_target.h"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/context.h"
#include "engine/vk_check.h"

namespace weft {
namespace {

constexpr VkImageUsageFlags kAttachmentOnly =
    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
constexpr VkImageUsageFlags kDepthUsage =
    VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
constexpr VkImageUsageFlags kCopySource = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;

VkSampleCountFlags imageSampleCounts(VkPhysicalDevice device, VkFormat format, VkImageUsageFlags usage) {
  VkImageFormatProperties props;
  if (vkGetPhysicalDeviceImageFormatProperties(device, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage, 0,
                                               &props) != VK_SUCCESS)
    return VK_SAMPLE_COUNT_1_BIT;
  return props.sampleCounts;
}

VkSampleCountFlagBits chooseSamples(const engine::Context& context, VkFormat depthFormat) {
  const VkPhysicalDeviceLimits& limits = context.properties().limits;
  VkSampleCountFlags counts = limits.framebufferColorSampleCounts & limits.framebufferDepthSampleCounts &
                              imageSampleCounts(context.physicalDevice(), kColorFormat, kAttachmentOnly) &
                              imageSampleCounts(context.physicalDevice(), depthFormat, kDepthUsage);
  return (counts & VK_SAMPLE_COUNT_4_BIT) ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
}

template <class Handle>
void name(const engine::Context& context, VkObjectType type, Handle handle, const std::string& text) {
  context.setName(type, reinterpret_cast<uint64_t>(handle), text);
}

}  // namespace

RenderTarget::RenderTarget(const engine::Context& context, uint32_t width, uint32_t height,
                           VkSampleCountFlagBits maxSamples)
    : device_(context.device()), width_(width), height_(height) {
  if (width == 0 || height == 0) throw std::invalid_argument("RenderTarget needs a non-empty image");
  try {
    depthFormat_ = engine::chooseDepthFormat(context.physicalDevice());
    samples_ = maxSamples >= VK_SAMPLE_COUNT_4_BIT ? chooseSamples(context, depthFormat_) : VK_SAMPLE_COUNT_1_BIT;
    bool msaa = samples_ != VK_SAMPLE_COUNT_1_BIT;
    const VkExtent2D extent{width_, height_};
    color_ = engine::Image(context, extent, kColorFormat, msaa ? kAttachmentOnly : kCopySource, samples_,
                           VK_IMAGE_ASPECT_COLOR_BIT, msaa ? "render.colorMsaa" : "render.color");
    depth_ = engine::Image(context, extent, depthFormat_, kDepthUsage, samples_, VK_IMAGE_ASPECT_DEPTH_BIT,
                           "render.depth");
    if (msaa)
      resolve_ = engine::Image(context, extent, kColorFormat, kCopySource, VK_SAMPLE_COUNT_1_BIT,
                               VK_IMAGE_ASPECT_COLOR_BIT, "render.color");
    createRenderPass(context);

    std::array<VkImageView, 3> views = {color_.view(), depth_.view(), resolve_.view()};
    VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    info.renderPass = renderPass_;
    info.attachmentCount = msaa ? 3 : 2;
    info.pAttachments = views.data();
    info.width = width;
    info.height = height;
    info.layers = 1;
    VK_CHECK(vkCreateFramebuffer(device_, &info, nullptr, &framebuffer_));
    name(context, VK_OBJECT_TYPE_FRAMEBUFFER, framebuffer_, "render.framebuffer");

    readback_ = engine::Buffer(context, VkDeviceSize(width) * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               engine::MemoryUsage::Readback, "render.readback");
  } catch (...) {
    release();  // the destructor does not run for a constructor that throws
    throw;
  }
}

void RenderTarget::createRenderPass(const engine::Context& context) {
  bool msaa = samples_ != VK_SAMPLE_COUNT_1_BIT;
  // Every attachment starts UNDEFINED and is cleared (or fully resolved): nothing of the last frame
  // is kept. The image the copy reads ends in TRANSFER_SRC_OPTIMAL, so no barrier outside the pass
  // changes layouts.
  std::array<VkAttachmentDescription, 3> attachments{};
  VkAttachmentDescription& color = attachments[0];
  color.format = kColorFormat;
  color.samples = samples_;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = msaa ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE;
  color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  color.finalLayout = msaa ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentDescription& depth = attachments[1];
  depth.format = depthFormat_;
  depth.samples = samples_;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  depth.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  depth.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  VkAttachmentDescription& resolve = attachments[2];
  resolve.format = kColorFormat;
  resolve.samples = VK_SAMPLE_COUNT_1_BIT;
  resolve.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  resolve.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  resolve.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  resolve.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  resolve.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  resolve.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;

  VkAttachmentReference colorRef{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference depthRef{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkAttachmentReference resolveRef{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &colorRef;
  subpass.pResolveAttachments = msaa ? &resolveRef : nullptr;
  subpass.pDepthStencilAttachment = &depthRef;

  constexpr VkPipelineStageFlags kAttachmentStages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                     VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                                     VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  constexpr VkAccessFlags kAttachmentWrites =
      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  std::array<VkSubpassDependency, 2> dependencies{};
  // The previous frame drew into these attachments and its copy read the final image: this frame's
  // clears and layout transitions come after both.
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = kAttachmentStages | VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[0].srcAccessMask = kAttachmentWrites;
  dependencies[0].dstStageMask = kAttachmentStages;
  dependencies[0].dstAccessMask = kAttachmentWrites | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                  VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
  // The copy to the readback buffer reads what the pass drew (or resolved).
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;

  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = msaa ? 3 : 2;
  info.pAttachments = attachments.data();
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = static_cast<uint32_t>(dependencies.size());
  info.pDependencies = dependencies.data();
  VK_CHECK(vkCreateRenderPass(device_, &info, nullptr, &renderPass_));
  name(context, VK_OBJECT_TYPE_RENDER_PASS, renderPass_, "render.pass");
}

void RenderTarget::begin(VkCommandBuffer cmd, glm::vec3 clear) const {
  engine::beginRenderPass(cmd, renderPass_, framebuffer_, {width_, height_}, clear);
}

void RenderTarget::endAndCopy(VkCommandBuffer cmd) const {
  vkCmdEndRenderPass(cmd);  // its last dependency orders the copy after the drawing
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {width_, height_, 1};
  VkImage source = samples_ != VK_SAMPLE_COUNT_1_BIT ? resolve_.handle() : color_.handle();
  vkCmdCopyImageToBuffer(cmd, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.handle(), 1, &region);
}

void RenderTarget::release() {
  if (!device_) return;
  readback_ = engine::Buffer();
  if (framebuffer_) vkDestroyFramebuffer(device_, framebuffer_, nullptr);
  if (renderPass_) vkDestroyRenderPass(device_, renderPass_, nullptr);
  framebuffer_ = VK_NULL_HANDLE;
  renderPass_ = VK_NULL_HANDLE;
  resolve_ = engine::Image();
  depth_ = engine::Image();
  color_ = engine::Image();
  device_ = VK_NULL_HANDLE;
}

RenderTarget::~RenderTarget() { release(); }

RenderTarget::RenderTarget(RenderTarget&& other) noexcept { *this = std::move(other); }

RenderTarget& RenderTarget::operator=(RenderTarget&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    width_ = other.width_;
    height_ = other.height_;
    samples_ = other.samples_;
    depthFormat_ = other.depthFormat_;
    color_ = std::move(other.color_);
    depth_ = std::move(other.depth_);
    resolve_ = std::move(other.resolve_);
    renderPass_ = std::exchange(other.renderPass_, VK_NULL_HANDLE);
    framebuffer_ = std::exchange(other.framebuffer_, VK_NULL_HANDLE);
    readback_ = std::move(other.readback_);
  }
  return *this;
}

}  // namespace weft
