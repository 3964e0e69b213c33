// Grids (seed 004's three spring families), pins and the model's small queries.
#include "solver/model/cloth_model.h"

#include <cmath>
#include <sstream>

#include "weft/errors.h"
#include "solver/model/host_memory.h"

namespace weft {
namespace {

std::string formatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

void checkPositiveSize(const char* what, float size) {
  if (!std::isfinite(size) || size <= 0.f) {
    throw InputError(std::string("grid ") + what + " must be a positive number of metres (got " +
                     formatNumber(size) + ")");
  }
}

void addSpring(ClothModel& model, uint32_t a, uint32_t b, SpringKind kind, float stiffness,
               float damping) {
  Spring spring;
  spring.a = a;
  spring.b = b;
  spring.restLength = glm::distance(model.positions[a], model.positions[b]);
  spring.stiffness = stiffness;
  spring.damping = damping;
  spring.kind = kind;
  model.springs.push_back(spring);
}

}  // namespace

void applyStrainLimit(ClothModel& model, const StrainLimitSpec& limit) {
  if (!limit.enabled()) return;
  for (Spring& s : model.springs) {
    if (s.kind == SpringKind::Bend) continue;
    s.stretchLimit = limit.stretch;
    s.compressionLimit = limit.compression;
    s.limitMode = limit.mode;
  }
}

void applyTearStrain(ClothModel& model, float tearStrain) {
  if (tearStrain <= 0.f) return;
  for (Spring& s : model.springs)
    if (s.kind == SpringKind::Structural) s.setTearStrain(tearStrain);
}

float ClothModel::totalMass() const {
  // Summed in double: a million float particles would otherwise lose digits of the total.
  double sum = 0.0;
  for (float m : masses) sum += m;
  return static_cast<float>(sum);
}

size_t ClothModel::springCount(SpringKind kind) const {
  size_t count = 0;
  for (const Spring& spring : springs) count += spring.kind == kind ? 1 : 0;
  return count;
}

void validateMaterial(const Material& material) {
  const std::pair<const char*, float> values[] = {
      {"structural stiffness", material.structuralStiffness},
      {"shear stiffness", material.shearStiffness},
      {"bend stiffness", material.bendStiffness},
      {"damping", material.damping},
  };
  for (const auto& [name, value] : values) {
    if (!std::isfinite(value) || value < 0.f) {
      throw InputError(std::string("material ") + name + " must be a finite number >= 0 (got " +
                       formatNumber(value) + ")");
    }
  }
  if (!std::isfinite(material.tearStrain) || material.tearStrain < 0.f)
    throw InputError("material tear strain must be a finite number >= 0 (got " + formatNumber(material.tearStrain) + ")");
  const StrainLimitSpec& limit = material.strainLimit;
  if (!std::isfinite(limit.stretch) || limit.stretch < 0.f)
    throw InputError("material strain limit stretch must be a finite number > 0 (got " + formatNumber(limit.stretch) + ")");
  if (!std::isfinite(limit.compression) || limit.compression < 0.f || limit.compression >= 1.f)
    throw InputError("material strain limit compression must be a number in [0, 1) (got " +
                     formatNumber(limit.compression) + ")");
}

ClothModel buildGrid(const GridSpec& spec, const Material& material) {
  if (spec.width < 2) {
    throw InputError("grid width must be at least 2 particles (got " + std::to_string(spec.width) +
                     ")");
  }
  if (spec.height < 2) {
    throw InputError("grid height must be at least 2 particles (got " +
                     std::to_string(spec.height) + ")");
  }
  if (uint64_t{spec.width} * spec.height > kMaxParticles) {
    throw InputError("grid of " + std::to_string(spec.width) + "x" + std::to_string(spec.height) +
                     " particles is larger than the limit of " + std::to_string(kMaxParticles) +
                     " particles");
  }
  checkPositiveSize("size along x", spec.sizeX);
  checkPositiveSize(spec.plane == GridPlane::Horizontal ? "size along z" : "size along y",
                    spec.sizeY);
  if (!std::isfinite(spec.origin.x) || !std::isfinite(spec.origin.y) ||
      !std::isfinite(spec.origin.z)) {
    throw InputError("grid origin must be finite");
  }
  validateMaterial(material);
  // Before building: a grid the host cannot hold is refused with its size, not with bad_alloc.
  requireHostMemory(gridModelBytes(spec.width, spec.height), hostMemoryAvailable(),
                    "a " + std::to_string(spec.width) + " x " + std::to_string(spec.height) + " cloth",
                    "its model");

  const uint32_t w = spec.width;
  const uint32_t h = spec.height;
  auto index = [w](uint32_t row, uint32_t col) { return row * w + col; };

  ClothModel model;
  model.gridWidth = w;
  model.gridHeight = h;
  model.positions.reserve(size_t{w} * h);
  for (uint32_t row = 0; row < h; ++row) {
    for (uint32_t col = 0; col < w; ++col) {
      // size * col / (w - 1) in double puts the last column at exactly sizeX, so a centred
      // grid is symmetric to the last bit.
      const float u = static_cast<float>(double{spec.sizeX} * col / (w - 1));
      const float v = static_cast<float>(double{spec.sizeY} * row / (h - 1));
      const glm::vec3 step =
          spec.plane == GridPlane::Horizontal ? glm::vec3(u, 0.f, v) : glm::vec3(u, -v, 0.f);
      model.positions.push_back(spec.origin + step);
    }
  }

  // Families in order (structural, shear, bend), each row-major, so spring i is the same on every
  // run and backends can compare buffers index by index.
  const float damping = material.damping;
  for (uint32_t row = 0; row < h; ++row) {
    for (uint32_t col = 0; col < w; ++col) {
      if (col + 1 < w) {
        addSpring(model, index(row, col), index(row, col + 1), SpringKind::Structural,
                  material.structuralStiffness, damping);
      }
      if (row + 1 < h) {
        addSpring(model, index(row, col), index(row + 1, col), SpringKind::Structural,
                  material.structuralStiffness, damping);
      }
    }
  }
  for (uint32_t row = 0; row + 1 < h; ++row) {
    for (uint32_t col = 0; col + 1 < w; ++col) {
      addSpring(model, index(row, col), index(row + 1, col + 1), SpringKind::Shear,
                material.shearStiffness, damping);
      addSpring(model, index(row, col + 1), index(row + 1, col), SpringKind::Shear,
                material.shearStiffness, damping);
    }
  }
  for (uint32_t row = 0; row < h; ++row) {
    for (uint32_t col = 0; col < w; ++col) {
      if (col + 2 < w) {
        addSpring(model, index(row, col), index(row, col + 2), SpringKind::Bend,
                  material.bendStiffness, damping);
      }
      if (row + 2 < h) {
        addSpring(model, index(row, col), index(row + 2, col), SpringKind::Bend,
                  material.bendStiffness, damping);
      }
    }
  }

  // (i00, i10, i01) and (i01, i10, i11): with col along +x and row along +z (or -y) both wind
  // counter-clockwise seen from +y (or +z). One diagonal everywhere keeps every interior particle
  // in six triangles, so interior masses are uniform.
  model.triangles.reserve(size_t{2} * (w - 1) * (h - 1));
  for (uint32_t row = 0; row + 1 < h; ++row) {
    for (uint32_t col = 0; col + 1 < w; ++col) {
      const uint32_t i00 = index(row, col), i01 = index(row, col + 1);
      const uint32_t i10 = index(row + 1, col), i11 = index(row + 1, col + 1);
      model.triangles.emplace_back(i00, i10, i01);
      model.triangles.emplace_back(i01, i10, i11);
    }
  }

  model.masses = lumpMasses(model.positions, model.triangles, spec.totalMass, spec.arealDensity);
  model.velocities.assign(model.positions.size(), glm::vec3(0.f));
  model.pinned.assign(model.positions.size(), 0);
  model.bendPairs = buildTopology(model.triangles, model.positions.size()).bendPairs;
  applyStrainLimit(model, material.strainLimit);
  applyTearStrain(model, material.tearStrain);
  return model;
}

std::vector<uint32_t> gridCorners(const ClothModel& model, CornerPreset preset) {
  if (preset == CornerPreset::None) return {};
  if (model.gridWidth == 0 || model.gridHeight == 0) {
    throw InputError("corner pins need a grid cloth; pin a mesh by particle indices instead");
  }
  const uint32_t w = model.gridWidth;
  const uint32_t h = model.gridHeight;
  const std::vector<uint32_t> corners = {0, w - 1, (h - 1) * w + (w - 1), (h - 1) * w};
  const size_t count = static_cast<size_t>(preset);  // One = 1, ..., Four = 4
  return {corners.begin(), corners.begin() + static_cast<std::ptrdiff_t>(count)};
}

void appendCloth(ClothModel& into, const ClothModel& part) {
  if (into.particleCount() == 0) {
    into = part;
    return;
  }
  const auto p = static_cast<uint32_t>(into.particleCount());
  const auto t = static_cast<uint32_t>(into.triangles.size());
  if (size_t{p} + part.particleCount() > kMaxParticles)
    throw InputError("the cloths together have more than " + std::to_string(kMaxParticles) + " particles");
  into.positions.insert(into.positions.end(), part.positions.begin(), part.positions.end());
  into.velocities.insert(into.velocities.end(), part.velocities.begin(), part.velocities.end());
  into.masses.insert(into.masses.end(), part.masses.begin(), part.masses.end());
  into.pinned.insert(into.pinned.end(), part.pinned.begin(), part.pinned.end());
  for (Spring s : part.springs) {
    s.a += p, s.b += p;
    into.springs.push_back(s);
  }
  for (const glm::uvec3& tri : part.triangles) into.triangles.push_back(tri + glm::uvec3(p));
  for (BendPair b : part.bendPairs) {
    b.v0 += p, b.v1 += p, b.a += p, b.b += p, b.t0 += t, b.t1 += t;
    into.bendPairs.push_back(b);
  }
  for (gpu::Element e : part.elements) {
    e.nodes += glm::uvec4(p);
    into.elements.push_back(e);
  }
  into.gridWidth = into.gridHeight = 0;
}

std::vector<uint32_t> gridRows(const ClothModel& model, const std::vector<uint32_t>& rows) {
  if (model.gridWidth == 0) throw InputError("row pins need a grid cloth; pin a mesh by particle indices instead");
  std::vector<uint32_t> out;
  for (uint32_t row : rows) {
    if (row >= model.gridHeight)
      throw InputError("pinned row " + std::to_string(row) + " is out of range (the grid has " +
                       std::to_string(model.gridHeight) + " rows)");
    for (uint32_t col = 0; col < model.gridWidth; ++col) out.push_back(row * model.gridWidth + col);
  }
  return out;
}

void pinParticles(ClothModel& model, const std::vector<uint32_t>& indices) {
  const size_t n = model.particleCount();
  if (model.pinned.size() != n) model.pinned.resize(n, 0);
  // Validate everything before marking anything, so a failed call leaves the model unchanged.
  for (uint32_t i : indices) {
    if (i >= n) {
      throw InputError("pinned particle index " + std::to_string(i) +
                       " is out of range (the cloth has " + std::to_string(n) + " particles)");
    }
  }
  for (uint32_t i : indices) model.pinned[i] = 1;
}

}  // namespace weft
