#pragma once
// Offscreen rendering of the cloth and its colliders, straight from a position buffer: the
// SceneDrawer's normals pass and draws recorded into an offscreen render target, whose resolved image
// is copied back for PNG files and tests.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "demos/common/camera_desc.h"
#include "demos/render/palette.h"
#include "demos/render/render_target.h"
#include "demos/render/scene_drawer.h"
#include "engine/buffer.h"
#include "engine/program.h"
#include "solver/model/cloth_model.h"
#include "solver/model/scene.h"

namespace weft {

namespace engine {
class Context;
class ShaderLibrary;
}  // namespace engine

// The size of the pictures `weft run --png` and `weft replay --png` write: one frame of either
// renders the same.
constexpr uint32_t kPngWidth = 1280;
constexpr uint32_t kPngHeight = 720;

class ClothRenderer {
 public:
  // Tests compare pixels with these.
  static constexpr glm::vec3 kSkyColor = palette::kSky;
  static constexpr glm::vec3 kClothColor = palette::kCloth;
  static constexpr glm::vec3 kSphereColor = palette::kSphere;
  static constexpr glm::vec3 kPlaneColor = palette::kPlane;

  // Builds the vertex-to-triangle table of `model` once; the model may be dropped afterwards.
  // 4x MSAA where the device supports it; maxSamples = VK_SAMPLE_COUNT_1_BIT turns it off.
  ClothRenderer(engine::Context& context, const engine::ShaderLibrary& shaders, const ClothModel& model,
                uint32_t width, uint32_t height, VkSampleCountFlagBits maxSamples = VK_SAMPLE_COUNT_4_BIT);
  ~ClothRenderer() = default;
  ClothRenderer(ClothRenderer&&) noexcept = default;
  ClothRenderer& operator=(ClothRenderer&&) noexcept = default;
  ClothRenderer(const ClothRenderer&) = delete;
  ClothRenderer& operator=(const ClothRenderer&) = delete;

  // Renders one frame from `positions` (vec4 per particle, xyz in m: on the GPU backend the solver's
  // own buffer), copies the image back and waits. pixels() holds the result afterwards.
  // DrawMode::Contacts marks the particles from `contactMarks` (GpuSolver::contactMarkBuffer()).
  void render(const engine::Buffer& positions, const std::vector<ColliderDesc>& colliders,
              const CameraDesc& camera, DrawMode mode = DrawMode::Shaded,
              const engine::Buffer* contactMarks = nullptr);
  // CPU backend: copies host positions (and contact marks, Solver::lastContactMarks(), when given)
  // into buffers of the renderer's own, then renders.
  void render(const std::vector<glm::vec4>& positions, const std::vector<ColliderDesc>& colliders,
              const CameraDesc& camera, DrawMode mode = DrawMode::Shaded,
              const std::vector<uint32_t>& contactMarks = {});

  const std::vector<uint8_t>& pixels() const { return pixels_; }  // RGBA8, row-major, top row first
  uint32_t width() const { return target_.width(); }
  uint32_t height() const { return target_.height(); }
  VkSampleCountFlagBits samples() const { return target_.samples(); }

  // Writes pixels() as a PNG, whole or not at all; InputError naming the path on failure.
  void savePng(const std::string& path) const;

  // Pixel coordinates (x right, y down, pixel centres at .5) of a world point under the camera of
  // the last render() (the default CameraDesc before the first).
  glm::vec2 project(glm::vec3 world) const;

 private:
  const engine::Context* context_ = nullptr;
  uint32_t particleCount_ = 0;
  RenderTarget target_;  // before the drawer: its pipelines were made for the target's render pass
  SceneDrawer drawer_;
  engine::Buffer hostPositions_;  // vec4[N], host-visible: only for render(std::vector)
  engine::Buffer hostMarks_;      // uint[N], host-visible: likewise
  glm::mat4 viewProjection_{1.f};
  std::vector<uint8_t> pixels_;
};

}  // namespace weft
