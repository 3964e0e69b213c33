// weft::Fabric: the public model builder, over the internal ClothModel and its builders.
#include "weft/fabric.h"

#include <string>

#include "engine/error.h"
#include "solver/api/api_internal.h"

namespace weft {
namespace {

static_assert(static_cast<int>(Corners::One) == static_cast<int>(CornerPreset::One) &&
                  static_cast<int>(Corners::Four) == static_cast<int>(CornerPreset::Four),
              "the public corner presets are the model's");

Material toMaterial(const FabricMaterial& m) {
  Material material;
  material.structuralStiffness = m.structuralStiffness;
  material.shearStiffness = m.shearStiffness;
  material.bendStiffness = m.bendStiffness;
  material.damping = m.damping;
  if (m.stretchLimit != 0.f) material.strainLimit.stretch = m.stretchLimit;
  return material;
}

std::shared_ptr<detail::FabricData> withIndices(ClothModel model) {
  auto data = std::make_shared<detail::FabricData>();
  data->model = std::move(model);
  data->indices.reserve(data->model.triangles.size() * 3);
  for (const glm::uvec3& t : data->model.triangles) data->indices.insert(data->indices.end(), {t.x, t.y, t.z});
  return data;
}

}  // namespace

Fabric::Fabric(std::shared_ptr<detail::FabricData> data) : data_(std::move(data)) {}
Fabric::Fabric(const Fabric&) = default;
Fabric& Fabric::operator=(const Fabric&) = default;
Fabric::Fabric(Fabric&&) noexcept = default;
Fabric& Fabric::operator=(Fabric&&) noexcept = default;
Fabric::~Fabric() = default;

Fabric Fabric::grid(const GridShape& shape, const FabricMaterial& material) {
  GridSpec spec;
  spec.width = shape.width;
  spec.height = shape.height;
  spec.sizeX = shape.sizeX;
  spec.sizeY = shape.sizeY;
  spec.origin = shape.origin;
  spec.plane = shape.vertical ? GridPlane::Vertical : GridPlane::Horizontal;
  spec.totalMass = shape.totalMass;
  spec.arealDensity = shape.arealDensity;
  return Fabric(withIndices(buildGrid(spec, toMaterial(material))));
}

Fabric Fabric::mesh(const std::vector<glm::vec3>& vertices, const std::vector<uint32_t>& triangleIndices,
                    const FabricMaterial& material, float totalMass, float arealDensity) {
  if (triangleIndices.size() % 3 != 0)
    throw InputError("a mesh needs three indices per triangle, but " + std::to_string(triangleIndices.size()) +
                     " is not a multiple of 3");
  std::vector<glm::uvec3> triangles(triangleIndices.size() / 3);
  for (size_t t = 0; t < triangles.size(); ++t)
    triangles[t] = {triangleIndices[3 * t], triangleIndices[3 * t + 1], triangleIndices[3 * t + 2]};
  return Fabric(withIndices(buildMesh(vertices, triangles, toMaterial(material), totalMass, arealDensity)));
}

detail::FabricData& Fabric::mutableData() {
  if (data_.use_count() > 1) data_ = std::make_shared<detail::FabricData>(*data_);
  return *data_;
}

Fabric& Fabric::pin(const std::vector<uint32_t>& particles) {
  pinParticles(mutableData().model, particles);
  return *this;
}

Fabric& Fabric::pinCorners(Corners corners) {
  if (data_->model.gridWidth == 0) throw InputError("corner pins need a grid, and this fabric is a mesh");
  const std::vector<uint32_t> indices = gridCorners(data_->model, static_cast<CornerPreset>(corners));
  return pin(indices);
}

size_t Fabric::particleCount() const { return data_->model.particleCount(); }
size_t Fabric::springCount() const { return data_->model.springs.size(); }
float Fabric::totalMass() const { return data_->model.totalMass(); }
const std::vector<uint32_t>& Fabric::triangleIndices() const { return data_->indices; }
std::vector<glm::vec3> Fabric::restPositions() const { return data_->model.positions; }

}  // namespace weft
