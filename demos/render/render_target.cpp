#include "demos/render/render_target.h"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/context.h"
#include "engine/render_pass.h"
#include "engine/vk_check.h"

namespace weft {
namespace {

constexpr VkImageUsageFlags kCopySource = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;

template <class Handle>
void name(const engine::Context& context, VkObjectType type, Handle handle, const std::string& text) {
  context.setName(type, reinterpret_cast<uint64_t>(handle), text);
}

}  // namespace

RenderTarget::RenderTarget(const engine::Context& context, uint32_t width, uint32_t height,
                           VkSampleCountFlagBits maxSamples)
    : vk_(&context.vk()), device_(context.device()), width_(width), height_(height) {
  if (width == 0 || height == 0) throw std::invalid_argument("RenderTarget needs a non-empty image");
  try {
    depthFormat_ = engine::chooseDepthFormat(context);
    samples_ = engine::chooseSampleCount(context, kColorFormat, depthFormat_, maxSamples);
    bool msaa = samples_ != VK_SAMPLE_COUNT_1_BIT;
    const VkExtent2D extent{width_, height_};
    color_ = engine::Image(context, extent, kColorFormat, msaa ? engine::kTransientColorUsage : kCopySource, samples_,
                           VK_IMAGE_ASPECT_COLOR_BIT, msaa ? "render.colorMsaa" : "render.color");
    depth_ = engine::Image(context, extent, depthFormat_, engine::kTransientDepthUsage, samples_, VK_IMAGE_ASPECT_DEPTH_BIT,
                           "render.depth");
    if (msaa)
      resolve_ = engine::Image(context, extent, kColorFormat, kCopySource, VK_SAMPLE_COUNT_1_BIT,
                               VK_IMAGE_ASPECT_COLOR_BIT, "render.color");
    renderPass_ = engine::createDrawPass(context,
                                         {.colorFormat = kColorFormat,
                                          .depthFormat = depthFormat_,
                                          .samples = samples_,
                                          .finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                          .copiedAfter = true},
                                         "render.pass");

    std::array<VkImageView, 3> views = {color_.view(), depth_.view(), resolve_.view()};
    VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    info.renderPass = renderPass_;
    info.attachmentCount = msaa ? 3 : 2;
    info.pAttachments = views.data();
    info.width = width;
    info.height = height;
    info.layers = 1;
    VK_CHECK(vk_->CreateFramebuffer(device_, &info, nullptr, &framebuffer_));
    name(context, VK_OBJECT_TYPE_FRAMEBUFFER, framebuffer_, "render.framebuffer");

    readback_ = engine::Buffer(context, VkDeviceSize(width) * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               engine::MemoryUsage::Readback, "render.readback");
  } catch (...) {
    release();  // the destructor does not run for a constructor that throws
    throw;
  }
}

void RenderTarget::begin(VkCommandBuffer cmd, glm::vec3 clear) const {
  engine::beginRenderPass(*vk_, cmd, renderPass_, framebuffer_, {width_, height_}, clear);
}

void RenderTarget::endAndCopy(VkCommandBuffer cmd) const {
  vk_->CmdEndRenderPass(cmd);  // its last dependency orders the copy after the drawing
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {width_, height_, 1};
  VkImage source = samples_ != VK_SAMPLE_COUNT_1_BIT ? resolve_.handle() : color_.handle();
  vk_->CmdCopyImageToBuffer(cmd, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.handle(), 1, &region);
}

void RenderTarget::release() {
  if (!device_) return;
  readback_ = engine::Buffer();
  if (framebuffer_) vk_->DestroyFramebuffer(device_, framebuffer_, nullptr);
  if (renderPass_) vk_->DestroyRenderPass(device_, renderPass_, nullptr);
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
    vk_ = std::exchange(other.vk_, nullptr);
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
