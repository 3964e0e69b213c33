#include "solver/model/collider_grid.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <utility>

#include "shaders/physics.h"

namespace weft {

using gpu::xyz;

namespace {

// What a cell's bounds lose to float rounding is far below this fraction of the reach; the grid
// enters each face this much farther out, and keeps this much of its allowance back.
constexpr float kRoundingSlack = 1e-4f;

// A face's corners' box.
void faceBox(const gpu::Collider& c, glm::vec3& lo, glm::vec3& hi) {
  lo = glm::min(glm::min(xyz(c.shape), xyz(c.shape2)), xyz(c.shape3));
  hi = glm::max(glm::max(xyz(c.shape), xyz(c.shape2)), xyz(c.shape3));
}

}  // namespace

uint32_t colliderKindBits(const std::vector<gpu::Collider>& colliders, bool gridAllowed) {
  uint32_t bits = 0;
  size_t faces = 0;
  for (const gpu::Collider& c : colliders) {
    bits |= WEFT_COLLIDER_KIND_BIT(c.kind);
    faces += c.kind == WEFT_COLLIDER_TRIANGLE ? 1 : 0;
  }
  return gridAllowed && faces >= kColliderGridMinFaces ? bits | WEFT_COLLIDER_GRID_BIT : bits;
}

ColliderGridData buildColliderGrid(const std::vector<const std::vector<gpu::Collider>*>& steps, float stepDt) {
  ColliderGridData out;
  if (steps.empty() || !steps.front()) return out;
  const std::vector<gpu::Collider>& first = *steps.front();
  std::vector<uint32_t> faces;
  for (uint32_t c = 0; c < first.size(); ++c)
    if (first[c].kind == WEFT_COLLIDER_TRIANGLE) faces.push_back(c);
  if (faces.size() < kColliderGridMinFaces) return out;

  // The surface speeds, bounded about one reference point; and the fastest at a corner.
  gpu::ColliderGrid& g = out.header;
  const glm::vec3 reference = xyz(first[faces.front()].pivot);
  float pivotReach = 0.f, cornerSpeed = 0.f;
  for (const std::vector<gpu::Collider>* step : steps)
    for (uint32_t f : faces) {
      const gpu::Collider& c = (*step)[f];
      g.maxSpeed = std::max(g.maxSpeed, glm::length(xyz(c.velocity)));
      g.maxSpin = std::max(g.maxSpin, glm::length(xyz(c.spin)));
      pivotReach = std::max(pivotReach, glm::length(xyz(c.pivot) - reference));
      for (glm::vec4 corner : {c.shape, c.shape2, c.shape3})
        cornerSpeed = std::max(cornerSpeed, glm::length(gpu::colliderSurfaceVelocity(xyz(corner), c)));
    }
  g.reference = glm::vec4(reference, pivotReach);

  // The allowance: the typical face's shell reach (gpu::faceShellReach), or if more what a step
  // covers at kColliderGridSpeed plus the surface's fastest speed. The cells: as wide as the typical
  // face's box grown by its reach and the allowance, half each way, so it sits in at most 27 of them.
  std::vector<float> shells, boxes;
  shells.reserve(faces.size());
  boxes.reserve(faces.size());
  for (uint32_t f : faces) {
    glm::vec3 lo, hi;
    faceBox(first[f], lo, hi);
    const glm::vec3 half = 0.5f * (hi - lo);
    shells.push_back(gpu::faceShellReach(first[f]));
    boxes.push_back(std::max({half.x, half.y, half.z}) + shells.back());
  }
  std::nth_element(shells.begin(), shells.begin() + shells.size() / 2, shells.end());
  std::nth_element(boxes.begin(), boxes.begin() + boxes.size() / 2, boxes.end());
  const float allowance = std::max(shells[shells.size() / 2], (kColliderGridSpeed + cornerSpeed) * stepDt);
  g.cellSize = boxes[boxes.size() / 2] + allowance;
  g.allowance = allowance * (1.f - kRoundingSlack);

  // Each face into the cells its reach covers at any step, or onto the always-tested list.
  std::vector<uint32_t> always;
  for (uint32_t c = 0; c < first.size(); ++c)
    if (first[c].kind != WEFT_COLLIDER_TRIANGLE) always.push_back(c);
  g.tableSize = std::bit_ceil(static_cast<uint32_t>(std::max<size_t>(64, 4 * faces.size())));
  std::vector<std::pair<uint32_t, uint32_t>> entries;  // (bucket, collider), in collider order
  entries.reserve(27 * faces.size());
  std::vector<uint32_t> buckets;  // one face's
  for (uint32_t f : faces) {
    glm::vec3 lo(FLT_MAX), hi(-FLT_MAX);
    for (const std::vector<gpu::Collider>* step : steps) {
      const gpu::Collider& c = (*step)[f];
      const float reach = (gpu::faceShellReach(c) + allowance) * (1.f + kRoundingSlack) + kRoundingSlack * g.cellSize;
      glm::vec3 faceLo, faceHi;
      faceBox(c, faceLo, faceHi);
      lo = glm::min(lo, faceLo - glm::vec3(reach));
      hi = glm::max(hi, faceHi + glm::vec3(reach));
    }
    const glm::ivec3 a = gpu::contactCell(lo, g.cellSize), b = gpu::contactCell(hi, g.cellSize);
    const int64_t cells = int64_t(b.x - a.x + 1) * int64_t(b.y - a.y + 1) * int64_t(b.z - a.z + 1);
    if (cells > int64_t(kColliderGridMaxCellsPerFace)) {
      always.push_back(f);
      continue;
    }
    buckets.clear();
    for (int z = a.z; z <= b.z; ++z)
      for (int y = a.y; y <= b.y; ++y)
        for (int x = a.x; x <= b.x; ++x) buckets.push_back(gpu::contactBucket(glm::ivec3(x, y, z), g.tableSize));
    std::sort(buckets.begin(), buckets.end());
    buckets.erase(std::unique(buckets.begin(), buckets.end()), buckets.end());  // two of its cells in one bucket
    for (uint32_t bucket : buckets) entries.emplace_back(bucket, f);
  }
  std::sort(always.begin(), always.end());

  // A counting sort by bucket, stable: each bucket's faces stay in collider order.
  g.alwaysCount = static_cast<uint32_t>(always.size());
  std::vector<uint32_t>& d = out.cells;
  d.assign(always.begin(), always.end());
  const size_t endsAt = d.size(), entriesAt = endsAt + g.tableSize;
  d.resize(entriesAt + entries.size(), 0u);
  for (auto [bucket, face] : entries) ++d[endsAt + bucket];
  uint32_t running = 0;
  for (size_t b = 0; b < g.tableSize; ++b) d[endsAt + b] = running += d[endsAt + b];
  for (size_t k = entries.size(); k-- > 0;) d[entriesAt + --d[endsAt + entries[k].first]] = entries[k].second;
  for (size_t b = 0; b < g.tableSize; ++b) d[endsAt + b] = b + 1 < g.tableSize ? d[endsAt + b + 1] : uint32_t(entries.size());
  return out;
}

ColliderWalk::ColliderWalk(const ColliderGridData& grid, glm::vec3 x) : cells_(grid.cells) {
  const gpu::ColliderGrid& g = grid.header;
  const uint32_t b = gpu::colliderGridBucket(x, g.cellSize, g.tableSize);
  const uint32_t entriesAt = g.alwaysCount + g.tableSize;
  alwaysEnd_ = g.alwaysCount;
  cell_ = entriesAt + (b > 0u ? cells_[g.alwaysCount + b - 1u] : 0u);
  cellEnd_ = entriesAt + cells_[g.alwaysCount + b];
}

bool ColliderWalk::next(uint32_t& c) {
  const uint32_t a = always_ < alwaysEnd_ ? cells_[always_] : 0xffffffffu;
  const uint32_t f = cell_ < cellEnd_ ? cells_[cell_] : 0xffffffffu;
  c = std::min(a, f);
  if (c == 0xffffffffu) return false;
  if (a < f)
    ++always_;
  else
    ++cell_;
  return true;
}

}  // namespace weft
