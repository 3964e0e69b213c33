#include "demos/render/cloth_renderer.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "demos/render/camera.h"
#include "demos/render/png_file.h"
#include "engine/commands.h"
#include "engine/context.h"
#include "engine/shader_library.h"
#include "shaders/shared.h"

namespace weft {
namespace {

constexpr float kPlaneHalfSize = 3.f;  // m: the ground drawn around the point the camera looks at

// For each vertex, the triangles around it as a CSR table, so normals.comp gathers instead of
// scattering with atomics.
struct VertexTriangles {
  std::vector<uint32_t> rows;       // N + 1 starts into `triangles`
  std::vector<uint32_t> triangles;  // 3T triangle indices
};

VertexTriangles buildVertexTriangles(const std::vector<glm::uvec3>& triangles, size_t vertexCount) {
  VertexTriangles out;
  out.rows.assign(vertexCount + 1, 0);
  for (const glm::uvec3& t : triangles)
    for (int c = 0; c < 3; ++c) {
      if (t[c] >= vertexCount)
        throw std::invalid_argument("ClothRenderer: triangle corner " + std::to_string(t[c]) + " out of range");
      ++out.rows[t[c] + 1];
    }
  for (size_t i = 0; i < vertexCount; ++i) out.rows[i + 1] += out.rows[i];
  out.triangles.resize(triangles.size() * 3);
  std::vector<uint32_t> fill(out.rows.begin(), out.rows.end() - 1);
  for (uint32_t t = 0; t < triangles.size(); ++t)
    for (int c = 0; c < 3; ++c) out.triangles[fill[triangles[t][c]]++] = t;
  return out;
}

engine::Buffer uploadStorage(const engine::Context& context, const void* data, size_t bytes, const char* name) {
  engine::Buffer buffer(context, bytes, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, name);
  engine::uploadBuffer(context, buffer, data, bytes);
  return buffer;
}

gpu::RenderParams renderParams(const glm::mat4& viewProjection, glm::vec3 color, glm::vec3 lightDir) {
  gpu::RenderParams params{};
  params.viewProjection = viewProjection;
  params.color = glm::vec4(color, 1.f);
  params.lightDir = glm::vec4(lightDir, 0.f);
  params.transform = glm::vec4(0.f, 0.f, 0.f, 1.f);
  return params;
}

}  // namespace

ClothRenderer::ClothRenderer(engine::Context& context, const engine::ShaderLibrary& shaders,
                             const ClothModel& model, uint32_t width, uint32_t height,
                             VkSampleCountFlagBits maxSamples)
    : context_(&context),
      particleCount_(static_cast<uint32_t>(model.particleCount())),
      triangleCount_(static_cast<uint32_t>(model.triangles.size())),
      target_(context, width, height, maxSamples) {
  engine::GraphicsState state;
  state.cullMode = VK_CULL_MODE_NONE;  // cloth has two sides; the fragment shader shades both
  state.samples = target_.samples();
  normalsProgram_ = engine::ComputeProgram(context, shaders, "normals.comp");
  clothProgram_ = engine::GraphicsProgram(context, shaders, "cloth.vert", "cloth.frag", target_.renderPass(), state);
  solidProgram_ = engine::GraphicsProgram(context, shaders, "solid.vert", "solid.frag", target_.renderPass(), state);

  std::vector<uint32_t> corners;
  corners.reserve(model.triangles.size() * 3);
  for (const glm::uvec3& t : model.triangles) corners.insert(corners.end(), {t.x, t.y, t.z});
  VertexTriangles around = buildVertexTriangles(model.triangles, model.particleCount());
  triangles_ = uploadStorage(context, corners.data(), corners.size() * 4, "render.triangles");
  vertexTriRows_ = uploadStorage(context, around.rows.data(), around.rows.size() * 4, "render.vertexTriRows");
  vertexTris_ = uploadStorage(context, around.triangles.data(), around.triangles.size() * 4, "render.vertexTris");
  normals_ = engine::Buffer(context, VkDeviceSize(particleCount_) * sizeof(glm::vec4), engine::kStorageUsage,
                            engine::MemoryUsage::DeviceLocal, "render.normals");
  viewProjection_ = viewProjection(CameraDesc{}, float(width) / float(height));
}

void ClothRenderer::render(const std::vector<glm::vec4>& positions, const std::vector<ColliderDesc>& colliders,
                           const CameraDesc& camera) {
  if (positions.size() != particleCount_)
    throw std::invalid_argument("ClothRenderer: " + std::to_string(positions.size()) + " positions for a model of " +
                                std::to_string(particleCount_) + " particles");
  // Host-visible: the host writes it between frames (after the previous one's fence) and the
  // submission makes the writes visible, so no staging copy or extra submission per frame.
  if (!hostPositions_)
    hostPositions_ = engine::Buffer(*context_, VkDeviceSize(particleCount_) * sizeof(glm::vec4),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::Upload,
                                    "render.hostPositions");
  std::memcpy(hostPositions_.mapped(), positions.data(), positions.size() * sizeof(glm::vec4));
  render(hostPositions_, colliders, camera);
}

void ClothRenderer::render(const engine::Buffer& positions, const std::vector<ColliderDesc>& colliders,
                           const CameraDesc& camera) {
  if (positions.size() < VkDeviceSize(particleCount_) * sizeof(glm::vec4))
    throw std::invalid_argument("ClothRenderer: position buffer '" + positions.name() + "' is too small");
  viewProjection_ = viewProjection(camera, float(width()) / float(height()));
  glm::vec3 light = lightDirection(camera);

  engine::submitAndWait(*context_, [&](VkCommandBuffer cmd) {
    // normals.comp reads positions the solver's last pass wrote, and overwrites the normals the
    // previous frame's vertex shader read.
    engine::barrier::computeToCompute(cmd);
    engine::barrier::graphicsToCompute(cmd);
    if (particleCount_ > 0) {
      gpu::NormalsParams params{particleCount_, 0, 0, 0};
      normalsProgram_.dispatch(cmd, particleCount_,
                               {{WEFT_BIND_RENDER_POSITIONS, &positions},
                                {WEFT_BIND_RENDER_NORMALS, &normals_},
                                {WEFT_BIND_RENDER_TRIANGLES, &triangles_},
                                {WEFT_BIND_RENDER_VERTEX_TRI_ROWS, &vertexTriRows_},
                                {WEFT_BIND_RENDER_VERTEX_TRIS, &vertexTris_}},
                               params);
    }
    engine::barrier::computeToGraphics(cmd);  // the draw reads the normals (and the positions)

    target_.begin(cmd, kSkyColor);
    recordColliders(cmd, colliders, camera, light);
    if (triangleCount_ > 0) {
      gpu::RenderParams params = renderParams(viewProjection_, kClothColor, light);
      const engine::BufferBinding buffers[] = {{WEFT_BIND_RENDER_POSITIONS, &positions},
                                               {WEFT_BIND_RENDER_NORMALS, &normals_},
                                               {WEFT_BIND_RENDER_TRIANGLES, &triangles_}};
      clothProgram_.bind(cmd, buffers, &params, sizeof(params));
      vkCmdDraw(cmd, 3 * triangleCount_, 1, 0, 0);  // cloth.vert pulls triangles[gl_VertexIndex]
    }
    target_.endAndCopy(cmd);
    engine::barrier::transferToHost(cmd);  // pixels() reads the copy after the fence
    // The solver's next step overwrites the positions this frame's shaders read.
    engine::barrier::graphicsToCompute(cmd);
  });

  const uint8_t* bytes = target_.readback();
  pixels_.assign(bytes, bytes + size_t(width()) * height() * 4);
}

void ClothRenderer::recordColliders(VkCommandBuffer cmd, const std::vector<ColliderDesc>& colliders,
                                    const CameraDesc& camera, glm::vec3 lightDir) const {
  for (const ColliderDesc& collider : colliders) {
    // Drawn `margin` inside the solid: the cloth rests `margin` outside it, so the two never z-fight.
    gpu::RenderParams params;
    uint32_t vertexCount = 0;
    if (collider.kind == ColliderDesc::Kind::Sphere) {
      params = renderParams(viewProjection_, kSphereColor, lightDir);
      float radius = std::max(collider.radius - collider.margin, 0.5f * collider.radius);
      params.transform = glm::vec4(collider.center, radius);
      params.shape = glm::vec4(0.f, 0.f, 0.f, float(WEFT_SOLID_SPHERE));
      vertexCount = WEFT_SPHERE_SEGMENTS * WEFT_SPHERE_RINGS * 6;
    } else {
      params = renderParams(viewProjection_, kPlaneColor, lightDir);
      glm::vec3 normal = glm::normalize(collider.normal);
      // The square is centred where the camera target projects onto the plane.
      glm::vec3 center = camera.target - (glm::dot(normal, camera.target) - collider.offset) * normal;
      center -= collider.margin * normal;
      params.transform = glm::vec4(center, kPlaneHalfSize);
      params.shape = glm::vec4(normal, float(WEFT_SOLID_PLANE));
      vertexCount = 6;
    }
    solidProgram_.bind(cmd, {}, &params, sizeof(params));
    vkCmdDraw(cmd, vertexCount, 1, 0, 0);
  }
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
