// weft::ClothDrawer: the renderer's cloth pipeline (cloth.vert pulls positions, normals and
// indices; cloth.frag shades both sides) built for the host's pass.
#include "weft/cloth_drawer.h"

#include <stdexcept>

#include "engine/program.h"
#include "shaders/shared.h"
#include "solver/api/api_internal.h"

namespace weft {

namespace detail {
struct ClothDrawerImpl {
  engine::GraphicsProgram program;
};
}  // namespace detail

ClothDrawer::ClothDrawer(Device& device, const DrawTarget& target) : impl_(std::make_unique<detail::ClothDrawerImpl>()) {
  if (!target.renderPass && target.colorFormat == VK_FORMAT_UNDEFINED)
    throw std::invalid_argument("ClothDrawer: a DrawTarget needs a render pass or, for dynamic rendering, a colour format");
  engine::GraphicsState state;
  state.samples = target.samples;
  state.subpass = target.subpass;
  if (target.renderPass) {
    state.depthTest = state.depthWrite = target.depth;
  } else {
    state.colorFormat = target.colorFormat;
    state.depthFormat = target.depthFormat;
    state.depthTest = state.depthWrite = target.depthFormat != VK_FORMAT_UNDEFINED;
  }
  const detail::DeviceImpl& d = device.impl();
  impl_->program = engine::GraphicsProgram(*d.context, d.shaders, "cloth.vert", "cloth.frag", target.renderPass, state);
}

ClothDrawer::~ClothDrawer() = default;
ClothDrawer::ClothDrawer(ClothDrawer&&) noexcept = default;
ClothDrawer& ClothDrawer::operator=(ClothDrawer&&) noexcept = default;

void ClothDrawer::record(VkCommandBuffer cmd, const GpuCloth& cloth, const glm::mat4& viewProjection,
                         const DrawStyle& style) const {
  const detail::GpuClothImpl& c = cloth.impl();
  if (!c.normals) throw std::invalid_argument("ClothDrawer: the cloth was made without normals (GpuClothOptions::normals)");
  if (c.indexCount == 0) return;
  gpu::RenderParams params{};
  params.viewProjection = viewProjection;
  params.color = glm::vec4(style.color, 1.f);
  const float length = glm::length(style.lightDirection);
  params.lightDir = glm::vec4(length > 0.f ? style.lightDirection / length : glm::vec3(0.f, 1.f, 0.f), 0.f);
  const engine::BufferBinding buffers[] = {{WEFT_BIND_RENDER_POSITIONS, &c.drawPositions()},
                                           {WEFT_BIND_RENDER_NORMALS, &c.normals},
                                           {WEFT_BIND_RENDER_TRIANGLES, &c.indices}};
  impl_->program.bind(cmd, buffers, &params, sizeof params);
  c.context->vk().CmdDraw(cmd, c.indexCount, 1, 0, 0);  // cloth.vert pulls indices[gl_VertexIndex]
}

}  // namespace weft
