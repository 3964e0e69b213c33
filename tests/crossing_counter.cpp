#include "crossing_counter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace weft::test {
namespace {

using glm::dvec3;

struct Box {
  dvec3 lo{std::numeric_limits<double>::max()};
  dvec3 hi{std::numeric_limits<double>::lowest()};
  void add(const dvec3& p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  Box inflated(double r) const { return {lo - dvec3(r), hi + dvec3(r)}; }
};

bool overlaps(const Box& a, const Box& b) {
  return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
         b.lo.z <= a.hi.z;
}

// A uniform grid over a fixed set of boxes, with cells about the size of the average box. A box
// that would cover many cells (one huge triangle among small ones) is kept in a short list tested
// against every query instead, so one outlier cannot make the grid quadratic in memory.
class BoxGrid {
 public:
  explicit BoxGrid(std::vector<Box> boxes) : boxes_(std::move(boxes)), stamp_(boxes_.size(), 0) {
    if (boxes_.empty()) return;
    Box all;
    double extentSum = 0.0;
    for (const Box& b : boxes_) {
      all.add(b.lo);
      all.add(b.hi);
      const dvec3 e = b.hi - b.lo;
      extentSum += std::max({e.x, e.y, e.z});
    }
    origin_ = all.lo;
    const dvec3 span = all.hi - all.lo;
    // At most 2^20 cells an axis, so a cell's key (below) fits in 64 bits.
    const double widest = std::max({span.x, span.y, span.z});
    cell_ = std::max(extentSum / double(boxes_.size()), widest / double(1 << 20));
    if (!(cell_ > 0.0)) cell_ = 1.0;  // every box a single point in one place
    for (int k = 0; k < 3; ++k) dims_[k] = int64_t(std::floor(span[k] / cell_)) + 1;

    std::vector<std::pair<uint64_t, uint32_t>> keyed;
    for (uint32_t i = 0; i < boxes_.size(); ++i) {
      const auto [lo, hi] = cellRange(boxes_[i]);
      if (cellCount(lo, hi) > kMaxCellsPerBox) {
        large_.push_back(i);
        continue;
      }
      for (int64_t x = lo.x; x <= hi.x; ++x)
        for (int64_t y = lo.y; y <= hi.y; ++y)
          for (int64_t z = lo.z; z <= hi.z; ++z) keyed.emplace_back(key(x, y, z), i);
    }
    std::sort(keyed.begin(), keyed.end());
    entries_.reserve(keyed.size());
    for (size_t j = 0; j < keyed.size(); ++j) {
      if (j == 0 || keyed[j].first != keyed[j - 1].first) cells_[keyed[j].first] = {uint32_t(j), uint32_t(j)};
      cells_[keyed[j].first].second = uint32_t(j + 1);
      entries_.push_back(keyed[j].second);
    }
  }

  // Calls visit(i) exactly once for every stored box i that overlaps `query`.
  template <class Visit>
  void forEachOverlap(const Box& query, Visit&& visit) {
    if (boxes_.empty()) return;
    const auto [lo, hi] = cellRange(query);
    if (cellCount(lo, hi) > kMaxCellsPerQuery) {
      // A query box larger than the grid's cells many times over: a plain scan is cheaper.
      for (uint32_t i = 0; i < boxes_.size(); ++i)
        if (overlaps(boxes_[i], query)) visit(i);
      return;
    }
    ++query_;  // boxes in several cells are visited once: stamped with the query's number
    for (int64_t x = lo.x; x <= hi.x; ++x)
      for (int64_t y = lo.y; y <= hi.y; ++y)
        for (int64_t z = lo.z; z <= hi.z; ++z) {
          const auto it = cells_.find(key(x, y, z));
          if (it == cells_.end()) continue;
          for (uint32_t j = it->second.first; j < it->second.second; ++j) {
            const uint32_t i = entries_[j];
            if (stamp_[i] == query_) continue;
            stamp_[i] = query_;
            if (overlaps(boxes_[i], query)) visit(i);
          }
        }
    for (uint32_t i : large_)
      if (overlaps(boxes_[i], query)) visit(i);
  }

 private:
  static constexpr int64_t kMaxCellsPerBox = 64;
  static constexpr int64_t kMaxCellsPerQuery = 4096;

  // The cells a box covers, clamped to the grid: nothing is stored outside it.
  std::pair<glm::i64vec3, glm::i64vec3> cellRange(const Box& b) const {
    glm::i64vec3 lo, hi;
    for (int k = 0; k < 3; ++k) {
      const double l = std::floor((b.lo[k] - origin_[k]) / cell_);
      const double h = std::floor((b.hi[k] - origin_[k]) / cell_);
      lo[k] = int64_t(std::clamp(l, 0.0, double(dims_[k] - 1)));
      hi[k] = int64_t(std::clamp(h, 0.0, double(dims_[k] - 1)));
    }
    return {lo, hi};
  }
  static int64_t cellCount(const glm::i64vec3& lo, const glm::i64vec3& hi) {
    return (hi.x - lo.x + 1) * (hi.y - lo.y + 1) * (hi.z - lo.z + 1);
  }
  uint64_t key(int64_t x, int64_t y, int64_t z) const {
    return (uint64_t(x) * uint64_t(dims_.y) + uint64_t(y)) * uint64_t(dims_.z) + uint64_t(z);
  }

  std::vector<Box> boxes_;
  std::vector<uint32_t> stamp_;
  uint32_t query_ = 0;
  dvec3 origin_{0.0};
  double cell_ = 1.0;
  glm::i64vec3 dims_{1};
  std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> cells_;  // key -> range of entries_
  std::vector<uint32_t> entries_;
  std::vector<uint32_t> large_;
};

std::vector<dvec3> toDouble(const std::vector<glm::vec4>& positions) {
  std::vector<dvec3> out;
  out.reserve(positions.size());
  for (const glm::vec4& p : positions) out.emplace_back(p.x, p.y, p.z);
  return out;
}

// Bad indices would read past the positions: a test that builds a broken mesh should fail loudly.
template <class Indices>
void checkIndices(size_t vertexCount, const std::vector<Indices>& items) {
  for (const Indices& item : items)
    for (int k = 0; k < Indices::length(); ++k)
      if (item[k] >= vertexCount) throw std::out_of_range("crossing counter: vertex index out of range");
}

std::vector<Box> triangleBoxes(const std::vector<dvec3>& x, const std::vector<glm::uvec3>& triangles, double r) {
  std::vector<Box> boxes(triangles.size());
  for (size_t i = 0; i < triangles.size(); ++i) {
    for (int k = 0; k < 3; ++k) boxes[i].add(x[triangles[i][k]]);
    boxes[i] = boxes[i].inflated(r);
  }
  return boxes;
}

Box edgeBox(const std::vector<dvec3>& x, const glm::uvec2& e) {
  Box b;
  b.add(x[e.x]);
  b.add(x[e.y]);
  return b;
}

bool hasCorner(const glm::uvec3& t, unsigned v) { return t.x == v || t.y == v || t.z == v; }

double pointSegmentDistance(const dvec3& p, const dvec3& a, const dvec3& b) {
  const dvec3 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * ab));
}

}  // namespace

double orient3d(const dvec3& a, const dvec3& b, const dvec3& c, const dvec3& d) {
  return glm::dot(a - d, glm::cross(b - d, c - d));
}

bool segmentCrossesTriangle(const dvec3& p, const dvec3& q, const dvec3& a, const dvec3& b, const dvec3& c) {
  const double sp = orient3d(a, b, c, p);
  const double sq = orient3d(a, b, c, q);
  if (!((sp > 0.0 && sq < 0.0) || (sp < 0.0 && sq > 0.0))) return false;
  // The line pq passes inside the triangle when it turns the same way around each of its edges.
  const double u = orient3d(p, q, a, b);
  const double v = orient3d(p, q, b, c);
  const double w = orient3d(p, q, c, a);
  return (u > 0.0 && v > 0.0 && w > 0.0) || (u < 0.0 && v < 0.0 && w < 0.0);
}

double pointTriangleDistance(const dvec3& p, const dvec3& a, const dvec3& b, const dvec3& c) {
  const dvec3 ab = b - a, ac = c - a;
  const dvec3 n = glm::cross(ab, ac);
  // A zero-area triangle has no face region (and the region tests below would divide by zero):
  // its nearest point lies on one of its edges.
  if (glm::dot(n, n) == 0.0)
    return std::min({pointSegmentDistance(p, a, b), pointSegmentDistance(p, b, c), pointSegmentDistance(p, c, a)});

  // Which Voronoi region of the triangle p projects into, tested vertex, edge, then face.
  const dvec3 ap = p - a;
  const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return glm::length(ap);  // corner a

  const dvec3 bp = p - b;
  const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return glm::length(bp);  // corner b

  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return glm::length(p - (a + (d1 / (d1 - d3)) * ab));  // edge ab

  const dvec3 cp = p - c;
  const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return glm::length(cp);  // corner c

  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return glm::length(p - (a + (d2 / (d2 - d6)) * ac));  // edge ac

  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {  // edge bc
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return glm::length(p - (b + w * (c - b)));
  }
  // Face: the distance to the plane, taken directly rather than through barycentric weights.
  return std::abs(glm::dot(ap, n)) / glm::length(n);
}

double segmentSegmentDistance(const dvec3& p0, const dvec3& p1, const dvec3& q0, const dvec3& q1) {
  const dvec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  double s = 0.0, t = 0.0;
  if (a == 0.0 && e == 0.0) {
    // both are points
  } else if (a == 0.0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = glm::dot(d1, r);
    if (e == 0.0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = glm::dot(d1, d2);
      const double denom = a * e - b * b;  // zero for parallel segments: any s will do, take 0
      s = denom != 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  const double interior = glm::length((p0 + s * d1) - (q0 + t * d2));
  // For nearly parallel segments denom loses its digits to cancellation; the minimum is then at or
  // near an endpoint, and these four distances are exact. Each is a real distance between points
  // of the two segments, so taking the smallest can never undershoot the true answer.
  return std::min({interior, pointSegmentDistance(p0, q0, q1), pointSegmentDistance(p1, q0, q1),
                   pointSegmentDistance(q0, p0, p1), pointSegmentDistance(q1, p0, p1)});
}

std::vector<glm::uvec2> uniqueEdges(const std::vector<glm::uvec3>& triangles) {
  std::vector<glm::uvec2> edges;
  edges.reserve(triangles.size() * 3);
  for (const glm::uvec3& t : triangles)
    for (int k = 0; k < 3; ++k) {
      const unsigned i = t[k], j = t[(k + 1) % 3];
      edges.emplace_back(std::min(i, j), std::max(i, j));
    }
  const auto less = [](const glm::uvec2& l, const glm::uvec2& r) { return l.x != r.x ? l.x < r.x : l.y < r.y; };
  std::sort(edges.begin(), edges.end(), less);
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

size_t countCrossings(const std::vector<glm::vec4>& positions, const std::vector<glm::uvec2>& edges,
                      const std::vector<glm::uvec3>& triangles) {
  checkIndices(positions.size(), edges);
  checkIndices(positions.size(), triangles);
  const std::vector<dvec3> x = toDouble(positions);
  BoxGrid grid(triangleBoxes(x, triangles, 0.0));
  size_t crossings = 0;
  for (const glm::uvec2& e : edges) {
    if (e.x == e.y) continue;
    grid.forEachOverlap(edgeBox(x, e), [&](uint32_t i) {
      const glm::uvec3& t = triangles[i];
      if (hasCorner(t, e.x) || hasCorner(t, e.y)) return;
      if (segmentCrossesTriangle(x[e.x], x[e.y], x[t.x], x[t.y], x[t.z])) ++crossings;
    });
  }
  return crossings;
}

size_t countCrossings(const std::vector<glm::vec4>& positions, const std::vector<glm::uvec3>& triangles) {
  return countCrossings(positions, uniqueEdges(triangles), triangles);
}

double minimumSeparation(const std::vector<glm::vec4>& positions, const std::vector<glm::uvec3>& triangles,
                         double maxDistance) {
  checkIndices(positions.size(), triangles);
  const std::vector<dvec3> x = toDouble(positions);
  double best = maxDistance;

  // Vertex-triangle: triangles' boxes grown by maxDistance catch every vertex closer than that.
  std::vector<char> used(x.size(), 0);
  for (const glm::uvec3& t : triangles) used[t.x] = used[t.y] = used[t.z] = 1;
  BoxGrid triangleGrid(triangleBoxes(x, triangles, maxDistance));
  for (unsigned v = 0; v < x.size(); ++v) {
    if (!used[v]) continue;
    Box point;
    point.add(x[v]);
    triangleGrid.forEachOverlap(point, [&](uint32_t i) {
      const glm::uvec3& t = triangles[i];
      if (hasCorner(t, v)) return;
      best = std::min(best, pointTriangleDistance(x[v], x[t.x], x[t.y], x[t.z]));
    });
  }

  // Edge-edge: each unordered pair once (the other's index larger).
  const std::vector<glm::uvec2> edges = uniqueEdges(triangles);
  std::vector<Box> grown(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) grown[i] = edgeBox(x, edges[i]).inflated(maxDistance);
  BoxGrid edgeGrid(std::move(grown));
  for (uint32_t i = 0; i < edges.size(); ++i) {
    const glm::uvec2 e = edges[i];
    edgeGrid.forEachOverlap(edgeBox(x, e), [&](uint32_t j) {
      const glm::uvec2 f = edges[j];
      if (j <= i || e.x == f.x || e.x == f.y || e.y == f.x || e.y == f.y) return;
      best = std::min(best, segmentSegmentDistance(x[e.x], x[e.y], x[f.x], x[f.y]));
    });
  }
  return best;
}

}  // namespace weft::test
