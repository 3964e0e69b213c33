#include "engine/image.h"

#include <array>
#include <utility>

#include "engine/context.h"
#include "engine/vk_check.h"

namespace weft::engine {

Image::Image(const Context& context, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
             VkSampleCountFlagBits samples, VkImageAspectFlags aspect, const std::string& name)
    : vk_(&context.vk()), device_(context.device()) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VK_CHECK(vk_->CreateImage(device_, &info, nullptr, &image_));
  context.setName(VK_OBJECT_TYPE_IMAGE, reinterpret_cast<uint64_t>(image_), name);
  try {
    VkMemoryRequirements req;
    vk_->GetImageMemoryRequirements(device_, image_, &req);
    uint32_t type = context.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX) type = context.findMemoryType(req.memoryTypeBits, 0);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    VK_CHECK(vk_->AllocateMemory(device_, &alloc, nullptr, &memory_));
    context.setName(VK_OBJECT_TYPE_DEVICE_MEMORY, reinterpret_cast<uint64_t>(memory_), name + ".memory");
    VK_CHECK(vk_->BindImageMemory(device_, image_, memory_, 0));

    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image_;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format;
    view.subresourceRange = {aspect, 0, 1, 0, 1};
    VK_CHECK(vk_->CreateImageView(device_, &view, nullptr, &view_));
    context.setName(VK_OBJECT_TYPE_IMAGE_VIEW, reinterpret_cast<uint64_t>(view_), name + ".view");
  } catch (...) {
    release();  // the destructor does not run for a constructor that throws
    throw;
  }
}

Image::~Image() { release(); }

Image::Image(Image&& other) noexcept { *this = std::move(other); }

Image& Image::operator=(Image&& other) noexcept {
  if (this != &other) {
    release();
    vk_ = std::exchange(other.vk_, nullptr);
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
  }
  return *this;
}

void Image::release() {
  if (!device_) return;
  if (view_) vk_->DestroyImageView(device_, view_, nullptr);
  if (image_) vk_->DestroyImage(device_, image_, nullptr);
  if (memory_) vk_->FreeMemory(device_, memory_, nullptr);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  device_ = VK_NULL_HANDLE;
}

VkFormat chooseDepthFormat(const Context& context) {
  for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM}) {
    VkFormatProperties props;
    context.vk().GetPhysicalDeviceFormatProperties(context.physicalDevice(), format, &props);
    if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) return format;
  }
  return VK_FORMAT_D16_UNORM;
}

void beginRenderPass(const VulkanApi& vk, VkCommandBuffer cmd, VkRenderPass renderPass, VkFramebuffer framebuffer,
                     VkExtent2D extent, glm::vec3 clear) {
  std::array<VkClearValue, 2> clears{};
  clears[0].color = {{clear.r, clear.g, clear.b, 1.f}};
  clears[1].depthStencil = {1.f, 0};
  VkRenderPassBeginInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  info.renderPass = renderPass;
  info.framebuffer = framebuffer;
  info.renderArea = {{0, 0}, extent};
  info.clearValueCount = static_cast<uint32_t>(clears.size());
  info.pClearValues = clears.data();
  vk.CmdBeginRenderPass(cmd, &info, VK_SUBPASS_CONTENTS_INLINE);
  VkViewport viewport{0.f, 0.f, float(extent.width), float(extent.height), 0.f, 1.f};
  VkRect2D scissor{{0, 0}, extent};
  vk.CmdSetViewport(cmd, 0, 1, &viewport);
  vk.CmdSetScissor(cmd, 0, 1, &scissor);
}

}  // namespace weft::engine
