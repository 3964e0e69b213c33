#pragma once
// The scene's draw commands, independent of where they land: a compute pass that writes vertex
// normals from a position buffer (recorded outside any render pass), then the colliders and the
// cloth (recorded inside a render pass the caller began). The offscreen ClothRenderer and the
// windowed viewer's swapchain are two users of it; a host application could be a third.
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include "engine/buffer.h"
#include "engine/program.h"
#include "solver/cloth_model.h"
#include "solver/scene.h"

namespace weft {

namespace engine {
class Context;
class ShaderLibrary;
}  // namespace engine

class SceneDrawer {
 public:
  SceneDrawer() = default;
  // Builds the vertex-to-triangle and edge tables of `model` once, and pipelines compatible with
  // `renderPass` (subpass 0, `samples` per pixel).
  SceneDrawer(const engine::Context& context, const engine::ShaderLibrary& shaders, const ClothModel& model,
              VkRenderPass renderPass, VkSampleCountFlagBits samples);

  // Outside a render pass. Writes the normals of `positions` (vec4 per particle) and leaves both
  // ready for the vertex shader. Its barriers order it after the solver's last pass and after the
  // previous frame's draw (which read the normals this overwrites), whatever submission those were in.
  void recordNormals(VkCommandBuffer cmd, const engine::Buffer& positions) const;

  // Inside a render pass with the viewport set: colliders, then the cloth (triangles, or its edges
  // when `wireframe`). `viewProjection` from camera.h's viewProjection(camera, aspect).
  void recordDraw(VkCommandBuffer cmd, const engine::Buffer& positions, const std::vector<ColliderDesc>& colliders,
                  const CameraDesc& camera, const glm::mat4& viewProjection, bool wireframe = false) const;

  uint32_t particleCount() const { return particleCount_; }

 private:
  void recordColliders(VkCommandBuffer cmd, const std::vector<ColliderDesc>& colliders, const CameraDesc& camera,
                       const glm::mat4& viewProjection, glm::vec3 lightDir) const;

  uint32_t particleCount_ = 0;
  uint32_t triangleCount_ = 0;
  uint32_t edgeCount_ = 0;
  engine::ComputeProgram normalsProgram_;
  engine::GraphicsProgram clothProgram_;
  engine::GraphicsProgram wireProgram_;  // the same shaders on a line list of edge endpoints
  engine::GraphicsProgram solidProgram_;
  engine::Buffer triangles_;      // uint[3T]
  engine::Buffer edges_;          // uint[2E], each edge once
  engine::Buffer vertexTriRows_;  // uint[N+1]
  engine::Buffer vertexTris_;     // uint[3T]
  engine::Buffer normals_;        // vec4[N]
};

}  // namespace weft
