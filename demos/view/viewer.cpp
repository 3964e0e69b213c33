#include "demos/view/viewer.h"

#include <chrono>
#include <cmath>
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
#include "solver/gpu/gpu_solver.h"
#include "solver/model/kinematics.h"

namespace weft {
namespace {
// Timestamps per frame and pane: a frame of the heaviest in-frame integrator (Newton-Chebyshev at
// its iteration cap) records more passes than this; the timer then keeps the first ones only.
constexpr uint32_t kTimedPassesPerFrame = 2048;

std::string windowTitle(const ViewOptions& options) {
  const std::string& shown = options.replayPath.empty() ? options.scenePath : options.replayPath;
  return "weft view - " + std::filesystem::path(shown).filename().string();
}

// --msaa, or its default: 4x on a GPU; one sample on a CPU device, whose rasteriser would pay for
// every sample (ViewOptions::msaa).
VkSampleCountFlagBits wantedSamples(const engine::Context& context, const ViewOptions& options) {
  const int samples = options.msaa.value_or(context.deviceType() == "CPU" ? 1 : 4);
  return static_cast<VkSampleCountFlagBits>(samples);
}

}  // namespace

Viewer::Viewer(engine::Context& context, const engine::ShaderLibrary& shaders, ViewContent content,
               const ViewOptions& options)
    : context_(context),
      shaders_(shaders),
      content_(std::move(content)),
      options_(options),
      window_(context, options.width, options.height, windowTitle(options)),
      swapchain_(context, window_.surface(), window_.framebufferSize(), wantedSamples(context, options)),
      frames_(context),
      camera_(content_.camera),
      drawMode_(!options.draw.empty()  ? *drawModeNamed(options.draw)  // checked by view_command
                : options.wireframe ? DrawMode::Wireframe
                                    : DrawMode::Shaded),
      showPanel_(options.panel),
      running_(!options.paused) {
  if (static_cast<int>(swapchain_.samples()) < wantedSamples(context, options))
    std::printf("weft: the device draws this window with at most %d samples per pixel, not the %d asked\n",
                static_cast<int>(swapchain_.samples()), static_cast<int>(wantedSamples(context, options)));
  if (replaying()) {
    const RecordingHeader& h = content_.recording->header();
    clock_.emplace(h.frameCount, h.frameDt);
    if (options.paused) clock_->pause();
    Pane& pane = panes_.emplace_back();
    std::vector<glm::vec4> first = content_.recording->frame(0);
    pane.drawer = SceneDrawer(context, shaders, recordedCloth(*content_.recording, first), swapchain_.renderPass(),
                              swapchain_.samples());
    for (auto& upload : pane.uploads)
      upload = engine::Buffer(context, first.size() * sizeof(glm::vec4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                              engine::MemoryUsage::Upload, "view.replayPositions");
  }
  for (const ViewContent::PaneSolver& solver : content_.solvers) {
    Scene scene = content_.scene;
    scene.solver.integrator = solver.integrator;
    scene.solver.substeps = solver.substeps;
    Pane& pane = panes_.emplace_back();
    pane.sim = std::make_unique<LiveSimulation>(std::move(scene), content_.backend, &context, &shaders);
    pane.drawer = SceneDrawer(context, shaders, content_.scene.cloth, swapchain_.renderPass(), swapchain_.samples());
    if (!pane.sim->gpuSolver())
      for (auto& upload : pane.uploads)
        upload = engine::Buffer(context, content_.scene.cloth.particleCount() * sizeof(glm::vec4),
                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::Upload, "view.hostPositions");
  }
  for (Pane& pane : panes_)
    for (auto& timer : pane.timers) timer = engine::GpuTimer(context, kTimedPassesPerFrame);
  installCallbacks();  // before ImGui's, which chain to them
  imgui_ = std::make_unique<ImguiLayer>(context, window_.handle(), swapchain_.renderPass(), swapchain_.samples(),
                                        swapchain_.imageCount());
  if (options.recordFromStart) startRecording();
}

Viewer::~Viewer() {
  context_.vk().DeviceWaitIdle(context_.device());
  imgui_.reset();
}

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
    if (!drawFrame(capture, frameMs)) continue;
    if (capture) {
      // The captured frame's slot: wait for it, then its readback holds the image.
      context_.vk().WaitForFences(context_.device(), 1, &frames_[frame_ - 1].done, VK_TRUE, UINT64_MAX);
      std::string path = options_.screenshotPath;
      if (path.empty() || (screenshotRequested_ && !lastFrame))
        path = "weft-view-" + std::to_string(++screenshotCount_) + ".png";
      saveCapture(path);
      std::printf("weft: wrote %s\n", path.c_str());
      status_ = "wrote " + path;
      screenshotRequested_ = false;
    }
    auto now = std::chrono::steady_clock::now();
    frameMs = std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
    if (lastFrame) break;
  }
  context_.vk().DeviceWaitIdle(context_.device());
  if (recorder_) stopRecording();
  if (context_.validationMessageCount() > 0) {
    std::fprintf(stderr, "weft: the validation layer reported %zu message(s)\n", context_.validationMessageCount());
    return 4;
  }
  return 0;
}

void Viewer::collectSlot(uint64_t frame, double frameMs) {
  const size_t slot = frame % kFramesInFlight;
  for (Pane& pane : panes_) {
    PassTimes passes = pane.hostPasses[slot];
    for (auto& pass : pane.timers[slot].read()) passes.push_back(std::move(pass));
    if (frame >= kFramesInFlight) pane.history.push(frameMs, passes);
  }
  if (recorder_) recorder_->collect(frame);
}

bool Viewer::drawFrame(bool capture, double frameMs) {
  VkDevice device = context_.device();
  const engine::VulkanApi& vk = context_.vk();
  FrameSlot& slot = frames_[frame_];
  VK_CHECK(vk.WaitForFences(device, 1, &slot.done, VK_TRUE, UINT64_MAX));
  uint32_t image = 0;
  VkResult acquired =
      vk.AcquireNextImageKHR(device, swapchain_.handle(), UINT64_MAX, slot.acquired, VK_NULL_HANDLE, &image);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    swapchain_.recreate(window_.framebufferSize());
    return false;
  }
  if (acquired != VK_SUBOPTIMAL_KHR) VK_CHECK(acquired);
  VK_CHECK(vk.ResetFences(device, 1, &slot.done));
  collectSlot(frame_, frameMs);  // once per submission: a failed acquire comes back to this slot

  if (replaying()) replayFrame_ = clock_->tick(frameMs / 1000.0);
  imgui_->beginFrame();
  if (showPanel_) drawPanel();
  if (replaying()) replayFrame_ = clock_->frame();  // the panel may have scrubbed
  drawPaneLabels();  // after the panel: its edits may have rebuilt a solver
  advanceOnHost();
  for (Pane& pane : panes_) followTopology(pane);

  VK_CHECK(vk.ResetCommandBuffer(slot.cmd, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vk.BeginCommandBuffer(slot.cmd, &begin));
  recordFrame(slot.cmd, image, capture);
  VK_CHECK(vk.EndCommandBuffer(slot.cmd));
  stepOnce_ = false;

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
  VK_CHECK(vk.QueueSubmit(context_.queue(), 1, &submit, slot.done));

  VkSwapchainKHR swapchain = swapchain_.handle();
  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &renderDone;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &image;
  VkResult presented = vk.QueuePresentKHR(context_.queue(), &present);
  ++frame_;
  if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR || resized_) {
    resized_ = false;
    if (capture) vk.WaitForFences(device, 1, &slot.done, VK_TRUE, UINT64_MAX);  // keep the readback
    swapchain_.recreate(window_.framebufferSize());
  } else {
    VK_CHECK(presented);
  }
  return true;
}

// The simulations that cannot record their frame into the command buffer step here, before it is
// recorded: the CPU backend, and GPU integrators whose host decides between submissions.
void Viewer::advanceOnHost() {
  const size_t slot = frame_ % kFramesInFlight;
  for (Pane& pane : panes_) {
    pane.hostPasses[slot].clear();
    pane.advanced[slot] = simulating();
    if (!pane.sim || !simulating() || pane.sim->recordsIntoFrame()) continue;
    if (pane.sim->gpuSolver())  // its own submissions overwrite what frames in flight draw from
      engine::submitAndWait(context_,
                            [&](VkCommandBuffer cmd) { engine::barrier::graphicsToCompute(context_.vk(), cmd); });
    const SolverSettings& s = pane.sim->scene().solver;
    pane.sim->solver().advance(s.dt, s.substeps);
    pane.hostPasses[slot] = pane.sim->solver().lastPassTimes();
  }
}

void Viewer::followTopology(Pane& pane) {
  if (!pane.sim || !pane.sim->solver().tears()) return;
  const Solver& solver = pane.sim->solver();
  if (pane.drawnSolver == &solver && pane.drawnTopology == solver.topologyVersion()) return;
  if (pane.drawnSolver != nullptr || solver.topologyVersion() != 0) {
    context_.vk().DeviceWaitIdle(context_.device());  // frames in flight draw with the old buffers
    const ClothModel& cloth = *solver.tornModel();
    pane.drawer = SceneDrawer(context_, shaders_, cloth, swapchain_.renderPass(), swapchain_.samples());
    if (!pane.sim->gpuSolver())
      for (auto& upload : pane.uploads)
        upload = engine::Buffer(context_, cloth.particleCount() * sizeof(glm::vec4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                engine::MemoryUsage::Upload, "view.hostPositions");
    for (auto& upload : pane.markUploads) upload = engine::Buffer();  // made again at the new size when drawn
    if (recorder_ && &pane == &panes_[0]) {
      stopRecording();  // its frames all have the particle count it started with
      status_ += "; stopped: the cloth tore";
    }
  }
  pane.drawnSolver = &solver;
  pane.drawnTopology = solver.topologyVersion();
}

void Viewer::cutAlong(glm::vec2 from, glm::vec2 to) {
  if (glm::distance(from, to) < 1.f) return;
  const CameraDesc camera = paneCamera(dragPane_);
  const glm::vec4 r = paneRect(dragPane_);
  const Ray a = pixelRay(camera, {r.z, r.w}, from - glm::vec2(r.x, r.y));
  const Ray b = pixelRay(camera, {r.z, r.w}, to - glm::vec2(r.x, r.y));
  // The surface the pointer swept: the triangle from the eye out past anything in the scene.
  constexpr float kReach = 1000.f;  // m
  context_.vk().DeviceWaitIdle(context_.device());  // the cut reads and rewrites the state frames in flight use
  panes_[dragPane_].sim->solver().cut(a.origin, a.origin + kReach * a.direction, b.origin + kReach * b.direction);
}

const engine::Buffer& Viewer::positionsFor(Pane& pane, uint64_t frame) {
  const engine::Buffer& upload = pane.uploads[frame % kFramesInFlight];
  if (!pane.sim) {  // replay: the clock's frame, read from the file
    std::vector<glm::vec4> positions = content_.recording->frame(replayFrame_);
    std::memcpy(upload.mapped(), positions.data(), positions.size() * sizeof(glm::vec4));
    return upload;
  }
  if (GpuSolver* gpu = pane.sim->gpuSolver()) return gpu->positionBuffer();  // drawn in place, no copy
  // CPU backend: the slot's own upload buffer, free again since its fence was waited on.
  pane.sim->solver().readState(pane.hostPositions, pane.hostVelocities);
  std::memcpy(upload.mapped(), pane.hostPositions.data(), pane.hostPositions.size() * sizeof(glm::vec4));
  return upload;  // the submission makes the host writes visible to the device
}

const engine::Buffer* Viewer::contactMarksFor(Pane& pane, uint64_t frame) {
  if (drawMode_ != DrawMode::Contacts || !pane.sim) return nullptr;
  if (GpuSolver* gpu = pane.sim->gpuSolver()) return gpu->contactMarkBuffer();  // drawn in place
  const std::vector<uint32_t> marks = pane.sim->solver().lastContactMarks();
  if (marks.empty()) return nullptr;
  // The slot's own, free again since its fence was waited on (like its positions).
  engine::Buffer& upload = pane.markUploads[frame % kFramesInFlight];
  engine::writeHostBuffer(context_, upload, marks.data(), marks.size() * sizeof(uint32_t), "view.contactMarks");
  return &upload;
}

glm::vec4 Viewer::paneRect(size_t p) const {
  VkExtent2D e = swapchain_.extent();
  // Side by side, the panel gets a column of its own so it hides neither pane.
  const float left = panes_.size() > 1 && showPanel_ ? std::min(kPanelColumn, 0.5f * float(e.width)) : 0.f;
  const float width = (float(e.width) - left) / float(panes_.size());
  return {left + width * float(p), 0.f, width, float(e.height)};
}

CameraDesc Viewer::paneCamera(size_t p) const {
  CameraDesc camera = camera_.desc();
  const glm::vec4 r = paneRect(p);
  const float aspect = r.z / r.w;
  if (aspect < 1.f) {  // a tall pane (side by side): widen the view so it is as wide as the scene's was tall
    const float halfFov = glm::radians(camera.fovYDegrees) * 0.5f;
    camera.fovYDegrees = glm::degrees(2.f * std::atan(std::tan(halfFov) / aspect));
  }
  return camera;
}

void Viewer::recordFrame(VkCommandBuffer cmd, uint32_t image, bool capture) {
  const size_t slot = frame_ % kFramesInFlight;
  std::vector<const engine::Buffer*> positions, marks;
  for (size_t p = 0; p < panes_.size(); ++p) {
    Pane& pane = panes_[p];
    engine::GpuTimer& timer = pane.timers[slot];
    timer.reset(cmd);
    if (GpuSolver* gpu = pane.sim ? pane.sim->gpuSolver() : nullptr) {
      // The solver's passes overwrite positions that the previous frame's draw (maybe still in
      // flight) read: write-after-read across submissions, ordered by this barrier.
      engine::barrier::graphicsToCompute(context_.vk(), cmd);
      const SolverSettings& s = pane.sim->scene().solver;
      if (simulating() && pane.sim->recordsIntoFrame())
        gpu->recordAdvance(cmd, s.dt, s.substeps, &timer);
      else
        gpu->recordHandle(cmd);  // paused (or stepped on the host): a drag still moves the held particle
    }
    positions.push_back(&positionsFor(pane, frame_));
    marks.push_back(contactMarksFor(pane, frame_));
    if (p == 0 && recorder_ && pane.advanced[slot]) {
      if (pane.sim->gpuSolver())
        recorder_->recordCopy(cmd, frame_, *positions.back());
      else
        recorder_->add(pane.hostPositions);
    }
    engine::timed(&timer, cmd, "view.normals", [&] { pane.drawer.recordNormals(cmd, *positions.back()); });
  }

  swapchain_.begin(cmd, image, palette::kSky);
  for (size_t p = 0; p < panes_.size(); ++p) {
    const glm::vec4 r = paneRect(p);
    const CameraDesc camera = paneCamera(p);
    VkViewport viewport{r.x, r.y, r.z, r.w, 0.f, 1.f};
    VkRect2D scissor{{int32_t(r.x), int32_t(r.y)}, {uint32_t(r.z), uint32_t(r.w)}};
    context_.vk().CmdSetViewport(cmd, 0, 1, &viewport);
    context_.vk().CmdSetScissor(cmd, 0, 1, &scissor);
    // A live scene's where they are now, a replay's where its scene's paths had them at the frame
    // shown (they may move).
    const std::vector<ColliderDesc> colliders =
        panes_[p].sim        ? panes_[p].sim->solver().kinematics().collidersNow()
        : content_.recording ? collidersAtTime(content_.scene.colliders, replayFrame_ * double(content_.recording->header().frameDt))
                             : content_.scene.colliders;
    engine::timed(&panes_[p].timers[slot], cmd, "view.draw", [&] {
      panes_[p].drawer.recordDraw(cmd, *positions[p], colliders, camera, viewProjection(camera, r.z / r.w),
                                  drawMode_, {r.z, r.w}, marks[p]);
    });
  }
  imgui_->record(cmd);  // sets its own viewport and scissor
  context_.vk().CmdEndRenderPass(cmd);
  if (capture) recordCapture(cmd, image);
}

void Viewer::recordCapture(VkCommandBuffer cmd, uint32_t image) {
  const engine::VulkanApi& vk = context_.vk();
  if (!swapchain_.supportsCopy()) throw std::runtime_error("this surface's images cannot be copied for a screenshot");
  VkExtent2D extent = swapchain_.extent();
  VkDeviceSize bytes = VkDeviceSize(extent.width) * extent.height * 4;
  if (!capture_ || capture_.size() != bytes) {
    context_.vk().DeviceWaitIdle(context_.device());  // an earlier capture may still be copying into the old one
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
  vk.CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                        nullptr, 0, nullptr, 1, &toCopy);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vk.CmdCopyImageToBuffer(cmd, toCopy.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, capture_.handle(), 1, &region);
  // Back to presentable; the present waits on the semaphore signalled after this, so no access to order.
  VkImageMemoryBarrier toPresent = toCopy;
  toPresent.srcAccessMask = 0;
  toPresent.dstAccessMask = 0;
  toPresent.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  vk.CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &toPresent);
  engine::barrier::transferToHost(context_.vk(), cmd);
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
  if (replaying()) {
    clock_->scrub(0);
    clock_->play();
    return;
  }
  context_.vk().DeviceWaitIdle(context_.device());  // the rebuilt solvers replace buffers frames in flight read
  drag_ = Drag::None;
  for (Pane& pane : panes_) {
    pane.sim->reset();
    pane.history.clear();
  }
}

void Viewer::startRecording() {
  if (replaying() || recorder_) return;
  std::string path = options_.recordPath;
  if (path.empty() || recordingCount_ > 0) {
    const std::string stem = path.empty() ? "weft-view" : std::filesystem::path(path).stem().string();
    path = stem + "-" + std::to_string(++recordingCount_) + ".weftrec";
  } else {
    ++recordingCount_;
  }
  const Scene& scene = panes_[0].sim->scene();
  recorder_ = std::make_unique<FrameRecorder>(context_, path, uint32_t(scene.cloth.particleCount()),
                                              scene.cloth.triangles, scene.solver.dt, uint32_t(scene.solver.substeps));
  status_ = "recording to " + path;
}

void Viewer::stopRecording() {
  if (!recorder_) return;
  context_.vk().DeviceWaitIdle(context_.device());
  recorder_->finish(frame_);
  std::printf("weft: wrote %s (%u frames)\n", recorder_->path().c_str(), recorder_->frameCount());
  status_ = "wrote " + recorder_->path() + " (" + std::to_string(recorder_->frameCount()) + " frames)";
  recorder_.reset();
}

}  // namespace weft
