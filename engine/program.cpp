#include "engine/program.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "engine/buffer.h"
#include "engine/context.h"
#include "engine/record_stats.h"
#include "engine/shader_library.h"
#include "engine/vk_check.h"

namespace weft::engine {
namespace {

// SPIR-V opcodes and enums used by the reflection below (SPIR-V spec, section 3).
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kExecutionModeLocalSize = 17;
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;
constexpr uint32_t kDecorationSpecId = 1;

VkShaderModule createModule(const VulkanApi& vk, VkDevice device, const std::vector<uint32_t>& code) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = code.size() * sizeof(uint32_t);
  info.pCode = code.data();
  VkShaderModule module;
  VK_CHECK(vk.CreateShaderModule(device, &info, nullptr, &module));
  return module;
}

}  // namespace

ShaderLayout reflectShader(std::span<const uint32_t> spirv) {
  if (spirv.size() < 5 || spirv[0] != 0x07230203) throw std::invalid_argument("not a SPIR-V module");
  ShaderLayout layout;
  std::vector<std::pair<uint32_t, uint32_t>> bindingOf;  // (id, binding)
  std::vector<std::pair<uint32_t, uint32_t>> setOf;      // (id, set)
  for (size_t at = 5; at < spirv.size();) {
    uint32_t words = spirv[at] >> 16, op = spirv[at] & 0xffff;
    if (words == 0 || at + words > spirv.size()) throw std::invalid_argument("truncated SPIR-V module");
    if (op == kOpExecutionMode && words >= 6 && spirv[at + 2] == kExecutionModeLocalSize)
      layout.localSize = {spirv[at + 3], spirv[at + 4], spirv[at + 5]};
    if (op == kOpDecorate && words >= 4 && spirv[at + 2] == kDecorationBinding)
      bindingOf.emplace_back(spirv[at + 1], spirv[at + 3]);
    if (op == kOpDecorate && words >= 4 && spirv[at + 2] == kDecorationDescriptorSet)
      setOf.emplace_back(spirv[at + 1], spirv[at + 3]);
    if (op == kOpDecorate && words >= 4 && spirv[at + 2] == kDecorationSpecId) layout.specIds.push_back(spirv[at + 3]);
    at += words;
  }
  for (auto [id, set] : setOf)
    if (set != 0) throw std::invalid_argument("weft shaders use descriptor set 0 only");
  for (auto [id, binding] : bindingOf) layout.bindings.push_back(binding);
  std::sort(layout.bindings.begin(), layout.bindings.end());
  layout.bindings.erase(std::unique(layout.bindings.begin(), layout.bindings.end()), layout.bindings.end());
  std::sort(layout.specIds.begin(), layout.specIds.end());
  layout.specIds.erase(std::unique(layout.specIds.begin(), layout.specIds.end()), layout.specIds.end());
  return layout;
}

struct ProgramObjects {
  const Context* context = nullptr;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;

  ~ProgramObjects() {
    const VulkanApi& vk = context->vk();
    const VkDevice device = context->device();
    if (pipeline) {
      vk.DestroyPipeline(device, pipeline, nullptr);
      context->countPipelines(-1);
    }
    if (layout) vk.DestroyPipelineLayout(device, layout, nullptr);
    if (setLayout) vk.DestroyDescriptorSetLayout(device, setLayout, nullptr);
  }
};

void Program::createLayout(const Context& context, const std::vector<uint32_t>& bindings,
                           VkShaderStageFlags stages) {
  vk_ = &context.vk();
  device_ = context.device();
  objects_ = std::make_shared<ProgramObjects>();
  objects_->context = &context;
  // Every buffer is a push descriptor, and only those the SPIR-V uses are bound (a pass may offer
  // more): a kernel past the spec's floor would run on some devices and not on others, so it is
  // refused here, when it is built, rather than when a frame is recorded.
  if (bindings.size() > kMaxPushDescriptors)
    throw std::logic_error(name_ + " uses " + std::to_string(bindings.size()) + " storage buffers, more than the " +
                           std::to_string(kMaxPushDescriptors) + " push descriptors every Vulkan device offers");
  bindings_ = bindings;
  stages_ = stages;
  std::vector<VkDescriptorSetLayoutBinding> entries;
  for (uint32_t binding : bindings)
    entries.push_back({binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr});
  VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  setInfo.bindingCount = static_cast<uint32_t>(entries.size());
  setInfo.pBindings = entries.data();
  VK_CHECK(vk_->CreateDescriptorSetLayout(device_, &setInfo, nullptr, &setLayout_));
  objects_->setLayout = setLayout_;

  VkPushConstantRange range{stages, 0, kPushConstantBytes};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &setLayout_;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &range;
  VK_CHECK(vk_->CreatePipelineLayout(device_, &info, nullptr, &layout_));
  objects_->layout = layout_;
  context.setName(VK_OBJECT_TYPE_PIPELINE_LAYOUT, reinterpret_cast<uint64_t>(layout_), name_ + ".layout");
}

void Program::bind(VkCommandBuffer cmd, std::span<const BufferBinding> buffers, const void* push,
                   uint32_t pushBytes) const {
  std::array<VkDescriptorBufferInfo, kMaxPushDescriptors> infos{};
  std::array<VkWriteDescriptorSet, kMaxPushDescriptors> writes{};
  uint32_t count = 0;
  uint64_t boundBytes = 0;
  RecordStats* stats = recordStats();
  for (uint32_t binding : bindings_) {
    auto it = std::find_if(buffers.begin(), buffers.end(), [&](const BufferBinding& b) { return b.binding == binding; });
    if (it == buffers.end() || !it->buffer || !*it->buffer)
      throw std::logic_error(name_ + ": binding " + std::to_string(binding) + " was not given a buffer");
    if (count == infos.size()) throw std::logic_error(name_ + ": too many bindings");
    infos[count] = {it->buffer->handle(), 0, VK_WHOLE_SIZE};
    if (stats) {
      boundBytes += it->reach ? std::min<uint64_t>(*it->reach, it->buffer->size()) : it->buffer->size();
      stats->bound(it->buffer->handle(), it->buffer->size());
    }
    writes[count] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[count].dstBinding = binding;
    writes[count].descriptorCount = 1;
    writes[count].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[count].pBufferInfo = &infos[count];
    ++count;
  }
  vk_->CmdBindPipeline(cmd, bindPoint_, pipeline_);
  if (count) vk_->CmdPushDescriptorSetKHR(cmd, bindPoint_, layout_, 0, count, writes.data());
  if (pushBytes) vk_->CmdPushConstants(cmd, layout_, stages_, 0, pushBytes, push);
  // Graphics programs bind for draws, which are not counted.
  if (stats && bindPoint_ == VK_PIPELINE_BIND_POINT_COMPUTE) stats->dispatch(boundBytes);
}

ComputeProgram::ComputeProgram(const Context& context, const ShaderLibrary& library, const std::string& shaderName,
                               std::span<const SpecConstant> constants) {
  // One pipeline per kernel, device and set of the constants it declares: every solver on the
  // context gets a copy of the first. Looked up first by the constants given, which needs no SPIR-V;
  // then by those the kernel declares, so values it never reads build no second pipeline.
  auto keyOf = [&](std::span<const SpecConstant> used) {
    std::string key = library.shaderDir() + "|" + shaderName;
    for (const SpecConstant& c : used) key += '|' + std::to_string(c.id) + '=' + std::to_string(c.value);
    return key;
  };
  const std::string givenKey = keyOf(constants);
  if (auto built = std::static_pointer_cast<const ComputeProgram>(context.findProgram(givenKey))) {
    *this = *built;
    return;
  }
  std::vector<uint32_t> code = library.load(shaderName);
  ShaderLayout reflected = reflectShader(code);
  std::vector<SpecConstant> used;
  for (const SpecConstant& c : constants) {
    if (!std::binary_search(reflected.specIds.begin(), reflected.specIds.end(), c.id)) continue;
    if (std::any_of(used.begin(), used.end(), [&](const SpecConstant& u) { return u.id == c.id; }))
      throw std::logic_error(shaderName + ": specialization constant " + std::to_string(c.id) + " given twice");
    used.push_back(c);
  }
  const std::string usedKey = keyOf(used);
  if (auto built = std::static_pointer_cast<const ComputeProgram>(context.findProgram(usedKey))) {
    *this = *built;
    context.keepProgram(givenKey, built);
    return;
  }
  name_ = shaderName;
  bindPoint_ = VK_PIPELINE_BIND_POINT_COMPUTE;
  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint32_t> values;
  for (const SpecConstant& c : used) {
    entries.push_back({c.id, static_cast<uint32_t>(values.size() * sizeof(uint32_t)), sizeof(uint32_t)});
    values.push_back(c.value);
  }
  VkSpecializationInfo specialization{static_cast<uint32_t>(entries.size()), entries.data(),
                                      values.size() * sizeof(uint32_t), values.data()};
  if (reflected.localSize[1] != 1 || reflected.localSize[2] != 1)
    throw std::logic_error(shaderName + ": compute kernels are 1-D (local_size_y = local_size_z = 1)");
  localSize_ = reflected.localSize[0];
  maxGroupsX_ = context.properties().limits.maxComputeWorkGroupCount[0];
  createLayout(context, reflected.bindings, VK_SHADER_STAGE_COMPUTE_BIT);

  VkShaderModule module = createModule(*vk_, device_, code);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = entries.empty() ? nullptr : &specialization;
  info.layout = layout_;
  VkResult result = vk_->CreateComputePipelines(device_, context.pipelineCache(), 1, &info, nullptr, &pipeline_);
  vk_->DestroyShaderModule(device_, module, nullptr);
  VK_CHECK(result);
  objects_->pipeline = pipeline_;
  context.countPipelines(1);
  context.setName(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<uint64_t>(pipeline_), shaderName);
  auto kept = std::make_shared<const ComputeProgram>(*this);
  context.keepProgram(usedKey, kept);
  if (givenKey != usedKey) context.keepProgram(givenKey, kept);
}

void ComputeProgram::groupsFor(uint32_t threads, uint32_t& x, uint32_t& y) const {
  uint32_t groups = (threads + localSize_ - 1) / localSize_;
  x = std::min(groups, maxGroupsX_);
  y = x ? (groups + x - 1) / x : 0;
}

void ComputeProgram::dispatchGroups(VkCommandBuffer cmd, uint32_t threads) const {
  if (threads == 0) return;
  uint32_t x, y;
  groupsFor(threads, x, y);
  vk_->CmdDispatch(cmd, x, y, 1);
}

void ComputeProgram::dispatchIndirectGroups(VkCommandBuffer cmd, const Buffer& args, VkDeviceSize offset) const {
  vk_->CmdDispatchIndirect(cmd, args.handle(), offset);
}

GraphicsProgram::GraphicsProgram(const Context& context, const ShaderLibrary& library, const std::string& vertexShader,
                                 const std::string& fragmentShader, VkRenderPass renderPass,
                                 const GraphicsState& state) {
  name_ = vertexShader + "+" + fragmentShader;
  bindPoint_ = VK_PIPELINE_BIND_POINT_GRAPHICS;
  std::vector<uint32_t> vertCode = library.load(vertexShader);
  std::vector<uint32_t> fragCode = library.load(fragmentShader);
  std::vector<uint32_t> bindings = reflectShader(vertCode).bindings;
  for (uint32_t b : reflectShader(fragCode).bindings) bindings.push_back(b);
  std::sort(bindings.begin(), bindings.end());
  bindings.erase(std::unique(bindings.begin(), bindings.end()), bindings.end());
  createLayout(context, bindings, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT);

  VkShaderModule vert = createModule(*vk_, device_, vertCode);
  VkShaderModule frag = createModule(*vk_, device_, fragCode);
  VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                               {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vert;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = frag;
  stages[1].pName = "main";

  VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = state.topology;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = state.polygonMode;
  raster.cullMode = state.cullMode;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = state.samples;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = state.depthTest;
  depth.depthWriteEnable = state.depthWrite;
  depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  VkPipelineColorBlendAttachmentState blendAttachment{};
  blendAttachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                                   VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &blendAttachment;
  VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamicStates;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertexInput;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = layout_;
  info.renderPass = renderPass;
  info.subpass = state.subpass;
  // Without a render pass: dynamic rendering into the state's formats.
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &state.colorFormat;
  rendering.depthAttachmentFormat = state.depthFormat;
  if (!renderPass) info.pNext = &rendering;
  VkResult result = vk_->CreateGraphicsPipelines(device_, context.pipelineCache(), 1, &info, nullptr, &pipeline_);
  vk_->DestroyShaderModule(device_, vert, nullptr);
  vk_->DestroyShaderModule(device_, frag, nullptr);
  if (result == VK_SUCCESS) {
    objects_->pipeline = pipeline_;
    context.countPipelines(1);
  }
  VK_CHECK(result);
  context.setName(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<uint64_t>(pipeline_), name_);
}

}  // namespace weft::engine
