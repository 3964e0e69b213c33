#pragma once
// The scene's draw commands, independent of where they land: a compute pass that writes vertex
// normals from a position buffer (recorded outside any render pass), then the colliders and the
// cloth (recorded inside a render pass the caller began). The offscreen ClothRenderer and the
// windowed viewer's swapchain are two users of it; a host application could be a third.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <vulkan/vulkan_core.h>

#include "demos/common/camera_desc.h"
#include "engine/buffer.h"
#include "engine/program.h"
#include "solver/model/cloth_model.h"
#include "solver/model/scene.h"

namespace weft {

namespace engine {
class Context;
class ShaderLibrary;
struct VulkanApi;
}  // namespace engine

// How the cloth is drawn: its shaded surface, its triangle edges, a diagram of its springs (one
// colour per family) and particles, or its shaded surface with what contact did to each particle
// (palette::kContact*: the solver's contact marks).
enum class DrawMode : uint8_t { Shaded, Wireframe, Springs, Contacts };
constexpr int kDrawModeCount = 4;
const char* drawModeName(DrawMode mode);  // for panels: "springs and particles"
// The mode a command line names ("shaded", "wireframe", "springs", "contacts"); nullopt otherwise.
std::optional<DrawMode> drawModeNamed(const std::string& name);
constexpr const char* kDrawModeNames = "shaded, wireframe, springs, contacts";
// What each colour of DrawMode::Contacts means, strongest mark last: a legend for panels and docs.
struct ContactMarkKey {
  uint32_t mark;  // WEFT_CONTACT_MARK_*
  glm::vec3 color;
  const char* meaning;
};
const std::array<ContactMarkKey, 4>& contactMarkKeys();

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

  // Inside a render pass with the viewport set: colliders, then the cloth as `mode` says.
  // `viewProjection` from camera.h's viewProjection(camera, aspect); `viewportPixels` sizes the
  // particle squares of the springs diagram and the contact marks. `contactMarks` (uint[N]
  // WEFT_CONTACT_MARK_* bits) is read by DrawMode::Contacts only, which draws the surface alone
  // without it.
  void recordDraw(VkCommandBuffer cmd, const engine::Buffer& positions, const std::vector<ColliderDesc>& colliders,
                  const CameraDesc& camera, const glm::mat4& viewProjection, DrawMode mode = DrawMode::Shaded,
                  glm::vec2 viewportPixels = {1280.f, 720.f}, const engine::Buffer* contactMarks = nullptr) const;

  uint32_t particleCount() const { return particleCount_; }

 private:
  void recordSprings(VkCommandBuffer cmd, const engine::Buffer& positions, const glm::mat4& viewProjection,
                     glm::vec2 viewportPixels) const;
  void recordContactMarks(VkCommandBuffer cmd, const engine::Buffer& positions, const engine::Buffer& marks,
                          const CameraDesc& camera, const glm::mat4& viewProjection, glm::vec2 viewportPixels) const;
  void recordMeshCollider(VkCommandBuffer cmd, const ColliderDesc& mesh, const glm::mat4& viewProjection,
                          glm::vec3 lightDir) const;
  void recordColliders(VkCommandBuffer cmd, const std::vector<ColliderDesc>& colliders, const CameraDesc& camera,
                       const glm::mat4& viewProjection, glm::vec3 lightDir) const;

  const engine::VulkanApi* vk_;  // the context's table, which records the draws
  uint32_t particleCount_ = 0;
  uint32_t triangleCount_ = 0;
  uint32_t edgeCount_ = 0;
  engine::ComputeProgram normalsProgram_;
  engine::GraphicsProgram clothProgram_;
  engine::GraphicsProgram wireProgram_;  // the same shaders on a line list of edge endpoints
  engine::GraphicsProgram solidProgram_;
  engine::GraphicsProgram springProgram_;    // cloth.vert on spring endpoints, flat colour
  engine::GraphicsProgram particleProgram_;  // particles.vert squares, flat colour
  engine::GraphicsProgram markProgram_;      // contact_marks.vert squares, flat colour
  engine::Buffer triangles_;      // uint[3T]
  engine::Buffer edges_;          // uint[2E], each edge once
  engine::Buffer springs_;        // uint[2S] spring endpoints, structural then shear then bend
  std::array<uint32_t, 3> springCounts_{};  // per family, in that order
  engine::Buffer vertexTriRows_;  // uint[N+1]
  engine::Buffer vertexTris_;     // uint[3T]
  engine::Buffer normals_;        // vec4[N]
};

}  // namespace weft
