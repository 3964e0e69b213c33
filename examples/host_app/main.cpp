// A host application that embeds weft: its own Vulkan 1.3 instance and device (the loader's
// prototypes, no volk), its own dynamic-rendering pass, and two cloths on one weft::Device. weft's
// ClothDrawer draws the left cloth; the host's own pipeline draws the right one from weft's
// buffers. Runs headless and writes a PNG. docs/embedding.md walks through it.
//
//   host_app [--png FILE] [--frames N] [--no-validation] [--check]
//
// --check exits non-zero unless validation stayed silent, both cloths hang as physics says and
// alike, and each shows in the picture where it should.
#include <vulkan/vulkan.h>

#include <weft/weft.h>

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace {

constexpr uint32_t kWidth = 640, kHeight = 480;
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr int kSubsteps = 8;
constexpr float kFrameDt = 1.f / 60.f;
constexpr float kDrawShift = 0.65f;  // m: the left cloth is drawn this far left, the right one right
const glm::vec3 kLeftColor{0.85f, 0.25f, 0.2f};
const glm::vec3 kRightColor{0.2f, 0.35f, 0.9f};

const uint32_t kHostVert[] = {
#include "host.vert.inc"
};
const uint32_t kHostFrag[] = {
#include "host.frag.inc"
};

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed (VkResult " + std::to_string(result) + ")");
}

size_t gValidationMessages = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    ++gValidationMessages;
    std::fprintf(stderr, "validation: %s\n", data->pMessage);
  }
  return VK_FALSE;
}

bool hasLayer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

uint32_t memoryType(VkPhysicalDevice physical, uint32_t bits, VkMemoryPropertyFlags flags) {
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(physical, &props);
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & flags) == flags) return i;
  throw std::runtime_error("no suitable memory type");
}

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

Image makeImage(VkPhysicalDevice physical, VkDevice device, VkFormat format, VkImageUsageFlags usage,
                VkImageAspectFlags aspect) {
  Image out;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {kWidth, kHeight, 1};
  info.mipLevels = info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  check(vkCreateImage(device, &info, nullptr, &out.image), "vkCreateImage");
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device, out.image, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = memoryType(physical, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  check(vkAllocateMemory(device, &alloc, nullptr, &out.memory), "vkAllocateMemory");
  check(vkBindImageMemory(device, out.image, out.memory, 0), "vkBindImageMemory");
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = out.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {aspect, 0, 1, 0, 1};
  check(vkCreateImageView(device, &view, nullptr, &out.view), "vkCreateImageView");
  return out;
}

void destroyImage(VkDevice device, Image& image) {
  vkDestroyImageView(device, image.view, nullptr);
  vkDestroyImage(device, image.image, nullptr);
  vkFreeMemory(device, image.memory, nullptr);
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                  VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
                  VkAccessFlags2 dstAccess) {
  VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  barrier.srcStageMask = srcStage;
  barrier.srcAccessMask = srcAccess;
  barrier.dstStageMask = dstStage;
  barrier.dstAccessMask = dstAccess;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {aspect, 0, 1, 0, 1};
  VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dependency.imageMemoryBarrierCount = 1;
  dependency.pImageMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &dependency);
}

// The host's own pipeline: weft's position and normal buffers as vertex buffers, its index buffer.
struct HostPipeline {
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

struct HostPush {
  glm::mat4 viewProjection;
  glm::vec4 color;
};

VkShaderModule shaderModule(VkDevice device, const uint32_t* words, size_t bytes) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = bytes;
  info.pCode = words;
  VkShaderModule module;
  check(vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
  return module;
}

HostPipeline makeHostPipeline(VkDevice device) {
  HostPipeline out;
  VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(HostPush)};
  VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &push;
  check(vkCreatePipelineLayout(device, &layout, nullptr, &out.layout), "vkCreatePipelineLayout");

  VkShaderModule vert = shaderModule(device, kHostVert, sizeof kHostVert);
  VkShaderModule frag = shaderModule(device, kHostFrag, sizeof kHostFrag);
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vert, "main"};
  stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, frag, "main"};
  // Two vec4 streams, one per buffer: positions (w is the inverse mass, unused here) and normals.
  VkVertexInputBindingDescription bindings[] = {{0, 16, VK_VERTEX_INPUT_RATE_VERTEX}, {1, 16, VK_VERTEX_INPUT_RATE_VERTEX}};
  VkVertexInputAttributeDescription attributes[] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                    {1, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
  VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  input.vertexBindingDescriptionCount = 2;
  input.pVertexBindingDescriptions = bindings;
  input.vertexAttributeDescriptionCount = 2;
  input.pVertexAttributeDescriptions = attributes;
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = depth.depthWriteEnable = VK_TRUE;
  depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  VkPipelineColorBlendAttachmentState blendAttachment{};
  blendAttachment.colorWriteMask = 0xf;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &blendAttachment;
  VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamicStates;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &kColorFormat;
  rendering.depthAttachmentFormat = kDepthFormat;
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = out.layout;
  check(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &out.pipeline), "vkCreateGraphicsPipelines");
  vkDestroyShaderModule(device, vert, nullptr);
  vkDestroyShaderModule(device, frag, nullptr);
  return out;
}

struct Options {
  std::string png = "host_app.png";
  int frames = 90;
  bool validation = true;
  bool check = false;
};

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--png" && i + 1 < argc) o.png = argv[++i];
    else if (arg == "--frames" && i + 1 < argc) o.frames = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--no-validation") o.validation = false;
    else if (arg == "--check") o.check = true;
    else throw std::invalid_argument("usage: host_app [--png FILE] [--frames N] [--no-validation] [--check]");
  }
  return o;
}

// The picture's share of pixels in [x0, x1) whose colour leans to `color`'s dominant channel.
double share(const std::vector<uint8_t>& rgba, uint32_t x0, uint32_t x1, int channel) {
  size_t hits = 0;
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = x0; x < x1; ++x) {
      const uint8_t* p = &rgba[(size_t(y) * kWidth + x) * 4];
      int others = 0;
      for (int c = 0; c < 3; ++c)
        if (c != channel) others = std::max<int>(others, p[c]);
      if (p[channel] > others + 60) ++hits;
    }
  return double(hits) / double(size_t(x1 - x0) * kHeight);
}

int run(const Options& options) {
  // ---- The host's instance and device ----
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "weft host_app";
  app.apiVersion = VK_API_VERSION_1_3;
  std::vector<const char*> layers, instanceExtensions;
  const bool validation = options.validation && hasLayer("VK_LAYER_KHRONOS_validation");
  if (options.validation && !validation) std::fprintf(stderr, "host_app: no validation layer installed; running without\n");
  if (validation) {
    layers.push_back("VK_LAYER_KHRONOS_validation");
    instanceExtensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messengerInfo.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = onMessage;
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  instanceInfo.enabledLayerCount = uint32_t(layers.size());
  instanceInfo.ppEnabledLayerNames = layers.data();
  instanceInfo.enabledExtensionCount = uint32_t(instanceExtensions.size());
  instanceInfo.ppEnabledExtensionNames = instanceExtensions.data();
  if (validation) instanceInfo.pNext = &messengerInfo;
  VkInstance instance;
  check(vkCreateInstance(&instanceInfo, nullptr, &instance), "vkCreateInstance");
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  if (validation && createMessenger) check(createMessenger(instance, &messengerInfo, nullptr, &messenger), "messenger");

  uint32_t deviceCount = 0;
  vkEnumeratePhysicalDevices(instance, &deviceCount, nullptr);
  std::vector<VkPhysicalDevice> physicals(deviceCount);
  vkEnumeratePhysicalDevices(instance, &deviceCount, physicals.data());
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  uint32_t family = 0;
  for (VkPhysicalDevice candidate : physicals) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(candidate, &props);
    if (props.apiVersion < VK_API_VERSION_1_3) continue;
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, families.data());
    for (uint32_t f = 0; f < familyCount && !physical; ++f)
      if ((families[f].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) == (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) {
        physical = candidate;
        family = f;
      }
    if (physical) break;
  }
  if (!physical) throw std::runtime_error("no Vulkan 1.3 device with a graphics and compute queue");

  // weft's contract: its extensions and features, chained with the host's own (dynamic rendering,
  // synchronization2).
  const std::vector<const char*> extensions = weft::requiredDeviceExtensions();
  VkPhysicalDeviceFeatures2 features = weft::requiredDeviceFeatures();
  VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  features13.dynamicRendering = VK_TRUE;
  features13.synchronization2 = VK_TRUE;
  features.pNext = &features13;
  const float priority = 1.f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.pNext = &features;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = uint32_t(extensions.size());
  deviceInfo.ppEnabledExtensionNames = extensions.data();
  VkDevice device;
  check(vkCreateDevice(physical, &deviceInfo, nullptr, &device), "vkCreateDevice");
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);

  int failures = 0;
  {
    // ---- weft on the host's device ----
    weft::DeviceDesc desc;
    desc.instance = instance;
    desc.physicalDevice = physical;
    desc.device = device;
    desc.queueFamily = family;
    desc.queue = queue;
    desc.apiVersion = app.apiVersion;
    desc.getInstanceProcAddr = vkGetInstanceProcAddr;
    desc.enabledExtensions.assign(extensions.begin(), extensions.end());
    weft::Device cloths(desc);

    // Two cloths from one fabric: 1 m, held by two corners, swinging down from horizontal. They
    // are simulated in the same place, so they must move bit for bit alike, and drawn apart.
    weft::GridShape shape;
    shape.width = shape.height = 32;
    shape.origin = {-0.5f, 1.f, -0.5f};
    weft::Fabric sheet = weft::Fabric::grid(shape);
    sheet.pinCorners(weft::Corners::Two);
    weft::StepSettings settings;
    settings.integrator = "verlet";
    settings.iterations = 20;
    weft::GpuCloth a(cloths, sheet, settings), b(cloths, sheet, settings);
    a.prepare(kSubsteps);
    b.prepare(kSubsteps);
    weft::DrawTarget target;
    target.colorFormat = kColorFormat;
    target.depthFormat = kDepthFormat;
    weft::ClothDrawer drawer(cloths, target);
    std::printf("host_app: %s, %zu + %zu particles, %zu weft pipelines\n", cloths.name().c_str(), a.particleCount(),
                b.particleCount(), cloths.pipelineCount());

    // ---- The host's frame: its images, pipeline and command buffer ----
    Image color = makeImage(physical, device, kColorFormat,
                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
    Image depth = makeImage(physical, device, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                            VK_IMAGE_ASPECT_DEPTH_BIT);
    HostPipeline hostPipeline = makeHostPipeline(device);
    VkBufferCreateInfo readbackInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    readbackInfo.size = VkDeviceSize(kWidth) * kHeight * 4;
    readbackInfo.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer readback;
    check(vkCreateBuffer(device, &readbackInfo, nullptr, &readback), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, readback, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = memoryType(physical, req.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDeviceMemory readbackMemory;
    check(vkAllocateMemory(device, &alloc, nullptr, &readbackMemory), "vkAllocateMemory");
    check(vkBindBufferMemory(device, readback, readbackMemory, 0), "vkBindBufferMemory");
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = family;
    VkCommandPool pool;
    check(vkCreateCommandPool(device, &poolInfo, nullptr, &pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cmdInfo.commandPool = pool;
    cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmdInfo.commandBufferCount = 1;
    VkCommandBuffer cmd;
    check(vkAllocateCommandBuffers(device, &cmdInfo, &cmd), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    check(vkCreateFence(device, &fenceInfo, nullptr, &fence), "vkCreateFence");

    glm::mat4 projection = glm::perspectiveRH_ZO(glm::radians(45.f), float(kWidth) / float(kHeight), 0.05f, 20.f);
    projection[1][1] *= -1.f;  // Vulkan's clip space points y down
    const glm::mat4 viewProjection =
        projection * glm::lookAtRH(glm::vec3(0.f, 0.6f, 3.2f), glm::vec3(0.f, 0.45f, -0.5f), glm::vec3(0.f, 1.f, 0.f));

    for (int frame = 0; frame < options.frames; ++frame) {
      const bool last = frame + 1 == options.frames;
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
      // weft records its steps; the host orders its draws after them with one barrier per buffer.
      a.recordStep(cmd, kFrameDt, kSubsteps);
      b.recordStep(cmd, kFrameDt, kSubsteps);
      weft::recordBarrier(cloths, cmd, a.positionBuffer(), a.positionsWritten(), weft::vertexShaderRead());
      weft::recordBarrier(cloths, cmd, a.normalBuffer(), a.positionsWritten(), weft::vertexShaderRead());
      weft::recordBarrier(cloths, cmd, b.positionBuffer(), b.positionsWritten(), weft::vertexInput());
      weft::recordBarrier(cloths, cmd, b.normalBuffer(), b.positionsWritten(), weft::vertexInput());

      imageBarrier(cmd, color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                   VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
      imageBarrier(cmd, depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                   VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
      VkRenderingAttachmentInfo colorAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
      colorAttachment.imageView = color.view;
      colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      colorAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      colorAttachment.clearValue.color = {{0.78f, 0.8f, 0.82f, 1.f}};
      VkRenderingAttachmentInfo depthAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
      depthAttachment.imageView = depth.view;
      depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
      depthAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      depthAttachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      depthAttachment.clearValue.depthStencil = {1.f, 0};
      VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
      rendering.renderArea = {{0, 0}, {kWidth, kHeight}};
      rendering.layerCount = 1;
      rendering.colorAttachmentCount = 1;
      rendering.pColorAttachments = &colorAttachment;
      rendering.pDepthAttachment = &depthAttachment;
      vkCmdBeginRendering(cmd, &rendering);
      VkViewport viewport{0.f, 0.f, float(kWidth), float(kHeight), 0.f, 1.f};
      VkRect2D scissor{{0, 0}, {kWidth, kHeight}};
      vkCmdSetViewport(cmd, 0, 1, &viewport);
      vkCmdSetScissor(cmd, 0, 1, &scissor);
      // Left: weft's drawer. Right: the host's own pipeline on weft's buffers.
      drawer.record(cmd, a, viewProjection * glm::translate(glm::mat4(1.f), glm::vec3(-kDrawShift, 0.f, 0.f)),
                    {kLeftColor});
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, hostPipeline.pipeline);
      const HostPush push{viewProjection * glm::translate(glm::mat4(1.f), glm::vec3(kDrawShift, 0.f, 0.f)),
                          glm::vec4(kRightColor, 1.f)};
      vkCmdPushConstants(cmd, hostPipeline.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                         sizeof push, &push);
      const VkBuffer vertexBuffers[] = {b.positionBuffer(), b.normalBuffer()};
      const VkDeviceSize offsets[] = {b.positionOffset(), 0};
      vkCmdBindVertexBuffers(cmd, 0, 2, vertexBuffers, offsets);
      vkCmdBindIndexBuffer(cmd, b.indexBuffer(), 0, VK_INDEX_TYPE_UINT32);
      vkCmdDrawIndexed(cmd, b.indexCount(), 1, 0, 0, 0);
      vkCmdEndRendering(cmd);

      if (last) {
        imageBarrier(cmd, color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {kWidth, kHeight, 1};
        vkCmdCopyImageToBuffer(cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
        VkMemoryBarrier2 toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        toHost.srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT;
        toHost.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        toHost.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
        toHost.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
        VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dependency.memoryBarrierCount = 1;
        dependency.pMemoryBarriers = &toHost;
        vkCmdPipelineBarrier2(cmd, &dependency);
      }
      check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &cmd;
      check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
      check(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
      check(vkResetFences(device, 1, &fence), "vkResetFences");
    }

    std::vector<uint8_t> pixels(size_t(kWidth) * kHeight * 4);
    void* mapped = nullptr;
    check(vkMapMemory(device, readbackMemory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    std::memcpy(pixels.data(), mapped, pixels.size());
    vkUnmapMemory(device, readbackMemory);
    if (!stbi_write_png(options.png.c_str(), int(kWidth), int(kHeight), 4, pixels.data(), int(kWidth * 4))) {
      std::fprintf(stderr, "host_app: cannot write %s\n", options.png.c_str());
      ++failures;
    } else {
      std::printf("host_app: wrote %s after %d frames\n", options.png.c_str(), options.frames);
    }

    if (options.check) {
      // Physics: the two cloths are the same cloth in the same place, so they must move bit for bit
      // alike; held by two corners they have swung down from y = 1 m.
      std::vector<glm::vec4> pa, va, pb, vb;
      a.readState(pa, va);
      b.readState(pb, vb);
      float apart = 0.f, lowest = 1.f;
      for (size_t i = 0; i < pa.size(); ++i) {
        apart = std::max(apart, glm::length(glm::vec3(pb[i]) - glm::vec3(pa[i])));
        lowest = std::min(lowest, pa[i].y);
      }
      const double red = share(pixels, 0, kWidth / 2, 0), blue = share(pixels, kWidth / 2, kWidth, 2);
      const double redRight = share(pixels, kWidth / 2, kWidth, 0), blueLeft = share(pixels, 0, kWidth / 2, 2);
      std::printf("host_app: cloths differ by %.2e m, lowest point %.3f m; left half %.1f %% red, right half %.1f %% blue\n",
                  apart, lowest, 100 * red, 100 * blue);
      auto expect = [&](bool ok, const char* what) {
        if (!ok) {
          std::fprintf(stderr, "host_app: check failed: %s\n", what);
          ++failures;
        }
      };
      expect(apart == 0.f, "the two cloths should move bit for bit alike");
      expect(lowest < 0.3f, "the cloths should have swung down below y = 0.3 m");
      expect(red > 0.03 && blue > 0.03, "each cloth should cover at least 3 % of its half of the picture");
      expect(redRight < 0.001 && blueLeft < 0.001, "each cloth should stay in its own half");
      expect(gValidationMessages == 0, "validation should report nothing");
    }

    vkDestroyFence(device, fence, nullptr);
    vkDestroyCommandPool(device, pool, nullptr);
    vkDestroyBuffer(device, readback, nullptr);
    vkFreeMemory(device, readbackMemory, nullptr);
    vkDestroyPipeline(device, hostPipeline.pipeline, nullptr);
    vkDestroyPipelineLayout(device, hostPipeline.layout, nullptr);
    destroyImage(device, color);
    destroyImage(device, depth);
  }  // weft's objects go first: they wait for the device and destroy only what they made

  vkDestroyDevice(device, nullptr);
  if (messenger) {
    auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    destroyMessenger(instance, messenger, nullptr);
  }
  vkDestroyInstance(instance, nullptr);
  if (gValidationMessages) std::fprintf(stderr, "host_app: %zu validation messages\n", gValidationMessages);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parseOptions(argc, argv));
  } catch (const weft::InputError& e) {
    std::fprintf(stderr, "host_app: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "host_app: %s\n", e.what());
    return 1;
  }
}
