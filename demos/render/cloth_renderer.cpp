#include "demos/render/cloth_renderer.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "demos/render/camera.h"
#include "demos/render/png_file.h"
#include "engine/commands.h"
#include "engine/context.h"
#include "engine/shader_library.h"

namespace weft {

ClothRenderer::ClothRenderer(engine::Context& context, const engine::ShaderLibrary& shaders,
                             const ClothModel& model, uint32_t width, uint32_t height,
                             VkSampleCountFlagBits maxSamples)
    : context_(&context),
      particleCount_(static_cast<uint32_t>(model.particleCount())),
      target_(context, width, height, maxSamples),
      drawer_(context, shaders, model, target_.renderPass(), target_.samples()) {
  viewProjection_ = viewProjection(CameraDesc{}, float(width) / float(height));
}

void ClothRenderer::render(const std::vector<glm::vec4>& positions, const std::vector<ColliderDesc>& colliders,
                           const CameraDesc& camera, DrawMode mode, const std::vector<uint32_t>& contactMarks) {
  if (positions.size() != particleCount_)
    throw std::invalid_argument("ClothRenderer: " + std::to_string(positions.size()) + " positions for a model of " +
                                std::to_string(particleCount_) + " particles");
  if (!contactMarks.empty() && contactMarks.size() != particleCount_)
    throw std::invalid_argument("ClothRenderer: " + std::to_string(contactMarks.size()) +
                                " contact marks for a model of " + std::to_string(particleCount_) + " particles");
  // Host-visible: the host writes them between frames (render waits for each frame's fence) and the
  // submission makes the writes visible, so no staging copy or extra submission per frame.
  engine::writeHostBuffer(*context_, hostPositions_, positions.data(), positions.size() * sizeof(glm::vec4),
                          "render.hostPositions");
  if (contactMarks.empty()) return render(hostPositions_, colliders, camera, mode);
  engine::writeHostBuffer(*context_, hostMarks_, contactMarks.data(), contactMarks.size() * sizeof(uint32_t),
                          "render.hostMarks");
  render(hostPositions_, colliders, camera, mode, &hostMarks_);
}

void ClothRenderer::render(const engine::Buffer& positions, const std::vector<ColliderDesc>& colliders,
                           const CameraDesc& camera, DrawMode mode, const engine::Buffer* contactMarks) {
  viewProjection_ = viewProjection(camera, float(width()) / float(height()));
  engine::submitAndWait(*context_, [&](VkCommandBuffer cmd) {
    drawer_.recordNormals(cmd, positions);
    target_.begin(cmd, kSkyColor);
    drawer_.recordDraw(cmd, positions, colliders, camera, viewProjection_, mode,
                       {float(width()), float(height())}, contactMarks);
    target_.endAndCopy(cmd);
    engine::barrier::transferToHost(context_->vk(), cmd);  // pixels() reads the copy after the fence
    // The solver's next step overwrites the positions this frame's shaders read.
    engine::barrier::graphicsToCompute(context_->vk(), cmd);
  });
  const uint8_t* bytes = target_.readback();
  pixels_.assign(bytes, bytes + size_t(width()) * height() * 4);
}

void ClothRenderer::savePng(const std::string& path) const {
  if (pixels_.empty()) throw std::logic_error("ClothRenderer::savePng before the first render()");
  writePng(path, width(), height(), pixels_.data());
}

glm::vec2 ClothRenderer::project(glm::vec3 world) const {
  glm::vec4 clip = viewProjection_ * glm::vec4(world, 1.f);
  glm::vec2 ndc = glm::vec2(clip) / clip.w;
  // The projection already flips Y, so NDC y = -1 is the top row, as in the framebuffer.
  return {(ndc.x * 0.5f + 0.5f) * float(width()), (ndc.y * 0.5f + 0.5f) * float(height())};
}

}  // namespace weft
