// Contact's tables and settings: the topology it builds from the cloth, the per-cloth friction,
// the checks of a scene's contact settings.
#include "solver/contact/contact_state.h"

namespace weft {

using namespace contact_detail;

ContactTopology buildContactTopology(const std::vector<glm::uvec3>& triangles, const std::vector<glm::vec3>& positions) {
  const size_t n = positions.size();
  for (const glm::uvec3& t : triangles)
    if (t.x >= n || t.y >= n || t.z >= n)
      throw InputError("contact: a triangle names particle " + std::to_string(std::max({t.x, t.y, t.z})) + " of " +
                       std::to_string(n));
  auto smallest = [](glm::uvec3 t) { return std::min({t.x, t.y, t.z}); };
  std::vector<glm::uvec3> sorted = triangles;
  std::stable_sort(sorted.begin(), sorted.end(), [&](glm::uvec3 a, glm::uvec3 b) { return smallest(a) < smallest(b); });
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(3 * sorted.size());
  for (const glm::uvec3& t : sorted)
    for (auto [a, b] : {std::pair{t.x, t.y}, std::pair{t.y, t.z}, std::pair{t.z, t.x}}) edges.emplace_back(std::min(a, b), std::max(a, b));
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

  ContactTopology out;
  gpu::ContactParams& c = out.layout;
  c.triangleCount = static_cast<uint32_t>(sorted.size());
  c.edgeCount = static_cast<uint32_t>(edges.size());
  std::vector<uint32_t>& d = out.data;
  // A CSR table over the vertices from (vertex, item) incidences: rows, then items.
  auto csr = [&](const std::vector<std::pair<uint32_t, uint32_t>>& incidences, uint32_t& rowsAt, uint32_t* listAt) {
    rowsAt = static_cast<uint32_t>(d.size());
    d.resize(d.size() + n + 1, 0u);
    for (auto [v, item] : incidences) ++d[rowsAt + v + 1];
    for (size_t v = 0; v < n; ++v) d[rowsAt + v + 1] += d[rowsAt + v];
    if (!listAt) return;
    *listAt = static_cast<uint32_t>(d.size());
    d.resize(d.size() + incidences.size());
    std::vector<uint32_t> fill(d.begin() + rowsAt, d.begin() + rowsAt + n);
    for (auto [v, item] : incidences) d[*listAt + fill[v]++] = item;
  };
  c.trianglesAt = 0;
  for (const glm::uvec3& t : sorted) d.insert(d.end(), {t.x, t.y, t.z});
  c.edgesAt = static_cast<uint32_t>(d.size());
  for (auto [a, b] : edges) d.insert(d.end(), {a, b});
  std::vector<std::pair<uint32_t, uint32_t>> around, owned;
  for (uint32_t t = 0; t < sorted.size(); ++t) {
    for (uint32_t v : {sorted[t].x, sorted[t].y, sorted[t].z}) around.emplace_back(v, t);
    owned.emplace_back(smallest(sorted[t]), t);
  }
  csr(around, c.triangleRowsAt, &c.triangleListAt);
  csr(owned, c.ownedTriangleRowsAt, nullptr);  // the sorted triangles are the list
  around.clear();
  owned.clear();
  double total = 0.0;
  std::vector<float> lengths;
  lengths.reserve(edges.size());
  for (uint32_t e = 0; e < edges.size(); ++e) {
    around.emplace_back(edges[e].first, e);
    around.emplace_back(edges[e].second, e);
    owned.emplace_back(edges[e].first, e);
    lengths.push_back(glm::length(positions[edges[e].first] - positions[edges[e].second]));
    total += lengths.back();
  }
  csr(around, c.edgeRowsAt, &c.edgeListAt);
  csr(owned, c.ownedEdgeRowsAt, nullptr);  // the sorted edges are the list
  out.meanEdge = edges.empty() ? 0.f : static_cast<float>(total / double(edges.size()));
  if (!lengths.empty()) {
    std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
    out.medianEdge = lengths[lengths.size() / 2];
  }
  return out;
}

void addClothFriction(ContactTopology& topology, size_t particles, const std::vector<ClothFriction>& cloths) {
  if (cloths.empty()) return;
  std::vector<uint32_t>& d = topology.data;
  topology.layout.frictionAt = static_cast<uint32_t>(d.size());
  d.resize(d.size() + 2 * particles, floatBits(-1.f));  // -1: the scene's own coefficients
  for (const ClothFriction& cloth : cloths) {
    if (uint64_t(cloth.firstParticle) + cloth.particleCount > particles)
      throw InputError("contact: a cloth's friction names particles " + std::to_string(cloth.firstParticle) + " to " +
                       std::to_string(uint64_t(cloth.firstParticle) + cloth.particleCount) + " of " +
                       std::to_string(particles));
    for (uint32_t i = cloth.firstParticle; i < cloth.firstParticle + cloth.particleCount; ++i) {
      d[topology.layout.frictionAt + 2 * i] = floatBits(cloth.staticFriction);
      d[topology.layout.frictionAt + 2 * i + 1] = floatBits(cloth.friction);
    }
  }
}

uint32_t contactTableSize(size_t particles) { return std::bit_ceil(static_cast<uint32_t>(std::max<size_t>(particles, 1))); }

void checkContactSettings(const std::unique_ptr<UnitResources>& contact, const ContactSpec& settings) {
  if (!settings.enabled || !contact) return;
  const ContactTopology& topology = static_cast<const ContactCommon&>(*contact).topology;
  checkReach(resolvedRadius(settings, topology), topology.meanEdge);
  checkThickness(settings.thickness, topology.medianEdge);
}

void applyContactSettings(std::unique_ptr<UnitResources>& contact, const ContactSpec& settings) {
  if (!settings.enabled) {
    contact.reset();
    return;
  }
  if (!contact)
    throw InputError("contact is turned on when the solver is made (its tables come from the cloth): "
                     "make a new solver with contact in its parameters");
  static_cast<ContactCommon&>(*contact).set(settings);
}

bool hasContact(const CpuState& state) { return state.contact != nullptr; }
bool hasContact(const GpuState& state) { return state.contact != nullptr; }

void forgetContactPairsCpu(CpuState& state) {
  if (!state.contact) {  // contact turned off: nothing to keep them for
    state.elements.contactPairs.clear();
    state.elements.contactPairCounts.clear();
  }
  std::fill(state.elements.contactPairCounts.begin(), state.elements.contactPairCounts.end(), 0u);
}

}  // namespace weft
