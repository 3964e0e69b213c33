// A grid scene rebuilt at another resolution. Only the cloth changes; its pins follow it by place,
// so a cloth held at its corners or along its top row is held there at any size.
#include "solver/model/grid_resize.h"

#include <cmath>
#include <string>
#include <vector>

#include "weft/errors.h"

namespace weft {
namespace {

// Row or column i of `count` moved to the same fraction of n.
uint32_t sameFraction(uint32_t i, uint32_t count, uint32_t n) {
  return static_cast<uint32_t>(std::lround(double(i) * (n - 1) / (count - 1)));
}

}  // namespace

Scene withGridSize(const Scene& scene, uint32_t n) {
  if (scene.parts.size() > 1) {
    throw InputError("cannot change the grid size of scene '" + scene.name + "': it has " +
                     std::to_string(scene.parts.size()) + " cloths");
  }
  if (!scene.grid) {
    throw InputError("cannot change the grid size of scene '" + scene.name +
                     "': its cloth is a mesh, not a grid");
  }
  if (n < 2 || n > kMaxGridSide) {
    throw InputError("a grid size must be from 2 to " + std::to_string(kMaxGridSide) +
                     " particles per side (got " + std::to_string(n) + ")");
  }
  const GridSpec& old = *scene.grid;
  GridSpec spec = old;
  spec.width = spec.height = n;

  Scene out = scene;
  out.grid = spec;
  out.cloth = buildGrid(spec, scene.material);
  out.cloth.velocities.assign(out.cloth.particleCount(), scene.initialVelocity);

  // The indices are kept as indices of the new cloth, so resizing a resized scene rounds twice:
  // resize from the scene as loaded.
  std::vector<uint32_t> pins = gridCorners(out.cloth, scene.pins.corners);
  out.pins.indices.clear();
  for (uint32_t index : scene.pins.indices) {
    const uint32_t row = sameFraction(index / old.width, old.height, n);
    const uint32_t col = sameFraction(index % old.width, old.width, n);
    out.pins.indices.push_back(row * n + col);
  }
  pins.insert(pins.end(), out.pins.indices.begin(), out.pins.indices.end());
  // Rows keep their numbers: two clamped rows stay two rows at any size.
  const std::vector<uint32_t> rowPins = gridRows(out.cloth, scene.pins.rows);
  pins.insert(pins.end(), rowPins.begin(), rowPins.end());
  // Handles keep their rows (negative ones count from the last) and move their indices like pins.
  for (HandleSpec& handle : out.handles)
    for (uint32_t& index : handle.indices)
      index = sameFraction(index / old.width, old.height, n) * n + sameFraction(index % old.width, old.width, n);
  for (const HandleGroup& group : handleGroups(out)) pins.insert(pins.end(), group.particles.begin(), group.particles.end());
  pinParticles(out.cloth, pins);
  applyForceModels(out.cloth, scene.forces);
  out.parts = {ClothPart{scene.parts.empty() ? scene.name : scene.parts.front().name, 0,
                         static_cast<uint32_t>(out.cloth.particleCount()), 0,
                         static_cast<uint32_t>(out.cloth.triangles.size())}};
  return out;
}

}  // namespace weft
