#include "solver/model/tearing.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "weft/errors.h"
#include "shaders/physics.h"
#include "solver/model/elements.h"

namespace weft {
namespace {

double restArea(const ClothModel& model, const glm::uvec3& t) {
  const glm::dvec3 a = model.positions[t.x], b = model.positions[t.y], c = model.positions[t.z];
  return 0.5 * glm::length(glm::cross(b - a, c - a));
}

int cornerOf(const glm::uvec3& t, uint32_t v) { return t.x == v ? 0 : t.y == v ? 1 : t.z == v ? 2 : -1; }

// Each particle's triangles (CSR), over a triangle list.
struct VertexTriangles {
  std::vector<uint32_t> rows, tris;
  VertexTriangles(const std::vector<glm::uvec3>& triangles, size_t n) : rows(n + 1, 0) {
    for (const glm::uvec3& t : triangles)
      for (int c = 0; c < 3; ++c) ++rows[t[c] + 1];
    for (size_t i = 0; i < n; ++i) rows[i + 1] += rows[i];
    tris.resize(rows[n]);
    std::vector<uint32_t> fill(rows.begin(), rows.end() - 1);
    for (uint32_t k = 0; k < triangles.size(); ++k)
      for (int c = 0; c < 3; ++c) tris[fill[triangles[k][c]]++] = k;
  }
  template <class F>
  void forEach(uint32_t v, F f) const {
    for (uint32_t r = rows[v]; r < rows[v + 1]; ++r) f(tris[r]);
  }
};

// A particle to split by the plane through `point` with normal `normal`: its triangles whose
// centroid (now) is on the normal's side go to a copy.
struct Split {
  uint32_t particle;
  glm::vec3 point, normal;
};

glm::vec3 at(const std::vector<glm::vec4>& x, uint32_t i) { return glm::vec3(x[i]); }

bool farSide(const Split& split, glm::vec3 p) {
  return glm::dot(p - split.point, split.normal) > 0.f;
}

glm::vec3 centroid(const std::vector<glm::vec4>& x, const glm::uvec3& t) {
  return (at(x, t.x) + at(x, t.y) + at(x, t.z)) / 3.f;
}

// true when the particle's fan has triangles on both sides of the split's plane.
bool splits(const Split& split, const VertexTriangles& fans, const ClothModel& m, const std::vector<glm::vec4>& x) {
  bool near = false, far = false;
  fans.forEach(split.particle, [&](uint32_t t) { (farSide(split, centroid(x, m.triangles[t])) ? far : near) = true; });
  return near && far;
}

// Splits the particles `splitList` names (each at most once, its fan on both sides of its plane)
// and removes the springs marked in `removed`; moves springs and elements to the copies.
TearEdit applySplits(ClothModel& m, const std::vector<Split>& splitList, const VertexTriangles& fans,
                     std::vector<uint8_t> removed, std::vector<glm::vec4>& x, std::vector<glm::vec4>& v) {
  TearEdit edit;
  edit.brokenSprings = size_t(std::count(removed.begin(), removed.end(), 1));
  const uint32_t n0 = static_cast<uint32_t>(m.particleCount());
  std::unordered_map<uint32_t, size_t> splitOf;  // particle -> its entry in splitList
  for (size_t k = 0; k < splitList.size(); ++k) splitOf.emplace(splitList[k].particle, k);
  // For each triangle, which of its split corners it went to the copy at (bit c for corner c).
  std::vector<uint8_t> farCorners(m.triangles.size(), 0);
  std::unordered_map<uint32_t, uint32_t> copyOf;  // split particle -> its copy
  std::vector<glm::uvec3> triangles = m.triangles;
  for (const Split& split : splitList) {
    const uint32_t p = split.particle;
    double nearArea = 0.0, farArea = 0.0;
    const uint32_t copy = static_cast<uint32_t>(m.positions.size());
    fans.forEach(p, [&](uint32_t t) {
      const bool far = farSide(split, centroid(x, m.triangles[t]));
      (far ? farArea : nearArea) += restArea(m, m.triangles[t]);
      if (!far) return;
      const int c = cornerOf(m.triangles[t], p);
      farCorners[t] |= uint8_t(1u << c);
      triangles[t][c] = copy;
    });
    // The copy takes its triangles' share of the lumped mass; the shares sum to the particle's.
    const float mass = m.masses[p];
    const double total = nearArea + farArea;
    const float share = total > 0.0 ? float(mass * (farArea / total)) : 0.5f * mass;
    m.masses[p] = mass - share;
    m.positions.push_back(m.positions[p]);
    if (m.velocities.size() > p) m.velocities.push_back(m.velocities[p]);
    m.masses.push_back(share);
    m.pinned.push_back(m.pinned[p]);
    x.push_back(x[p]);
    v.push_back(v[p]);
    copyOf[p] = copy;
    edit.copiedFrom.push_back(p);
    for (uint32_t i : {p, copy})  // w is the inverse mass; a particle a handle holds (w 0) stays held
      if (x[i].w > 0.f) x[i].w = m.inverseMass(i);
  }
  edit.newParticles = m.positions.size() - n0;

  // Where each spring goes. An edge of the mesh follows its triangles: one copy of the spring per
  // distinct pair of new ends (two where the crack runs along it). Another spring (a diagonal, a bend)
  // takes at each split end the copy on its other end's side; one passing over a split particle from
  // one side to the other is dropped.
  auto sideEnd = [&](uint32_t end, uint32_t other) {
    auto it = splitOf.find(end);
    if (it == splitOf.end()) return end;
    return farSide(splitList[it->second], at(x, other)) ? copyOf[end] : end;
  };
  std::vector<Spring> springs;
  springs.reserve(m.springs.size() + splitList.size() * 2);
  for (uint32_t k = 0; k < m.springs.size(); ++k) {
    if (removed[k]) continue;
    const Spring& s = m.springs[k];
    const bool aSplit = splitOf.count(s.a) > 0, bSplit = splitOf.count(s.b) > 0;
    if (!aSplit && !bSplit) {
      // Over a split particle: both ends its neighbours, on two sides of its plane, and the spring
      // passing close to it (a bend spring through its middle particle, or across a hinge edge).
      bool over = false;
      if (s.kind == SpringKind::Bend)
        for (const auto& [p, k2] : splitOf) {
          const Split& split = splitList[k2];
          if (farSide(split, at(x, s.a)) == farSide(split, at(x, s.b))) continue;
          const glm::vec3 a = at(x, s.a), b = at(x, s.b), q = at(x, p);
          const float t = glm::clamp(glm::dot(q - a, b - a) / glm::max(glm::dot(b - a, b - a), 1e-12f), 0.f, 1.f);
          if (glm::length(a + t * (b - a) - q) < 0.25f * glm::length(b - a)) over = true;
        }
      if (over) ++edit.detachedSprings;
      else springs.push_back(s);
      continue;
    }
    std::vector<std::pair<uint32_t, uint32_t>> ends;
    fans.forEach(aSplit ? s.a : s.b, [&](uint32_t t) {
      const glm::uvec3& o = m.triangles[t];
      if (cornerOf(o, s.a) < 0 || cornerOf(o, s.b) < 0) return;
      const std::pair<uint32_t, uint32_t> pair{triangles[t][cornerOf(o, s.a)], triangles[t][cornerOf(o, s.b)]};
      if (std::find(ends.begin(), ends.end(), pair) == ends.end()) ends.push_back(pair);
    });
    if (ends.empty()) ends.emplace_back(sideEnd(s.a, s.b), sideEnd(s.b, s.a));  // not an edge of the mesh
    for (auto [a, b] : ends) {
      Spring moved = s;
      moved.a = a, moved.b = b;
      springs.push_back(moved);
    }
  }
  m.springs = std::move(springs);

  // Elements over triangles (aerodynamics) and hinges over two: a split node goes to the copy its
  // triangles went to; a hinge whose wings went to two sides is dropped.
  std::vector<gpu::Element> elements;
  elements.reserve(m.elements.size());
  for (gpu::Element e : m.elements) {
    const uint32_t count = elementNodeCount(e.kind);
    const glm::uvec4 nodes = e.nodes;
    auto isNode = [&](uint32_t p) {
      for (uint32_t s = 0; s < count; ++s)
        if (nodes[s] == p) return true;
      return false;
    };
    bool keep = true;
    for (uint32_t slot = 0; slot < count && keep; ++slot) {
      if (!splitOf.count(nodes[slot])) continue;
      int side = -1;
      fans.forEach(nodes[slot], [&](uint32_t t) {
        const glm::uvec3& o = m.triangles[t];
        if (!isNode(o.x) || !isNode(o.y) || !isNode(o.z)) return;
        const int far = (farCorners[t] >> cornerOf(o, nodes[slot])) & 1;
        if (side >= 0 && side != far) keep = false;
        side = far;
      });
      if (side == 1) e.nodes[slot] = copyOf[nodes[slot]];
    }
    if (!keep) {
      ++edit.detachedElements;
      continue;
    }
    for (uint32_t slot = count; slot < 4; ++slot) e.nodes[slot] = e.nodes[0];  // unused slots repeat the first
    elements.push_back(e);
  }
  m.elements = std::move(elements);
  m.triangles = std::move(triangles);
  m.bendPairs = buildTopology(m.triangles, m.particleCount()).bendPairs;
  if (edit.newParticles > 0) m.gridWidth = m.gridHeight = 0;  // no longer a grid's particle layout
  return edit;
}

}  // namespace

bool tears(const ClothModel& model) {
  return std::any_of(model.springs.begin(), model.springs.end(), [](const Spring& s) { return s.tearStrain() > 0.f; });
}

void checkTearable(const ClothModel& model) {
  if (!tears(model)) return;
  for (const gpu::Element& e : model.elements)
    if (e.kind == WEFT_ELEMENT_TETHER)
      throw InputError("a tearing cloth cannot have tethers: they hold particles by index, so a torn-off piece "
                       "would stay tied to its pin");
}

std::vector<uint32_t> springsCrossingTriangle(const ClothModel& model, const std::vector<glm::vec4>& positions,
                                              glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  // Segment against triangle in double: the segment's ends on opposite sides of the plane, and the
  // crossing point inside the triangle (signed volumes of the same sign).
  const glm::dvec3 A = a, B = b, C = c;
  const glm::dvec3 normal = glm::cross(B - A, C - A);
  std::vector<uint32_t> crossing;
  for (uint32_t k = 0; k < model.springs.size(); ++k) {
    const Spring& s = model.springs[k];
    const glm::dvec3 p = glm::dvec3(gpu::xyz(positions[s.a])), q = glm::dvec3(gpu::xyz(positions[s.b]));
    const double dp = glm::dot(p - A, normal), dq = glm::dot(q - A, normal);
    if ((dp > 0.0) == (dq > 0.0) || dp == dq) continue;
    const glm::dvec3 x = p + (q - p) * (dp / (dp - dq));
    const double u = glm::dot(glm::cross(B - A, x - A), normal), v = glm::dot(glm::cross(C - B, x - B), normal),
                 w = glm::dot(glm::cross(A - C, x - C), normal);
    if (u >= 0.0 && v >= 0.0 && w >= 0.0) crossing.push_back(k);
  }
  return crossing;
}

TearEdit tearSprings(ClothModel& m, std::vector<uint32_t> broken, std::vector<glm::vec4>& x,
                     std::vector<glm::vec4>& v) {
  std::sort(broken.begin(), broken.end());
  broken.erase(std::unique(broken.begin(), broken.end()), broken.end());
  broken.erase(std::remove_if(broken.begin(), broken.end(), [&](uint32_t k) { return k >= m.springs.size(); }),
               broken.end());
  if (broken.empty()) return {};
  const VertexTriangles fans(m.triangles, m.particleCount());
  // Each particle's summed stretch over its tearing springs: the crack opens at the end where the
  // strain concentrates (a crack's tip), not at whichever end comes first, which would bias its path.
  std::vector<float> strain(m.particleCount(), 0.f);
  for (const Spring& s : m.springs)
    if (s.tearStrain() > 0.f) {
      const float stretch = std::max(0.f, glm::distance(at(x, s.a), at(x, s.b)) / s.restLength - 1.f);
      strain[s.a] += stretch;
      strain[s.b] += stretch;
    }
  std::vector<Split> splitList;
  std::unordered_set<uint32_t> taken;  // a particle splits once per edit, and its spring's other end with it
  std::vector<uint8_t> removed(m.springs.size(), 0);
  for (uint32_t k : broken) {
    const Spring& s = m.springs[k];
    if (taken.count(s.a) || taken.count(s.b)) continue;  // the crack opened there already
    Split first{s.a, at(x, s.a), at(x, s.b) - at(x, s.a)}, second{s.b, at(x, s.b), at(x, s.a) - at(x, s.b)};
    if (strain[s.b] > strain[s.a]) std::swap(first, second);
    if (splits(first, fans, m, x)) splitList.push_back(first);
    else if (splits(second, fans, m, x)) splitList.push_back(second);
    else removed[k] = 1;
    taken.insert({s.a, s.b});
  }
  return applySplits(m, splitList, fans, std::move(removed), x, v);
}

TearEdit cutCloth(ClothModel& m, glm::vec3 a, glm::vec3 b, glm::vec3 c, std::vector<glm::vec4>& x,
                  std::vector<glm::vec4>& v) {
  const std::vector<uint32_t> crossing = springsCrossingTriangle(m, x, a, b, c);
  if (crossing.empty()) return {};
  const VertexTriangles fans(m.triangles, m.particleCount());
  std::vector<uint8_t> removed(m.springs.size(), 0);
  std::vector<Split> splitList;
  std::unordered_set<uint32_t> taken;
  // Every end of a crossing spring splits by the cut's own plane: the same side for all of them, so
  // a triangle goes to the same side at each of its corners and the two sides share no particle.
  const glm::vec3 normal = glm::cross(b - a, c - a);
  for (uint32_t k : crossing) {
    removed[k] = 1;
    for (uint32_t end : {m.springs[k].a, m.springs[k].b}) {
      const Split split{end, a, normal};
      if (taken.insert(end).second && splits(split, fans, m, x)) splitList.push_back(split);
    }
  }
  return applySplits(m, splitList, fans, std::move(removed), x, v);
}

}  // namespace weft
