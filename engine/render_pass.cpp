#include "engine/render_pass.h"

#include <array>

#include "engine/context.h"
#include "engine/vk_check.h"

namespace weft::engine {
namespace {

VkSampleCountFlags imageSampleCounts(const Context& context, VkFormat format, VkImageUsageFlags usage) {
  VkImageFormatProperties props;
  if (context.vk().GetPhysicalDeviceImageFormatProperties(context.physicalDevice(), format, VK_IMAGE_TYPE_2D,
                                                          VK_IMAGE_TILING_OPTIMAL, usage, 0, &props) != VK_SUCCESS)
    return VK_SAMPLE_COUNT_1_BIT;
  return props.sampleCounts;
}

VkAttachmentDescription clearedAttachment(VkFormat format, VkSampleCountFlagBits samples, VkAttachmentStoreOp store,
                                          VkImageLayout finalLayout) {
  VkAttachmentDescription a{};
  a.format = format;
  a.samples = samples;
  a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  a.storeOp = store;
  a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // nothing of the last frame is kept
  a.finalLayout = finalLayout;
  return a;
}

}  // namespace

VkRenderPass createDrawPass(const Context& context, const DrawPassDesc& desc, const std::string& name) {
  const bool msaa = desc.samples != VK_SAMPLE_COUNT_1_BIT;
  std::array<VkAttachmentDescription, 3> attachments{};
  // Multisampled colour is only the resolve's source: not stored, and left in the attachment layout.
  attachments[0] = clearedAttachment(desc.colorFormat, desc.samples,
                                     msaa ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
                                     msaa ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : desc.finalLayout);
  attachments[1] = clearedAttachment(desc.depthFormat, desc.samples, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  attachments[2] = clearedAttachment(desc.colorFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_STORE_OP_STORE,
                                     desc.finalLayout);
  attachments[2].loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;  // every pixel is resolved

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
  // The previous frame drew into the shared colour and depth attachments (and its copy read the kept
  // image): this frame's clears and layout transitions come after. COLOR_ATTACHMENT_OUTPUT in the
  // source scope also chains the swapchain's acquire semaphore, waited on at that stage, to the
  // transition of the image it hands out.
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = kAttachmentStages | (desc.copiedAfter ? VK_PIPELINE_STAGE_TRANSFER_BIT : 0);
  dependencies[0].srcAccessMask = kAttachmentWrites;
  dependencies[0].dstStageMask = kAttachmentStages;
  dependencies[0].dstAccessMask =
      kAttachmentWrites | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
  // The copy to the host reads what the pass drew or resolved.
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
  info.dependencyCount = desc.copiedAfter ? 2 : 1;
  info.pDependencies = dependencies.data();
  VkRenderPass pass = VK_NULL_HANDLE;
  VK_CHECK(context.vk().CreateRenderPass(context.device(), &info, nullptr, &pass));
  context.setName(VK_OBJECT_TYPE_RENDER_PASS, reinterpret_cast<uint64_t>(pass), name);
  return pass;
}

VkSampleCountFlagBits chooseSampleCount(const Context& context, VkFormat colorFormat, VkFormat depthFormat,
                                        VkSampleCountFlagBits wanted) {
  const VkPhysicalDeviceLimits& limits = context.properties().limits;
  const VkSampleCountFlags counts = limits.framebufferColorSampleCounts & limits.framebufferDepthSampleCounts &
                                    imageSampleCounts(context, colorFormat, kTransientColorUsage) &
                                    imageSampleCounts(context, depthFormat, kTransientDepthUsage);
  for (VkSampleCountFlagBits s : {VK_SAMPLE_COUNT_8_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_2_BIT})
    if (s <= wanted && (counts & s)) return s;
  return VK_SAMPLE_COUNT_1_BIT;
}

}  // namespace weft::engine
