#include "demos/view/viewer.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "demos/render/camera.h"
#include "demos/render/palette.h"
#include "demos/render/png_file.h"
#include "engine/commands.h"
#include "engine/vk_check.h"
#include "solver/gpu_solver.h"

namespace weft {

Viewer::Viewer(engine::Context& context, const engine::ShaderLibrary& shaders, Scene scene, Backend backend,
               const ViewOptions& options)
    : context_(context),
      scene_(std::move(scene)),
      backend_(backend),
      options_(options),
      solver_(makeSolver(scene_.cloth, solverParams(scene_), backend, &context, &shaders)),
      gpuSolver_(dynamic_cast<GpuSolver*>(solver_.get())),
      window_(context.instance(), options.width, options.height,
              "weft view - " + std::filesystem::path(options.scenePath).filename().string()),
      swapchain_(context, window_.surface(), window_.framebufferSize()),
      drawer_(context, shaders, scene_.cloth, swapchain_.renderPass(), VK_SAMPLE_COUNT_1_BIT),
      frames_(context),
      camera_(scene_.camera),
      wireframe_(options.wireframe) {
  solver_->readState(initialPositions_, initialVelocities_);
  if (!gpuSolver_)
    for (engine::Buffer& upload : uploads_)
      upload = engine::Buffer(context, initialPositions_.size() * sizeof(glm::vec4),
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::Upload, "view.hostPositions");
  installCallbacks();
}

Viewer::~Viewer() { vkDeviceWaitIdle(context_.device()); }

int Viewer::run() {
  auto last = std::chrono::steady_clock::now();
  double frameMs = 0.0;
  while (!window_.shouldClose()) {
    glfwPollEvents();
    VkExtent2D size = window_.framebufferSize();
    if (size.width == 0 || size.height == 0) {  // minimised: nothing to draw into
      glfwWaitEvents();
      continue;
    }
    const bool lastFrame = options_.frames && int(frame_) + 1 >= *options_.frames;
    const bool capture = (lastFrame && !options_.screenshotPath.empty()) || screenshotRequested_;
    if (!drawFrame(capture)) continue;
    if (capture) {
      // The captured frame's slot: wait for it, then its readback holds the image.
      vkWaitForFences(context_.device(), 1, &frames_[frame_ - 1].done, VK_TRUE, UINT64_MAX);
      std::string path = options_.screenshotPath;
      if (path.empty() || (screenshotRequested_ && !lastFrame))
        path = "weft-view-" + std::to_string(++screenshotCount_) + ".png";
      saveCapture(path);
      std::printf("weft: wrote %s\n", path.c_str());
      screenshotRequested_ = false;
    }
    auto now = std::chrono::steady_clock::now();
    frameMs = 0.9 * frameMs + 0.1 * std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
    if (frame_ % 30 == 0) updateTitle(frameMs);
    if (lastFrame) break;
  }
  vkDeviceWaitIdle(context_.device());
  if (context_.validationMessageCount() > 0) {
    std::fprintf(stderr, "weft: the validation layer reported %zu message(s)\n", context_.validationMessageCount());
    return 4;
  }
  return 0;
}

bool Viewer::drawFrame(bool capture) {
  VkDevice device = context_.device();
  FrameSlot& slot = frames_[frame_];
  VK_CHECK(vkWaitForFences(device, 1, &slot.done, VK_TRUE, UINT64_MAX));
  uint32_t image = 0;
  VkResult acquired = vkAcquireNextImageKHR(device, swapchain_.handle(), UINT64_MAX, slot.acquired, VK_NULL_HANDLE,
                                            &image);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    swapchain_.recreate(window_.framebufferSize());
    return false;
  }
  if (acquired != VK_SUBOPTIMAL_KHR) VK_CHECK(acquired);
  VK_CHECK(vkResetFences(device, 1, &slot.done));

  const bool advance = running_ || stepOnce_;
  stepOnce_ = false;
  const SolverSettings& s = scene_.solver;
  if (advance && (!gpuSolver_ || s.integrator == Integrator::ImplicitCg)) {
    if (gpuSolver_)  // implicit CG submits its own chunks: they overwrite what earlier frames drew from
      engine::submitAndWait(context_, [](VkCommandBuffer cmd) { engine::barrier::graphicsToCompute(cmd); });
    solver_->advance(s.dt, s.substeps);
  }

  VK_CHECK(vkResetCommandBuffer(slot.cmd, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(slot.cmd, &begin));
  recordFrame(slot.cmd, image, advance && gpuSolver_ && s.integrator != Integrator::ImplicitCg, capture);
  VK_CHECK(vkEndCommandBuffer(slot.cmd));

  VkSemaphore renderDone = swapchain_.renderDone(image);
  VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &slot.acquired;
  submit.pWaitDstStageMask = &waitStage;  // the solver and normals passes need not wait for the image
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &slot.cmd;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &renderDone;
  VK_CHECK(vkQueueSubmit(context_.queue(), 1, &submit, slot.done));

  VkSwapchainKHR swapchain = swapchain_.handle();
  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &renderDone;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &image;
  VkResult presented = vkQueuePresentKHR(context_.queue(), &present);
  ++frame_;
  if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR || resized_) {
    resized_ = false;
    if (capture) vkWaitForFences(device, 1, &slot.done, VK_TRUE, UINT64_MAX);  // keep the readback
    swapchain_.recreate(window_.framebufferSize());
  } else {
    VK_CHECK(presented);
  }
  return true;
}

const engine::Buffer& Viewer::positionsFor(uint64_t frame) {
  if (gpuSolver_) return gpuSolver_->positionBuffer();  // drawn in place, no copy
  // CPU backend: the slot's own upload buffer, free again since its fence was waited on.
  const engine::Buffer& upload = uploads_[frame % kFramesInFlight];
  solver_->readState(hostPositions_, hostVelocities_);
  std::memcpy(upload.mapped(), hostPositions_.data(), hostPositions_.size() * sizeof(glm::vec4));
  return upload;  // the submission makes the host writes visible to the device
}

void Viewer::recordFrame(VkCommandBuffer cmd, uint32_t image, bool advance, bool capture) {
  if (gpuSolver_) {
    // The solver's passes overwrite positions that the previous frame's draw (maybe still in flight)
    // read: write-after-read across submissions, ordered by this barrier.
    engine::barrier::graphicsToCompute(cmd);
    if (advance)
      gpuSolver_->recordAdvance(cmd, scene_.solver.dt, scene_.solver.substeps);
    else
      gpuSolver_->recordHandle(cmd);  // paused: a drag still moves the held particle
  }
  const engine::Buffer& positions = positionsFor(frame_);
  drawer_.recordNormals(cmd, positions);
  VkExtent2D extent = swapchain_.extent();
  CameraDesc camera = camera_.desc();
  swapchain_.begin(cmd, image, palette::kSky);
  drawer_.recordDraw(cmd, positions, scene_.colliders, camera,
                     viewProjection(camera, float(extent.width) / float(extent.height)), wireframe_);
  vkCmdEndRenderPass(cmd);
  if (capture) recordCapture(cmd, image);
}

void Viewer::recordCapture(VkCommandBuffer cmd, uint32_t image) {
  if (!swapchain_.supportsCopy()) throw std::runtime_error("this surface's images cannot be copied for a screenshot");
  VkExtent2D extent = swapchain_.extent();
  VkDeviceSize bytes = VkDeviceSize(extent.width) * extent.height * 4;
  if (!capture_ || capture_.size() != bytes) {
    vkDeviceWaitIdle(context_.device());  // an earlier capture may still be copying into the old one
    capture_ = engine::Buffer(context_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback,
                              "view.capture");
  }
  VkImageMemoryBarrier toCopy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  toCopy.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toCopy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  toCopy.oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  toCopy.srcQueueFamilyIndex = toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  toCopy.image = swapchain_.image(image);
  toCopy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &toCopy);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyImageToBuffer(cmd, toCopy.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, capture_.handle(), 1, &region);
  // Back to presentable; the present waits on the semaphore signalled after this, so no access to order.
  VkImageMemoryBarrier toPresent = toCopy;
  toPresent.srcAccessMask = 0;
  toPresent.dstAccessMask = 0;
  toPresent.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toPresent);
  engine::barrier::transferToHost(cmd);
}

void Viewer::saveCapture(const std::string& path) const {
  VkExtent2D extent = swapchain_.extent();
  std::vector<uint8_t> rgba(static_cast<const uint8_t*>(capture_.mapped()),
                            static_cast<const uint8_t*>(capture_.mapped()) + capture_.size());
  if (swapchain_.isBgr())
    for (size_t i = 0; i < rgba.size(); i += 4) std::swap(rgba[i], rgba[i + 2]);
  for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;  // the window is opaque whatever alpha says
  writePng(path, extent.width, extent.height, rgba.data());
}

void Viewer::reset() {
  vkDeviceWaitIdle(context_.device());  // writeState uploads over buffers frames in flight read
  solver_->clearHandle();
  drag_ = Drag::None;
  solver_->writeState(initialPositions_, initialVelocities_);
}

void Viewer::updateTitle(double frameMs) {
  char title[256];
  std::snprintf(title, sizeof title, "weft view - %s - %s %s - %s - %.1f ms/frame",
                std::filesystem::path(options_.scenePath).filename().c_str(), backendName(backend_),
                integratorName(scene_.solver.integrator), running_ ? "running" : "paused", frameMs);
  glfwSetWindowTitle(window_.handle(), title);
}

}  // namespace weft
