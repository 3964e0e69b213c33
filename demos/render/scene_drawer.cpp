#include "demos/render/scene_drawer.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "demos/render/camera.h"
#include "demos/render/palette.h"
#include "engine/commands.h"
#include "engine/context.h"
#include "engine/shader_library.h"
#include "shaders/shared.h"
#include "solver/model/vertex_triangles.h"

namespace weft {
namespace {

constexpr float kPlaneHalfSize = 3.f;  // m: the ground drawn around the point the camera looks at

// Each triangle edge once (sorted pairs, deduplicated), so the wireframe draws no line twice.
std::vector<uint32_t> buildEdges(const std::vector<glm::uvec3>& triangles) {
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(triangles.size() * 3);
  for (const glm::uvec3& t : triangles)
    for (int c = 0; c < 3; ++c) edges.emplace_back(std::minmax(t[c], t[(c + 1) % 3]));
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<uint32_t> out;
  out.reserve(edges.size() * 2);
  for (auto [a, b] : edges) out.insert(out.end(), {a, b});
  return out;
}

engine::Buffer uploadStorage(const engine::Context& context, const void* data, size_t bytes, const char* name) {
  engine::Buffer buffer(context, std::max<size_t>(bytes, 4), engine::kStorageUsage, engine::MemoryUsage::DeviceLocal,
                        name);
  if (bytes > 0) engine::uploadBuffer(context, buffer, data, bytes);
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

SceneDrawer::SceneDrawer(const engine::Context& context, const engine::ShaderLibrary& shaders, const ClothModel& model,
                         VkRenderPass renderPass, VkSampleCountFlagBits samples)
    : vk_(&context.vk()),
      particleCount_(static_cast<uint32_t>(model.particleCount())),
      triangleCount_(static_cast<uint32_t>(model.triangles.size())) {
  engine::GraphicsState state;
  state.cullMode = VK_CULL_MODE_NONE;  // cloth has two sides; the fragment shader shades both
  state.samples = samples;
  normalsProgram_ = engine::ComputeProgram(context, shaders, "normals.comp");
  clothProgram_ = engine::GraphicsProgram(context, shaders, "cloth.vert", "cloth.frag", renderPass, state);
  solidProgram_ = engine::GraphicsProgram(context, shaders, "solid.vert", "solid.frag", renderPass, state);
  // Lines from cloth.vert pulling edge endpoints instead of triangle corners: no fillModeNonSolid needed.
  engine::GraphicsState lines = state;
  lines.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  wireProgram_ = engine::GraphicsProgram(context, shaders, "cloth.vert", "cloth.frag", renderPass, lines);
  springProgram_ = engine::GraphicsProgram(context, shaders, "cloth.vert", "flat.frag", renderPass, lines);
  particleProgram_ = engine::GraphicsProgram(context, shaders, "particles.vert", "flat.frag", renderPass, state);
  markProgram_ = engine::GraphicsProgram(context, shaders, "contact_marks.vert", "flat.frag", renderPass, state);

  std::vector<uint32_t> corners;
  corners.reserve(model.triangles.size() * 3);
  for (const glm::uvec3& t : model.triangles) corners.insert(corners.end(), {t.x, t.y, t.z});
  VertexTriangles around = buildVertexTriangles(model.triangles, model.particleCount());
  std::vector<uint32_t> edges = buildEdges(model.triangles);
  edgeCount_ = static_cast<uint32_t>(edges.size() / 2);
  triangles_ = uploadStorage(context, corners.data(), corners.size() * 4, "render.triangles");
  edges_ = uploadStorage(context, edges.data(), edges.size() * 4, "render.edges");
  std::vector<uint32_t> springEnds;
  springEnds.reserve(model.springs.size() * 2);
  for (SpringKind kind : {SpringKind::Structural, SpringKind::Shear, SpringKind::Bend})
    for (const Spring& spring : model.springs)
      if (spring.kind == kind) {
        springEnds.insert(springEnds.end(), {spring.a, spring.b});
        ++springCounts_[static_cast<size_t>(kind)];
      }
  springs_ = uploadStorage(context, springEnds.data(), springEnds.size() * 4, "render.springs");
  vertexTriRows_ = uploadStorage(context, around.rows.data(), around.rows.size() * 4, "render.vertexTriRows");
  vertexTris_ = uploadStorage(context, around.triangles.data(), around.triangles.size() * 4, "render.vertexTris");
  normals_ = engine::Buffer(context, std::max<VkDeviceSize>(VkDeviceSize(particleCount_) * sizeof(glm::vec4), 16),
                            engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, "render.normals");
}

void SceneDrawer::recordNormals(VkCommandBuffer cmd, const engine::Buffer& positions) const {
  if (positions.size() < VkDeviceSize(particleCount_) * sizeof(glm::vec4))
    throw std::invalid_argument("SceneDrawer: position buffer '" + positions.name() + "' is too small");
  // normals.comp reads positions the solver's last pass wrote, and overwrites the normals the
  // previous frame's vertex shader read.
  engine::barrier::computeToCompute(*vk_, cmd);
  engine::barrier::graphicsToCompute(*vk_, cmd);
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
  engine::barrier::computeToGraphics(*vk_, cmd);  // the draw reads the normals (and the positions)
}

void SceneDrawer::recordDraw(VkCommandBuffer cmd, const engine::Buffer& positions,
                             const std::vector<ColliderDesc>& colliders, const CameraDesc& camera,
                             const glm::mat4& viewProjection, DrawMode mode, glm::vec2 viewportPixels,
                             const engine::Buffer* contactMarks) const {
  glm::vec3 light = lightDirection(camera);
  recordColliders(cmd, colliders, camera, viewProjection, light);
  if (mode == DrawMode::Springs) {
    recordSprings(cmd, positions, viewProjection, viewportPixels);
    return;
  }
  const bool wireframe = mode == DrawMode::Wireframe;
  uint32_t indices = wireframe ? 2 * edgeCount_ : 3 * triangleCount_;
  if (indices == 0) return;
  gpu::RenderParams params = renderParams(viewProjection, palette::kCloth, light);
  const engine::BufferBinding buffers[] = {{WEFT_BIND_RENDER_POSITIONS, &positions},
                                           {WEFT_BIND_RENDER_NORMALS, &normals_},
                                           {WEFT_BIND_RENDER_TRIANGLES, wireframe ? &edges_ : &triangles_}};
  (wireframe ? wireProgram_ : clothProgram_).bind(cmd, buffers, &params, sizeof(params));
  vk_->CmdDraw(cmd, indices, 1, 0, 0);  // cloth.vert pulls triangles[gl_VertexIndex]
  if (mode == DrawMode::Contacts && contactMarks != nullptr)
    recordContactMarks(cmd, positions, *contactMarks, camera, viewProjection, viewportPixels);
}

const std::array<ContactMarkKey, 4>& contactMarkKeys() {
  static const std::array<ContactMarkKey, 4> keys{{
      {WEFT_CONTACT_MARK_NEAR, palette::kContactNear, "within the contact radius of a foreign primitive"},
      {WEFT_CONTACT_MARK_PUSHED, palette::kContactPushed, "pushed back to the thickness"},
      {WEFT_CONTACT_MARK_LIMITED, palette::kContactLimited, "move cut short by its bound"},
      {WEFT_CONTACT_MARK_HELD, palette::kContactHeld, "held: nearer than the hold distance"},
  }};
  return keys;
}

void SceneDrawer::recordContactMarks(VkCommandBuffer cmd, const engine::Buffer& positions, const engine::Buffer& marks,
                                     const CameraDesc& camera, const glm::mat4& viewProjection,
                                     glm::vec2 viewportPixels) const {
  if (particleCount_ == 0 || marks.size() < VkDeviceSize(particleCount_) * sizeof(uint32_t)) return;
  constexpr float kMarkPixels = 2.5f;        // half size of a mark's square
  constexpr float kTowardsEye = 0.004f;      // of the way to the eye: in front of the surface it marks
  const engine::BufferBinding buffers[] = {{WEFT_BIND_RENDER_POSITIONS, &positions},
                                           {WEFT_BIND_RENDER_CONTACT_MARKS, &marks}};
  for (const ContactMarkKey& key : contactMarkKeys()) {
    gpu::RenderParams params = renderParams(viewProjection, key.color, glm::vec3(0.f, 1.f, 0.f));
    params.transform = glm::vec4(camera.eye, kTowardsEye);
    params.shape = glm::vec4(2.f * kMarkPixels / glm::max(viewportPixels, glm::vec2(1.f)), float(key.mark), 0.f);
    markProgram_.bind(cmd, buffers, &params, sizeof(params));
    vk_->CmdDraw(cmd, 6 * particleCount_, 1, 0, 0);
  }
}

void SceneDrawer::recordSprings(VkCommandBuffer cmd, const engine::Buffer& positions,
                                const glm::mat4& viewProjection, glm::vec2 viewportPixels) const {
  const engine::BufferBinding springs[] = {{WEFT_BIND_RENDER_POSITIONS, &positions},
                                           {WEFT_BIND_RENDER_NORMALS, &normals_},
                                           {WEFT_BIND_RENDER_TRIANGLES, &springs_}};
  const glm::vec3 colours[3] = {palette::kStructural, palette::kShear, palette::kBend};
  uint32_t first = 0;
  for (size_t kind = 0; kind < 3; ++kind) {
    if (springCounts_[kind] > 0) {
      gpu::RenderParams params = renderParams(viewProjection, colours[kind], glm::vec3(0.f, 1.f, 0.f));
      springProgram_.bind(cmd, springs, &params, sizeof(params));
      vk_->CmdDraw(cmd, 2 * springCounts_[kind], 1, 2 * first, 0);  // cloth.vert pulls springs[gl_VertexIndex]
    }
    first += springCounts_[kind];
  }
  if (particleCount_ == 0) return;
  constexpr float kParticlePixels = 1.5f;  // half size of a particle's square
  gpu::RenderParams params = renderParams(viewProjection, palette::kParticle, glm::vec3(0.f, 1.f, 0.f));
  params.shape = glm::vec4(2.f * kParticlePixels / glm::max(viewportPixels, glm::vec2(1.f)), 0.f, 0.f);
  const engine::BufferBinding particles[] = {{WEFT_BIND_RENDER_POSITIONS, &positions}};
  particleProgram_.bind(cmd, particles, &params, sizeof(params));
  vk_->CmdDraw(cmd, 6 * particleCount_, 1, 0, 0);
}

const char* drawModeName(DrawMode mode) {
  switch (mode) {
    case DrawMode::Shaded: return "shaded";
    case DrawMode::Wireframe: return "wireframe";
    case DrawMode::Springs: return "springs and particles";
    case DrawMode::Contacts: return "contacts";
  }
  return "?";
}

std::optional<DrawMode> drawModeNamed(const std::string& name) {
  if (name == "shaded") return DrawMode::Shaded;
  if (name == "wireframe") return DrawMode::Wireframe;
  if (name == "springs") return DrawMode::Springs;
  if (name == "contacts") return DrawMode::Contacts;
  return std::nullopt;
}

void SceneDrawer::recordColliders(VkCommandBuffer cmd, const std::vector<ColliderDesc>& colliders,
                                  const CameraDesc& camera, const glm::mat4& viewProjection,
                                  glm::vec3 lightDir) const {
  for (const ColliderDesc& collider : colliders) {
    if (collider.kind == ColliderDesc::Kind::Mesh) {
      recordMeshCollider(cmd, collider, viewProjection, lightDir);
      continue;
    }
    // Drawn `margin` inside the solid: the cloth rests `margin` outside it, so the two never z-fight.
    gpu::RenderParams params;
    uint32_t vertexCount = 0;
    if (collider.kind == ColliderDesc::Kind::Sphere) {
      params = renderParams(viewProjection, palette::kSphere, lightDir);
      float radius = std::max(collider.radius - collider.margin, 0.5f * collider.radius);
      params.transform = glm::vec4(collider.center, radius);
      params.shape = glm::vec4(0.f, 0.f, 0.f, float(WEFT_SOLID_SPHERE));
      vertexCount = WEFT_SPHERE_SEGMENTS * WEFT_SPHERE_RINGS * 6;
    } else if (collider.kind == ColliderDesc::Kind::Capsule) {
      params = renderParams(viewProjection, palette::kSphere, lightDir);
      float radius = std::max(collider.radius - collider.margin, 0.5f * collider.radius);
      params.transform = glm::vec4(0.5f * (collider.center + collider.end), radius);
      const glm::vec3 halfAxis = 0.5f * (collider.end - collider.center);
      // A capsule with coincident ends is a sphere; the vertex shader needs some axis.
      params.shape = glm::vec4(glm::length(halfAxis) > 0.f ? halfAxis : glm::vec3(0.f, 1e-6f, 0.f),
                               float(WEFT_SOLID_CAPSULE));
      vertexCount = WEFT_SPHERE_SEGMENTS * WEFT_SPHERE_RINGS * 6;
    } else if (collider.kind == ColliderDesc::Kind::Box) {
      // The cube [-1, 1]^3 taken to the box by the matrix, lit in the box's own axes. Drawn at its
      // size: the cloth rests `margin` outside it.
      const glm::mat4 model = glm::translate(glm::mat4(1.f), collider.center) * glm::mat4_cast(collider.rotation) *
                              glm::scale(glm::mat4(1.f), collider.halfExtents);
      params = renderParams(viewProjection * model, palette::kSphere,
                            glm::inverse(collider.rotation) * lightDir);
      params.transform = glm::vec4(0.f, 0.f, 0.f, 1.f);
      params.shape = glm::vec4(0.f, 0.f, 0.f, float(WEFT_SOLID_BOX));
      vertexCount = 6 * 6;
    } else {
      params = renderParams(viewProjection, palette::kPlane, lightDir);
      glm::vec3 normal = glm::normalize(collider.normal);
      // The square is centred where the camera target projects onto the plane.
      glm::vec3 center = camera.target - (glm::dot(normal, camera.target) - collider.offset) * normal;
      center -= collider.margin * normal;
      params.transform = glm::vec4(center, kPlaneHalfSize);
      params.shape = glm::vec4(normal, float(WEFT_SOLID_PLANE));
      vertexCount = 6;
    }
    solidProgram_.bind(cmd, {}, &params, sizeof(params));
    vk_->CmdDraw(cmd, vertexCount, 1, 0, 0);
  }
}

// A mesh collider face by face: each draw takes the unit triangle to one face by its matrix, so no
// vertex buffer is made or kept in step with the mesh's pose. Drawn where its surface is (the
// cloth keeps half the thickness and the margin off it).
void SceneDrawer::recordMeshCollider(VkCommandBuffer cmd, const ColliderDesc& mesh, const glm::mat4& viewProjection,
                                     glm::vec3 lightDir) const {
  if (!mesh.mesh) return;
  const std::vector<glm::vec3> at = posedMeshVertices(mesh);
  for (const glm::uvec3& t : mesh.mesh->triangles) {
    const glm::vec3 a = at[t.x], ab = at[t.y] - a, ac = at[t.z] - a;
    const glm::vec3 n = glm::cross(ab, ac);
    if (!(glm::length(n) > 0.f)) continue;
    const glm::mat4 face(glm::vec4(ab, 0.f), glm::vec4(ac, 0.f), glm::vec4(glm::normalize(n), 0.f), glm::vec4(a, 1.f));
    gpu::RenderParams params = renderParams(viewProjection * face, palette::kSphere, lightDir);
    params.shape = glm::vec4(glm::normalize(n), float(WEFT_SOLID_TRIANGLE));
    solidProgram_.bind(cmd, {}, &params, sizeof(params));
    vk_->CmdDraw(cmd, 3, 1, 0, 0);
  }
}

}  // namespace weft
