#pragma once
// Offscreen rendering of the cloth and its colliders, straight from a position buffer: a compute pass
// writes vertex normals, then one render pass draws the colliders and the cloth (vertex pulling, no
// vertex buffers), and the resolved image is copied back for PNG files and tests.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "demos/render/render_target.h"
#include "engine/buffer.h"
#include "engine/program.h"
#include "solver/cloth_model.h"
#include "solver/scene.h"

namespace weft {

namespace engine {
class Context;
class ShaderLibrary;
}  // namespace engine

class ClothRenderer {
 public:
  // Light grey-blue; tests compare background pixels with it.
  static constexpr glm::vec3 kSkyColor{0.78f, 0.84f, 0.90f};
  static constexpr glm::vec3 kClothColor{0.85f, 0.32f, 0.20f};
  static constexpr glm::vec3 kSphereColor{0.30f, 0.62f, 0.48f};
  static constexpr glm::vec3 kPlaneColor{0.62f, 0.60f, 0.56f};

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
  void render(const engine::Buffer& positions, const std::vector<ColliderDesc>& colliders,
              const CameraDesc& camera);
  // CPU backend: copies host positions into a buffer of the renderer's own, then renders.
  void render(const std::vector<glm::vec4>& positions, const std::vector<ColliderDesc>& colliders,
              const CameraDesc& camera);

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
  void recordColliders(VkCommandBuffer cmd, const std::vector<ColliderDesc>& colliders,
                       const CameraDesc& camera, glm::vec3 lightDir) const;

  const engine::Context* context_ = nullptr;
  uint32_t particleCount_ = 0;
  uint32_t triangleCount_ = 0;
  RenderTarget target_;  // before the programs: their pipelines were made for its render pass
  engine::ComputeProgram normalsProgram_;
  engine::GraphicsProgram clothProgram_;
  engine::GraphicsProgram solidProgram_;
  engine::Buffer triangles_;      // uint[3T]
  engine::Buffer vertexTriRows_;  // uint[N+1]
  engine::Buffer vertexTris_;     // uint[3T]
  engine::Buffer normals_;        // vec4[N]
  engine::Buffer hostPositions_;  // vec4[N], host-visible: only for render(std::vector)
  glm::mat4 viewProjection_{1.f};
  std::vector<uint8_t> pixels_;
};

}  // namespace weft
