#pragma once
// A Fabric is a cloth's model: particles, masses, springs, triangles and pins, built once and
// shared by any number of cloths (weft::GpuCloth, weft::CpuCloth) made from it. Copies are cheap
// (the data is shared until one of them is changed).
//
//   weft::Fabric sheet = weft::Fabric::grid({.width = 64, .height = 64});
//   sheet.pinCorners(weft::Corners::Two);
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/vec3.hpp>

namespace weft {

namespace detail {
struct FabricData;
}

// Springs of the mass-spring model, in N/m and N s/m. stretchLimit > 0 caps every structural
// spring's stretch at that fraction of its rest length (0.1: at most 10 % longer).
struct FabricMaterial {
  float structuralStiffness = 2000.f;
  float shearStiffness = 500.f;
  float bendStiffness = 50.f;
  float damping = 0.5f;
  float stretchLimit = 0.f;
};

// A regular grid of width x height particles spanning sizeX x sizeY metres from `origin` (the
// particle of row 0, column 0): along +x and +z when horizontal, along +x and -y when vertical.
struct GridShape {
  uint32_t width = 32;
  uint32_t height = 32;
  float sizeX = 1.f;
  float sizeY = 1.f;
  glm::vec3 origin{0.f};
  bool vertical = false;
  float totalMass = 0.f;      // kg; 0: arealDensity times the area
  float arealDensity = 0.2f;  // kg/m^2
};

// Grid corners in the order (0,0), (W-1,0), (W-1,H-1), (0,H-1); Two pins the first row's ends.
enum class Corners : uint8_t { None, One, Two, Three, Four };

class Fabric {
 public:
  // InputError for a grid smaller than 2 x 2, non-positive sizes or masses, negative stiffness.
  static Fabric grid(const GridShape& shape, const FabricMaterial& material = {});
  // A triangle mesh: `triangleIndices` holds three vertex indices per triangle, counter-clockwise
  // seen from the front. Springs along every edge, bending springs across every interior edge.
  // InputError for an index past the vertices, a degenerate triangle or a non-positive mass.
  static Fabric mesh(const std::vector<glm::vec3>& vertices, const std::vector<uint32_t>& triangleIndices,
                     const FabricMaterial& material = {}, float totalMass = 0.f, float arealDensity = 0.2f);

  // Pinned particles never move (inverse mass 0). InputError for an index past the particles.
  Fabric& pin(const std::vector<uint32_t>& particles);
  Fabric& pinCorners(Corners corners);  // grids only (InputError for a mesh)

  size_t particleCount() const;
  size_t springCount() const;
  float totalMass() const;  // kg
  // Three particle indices per triangle, counter-clockwise from the front: an index buffer.
  const std::vector<uint32_t>& triangleIndices() const;
  std::vector<glm::vec3> restPositions() const;

  Fabric(const Fabric&);
  Fabric& operator=(const Fabric&);
  Fabric(Fabric&&) noexcept;
  Fabric& operator=(Fabric&&) noexcept;
  ~Fabric();

  const detail::FabricData& data() const { return *data_; }

 private:
  explicit Fabric(std::shared_ptr<detail::FabricData> data);
  detail::FabricData& mutableData();  // copies the shared data first if another Fabric holds it
  std::shared_ptr<detail::FabricData> data_;
};

}  // namespace weft
