#include "solver/integrators/xpbd/xpbd_colouring.h"

#include <array>
#include <bit>
#include <string>

#include "engine/error.h"
#include "shaders/physics.h"
#include "solver/integrators/xpbd/xpbd_tether.h"

namespace weft::integrators {
namespace {

// The colours each particle's constraints already hold, one bit each.
using ColourMask = std::array<uint64_t, kMaxXpbdColours / 64>;

// The lowest colour from `from` on that none of `nodes` holds.
uint32_t firstFreeColour(const std::vector<ColourMask>& used, const uint32_t* nodes, uint32_t count, uint32_t from) {
  for (uint32_t word = from / 64; word < kMaxXpbdColours / 64; ++word) {
    uint64_t taken = word == from / 64 ? (uint64_t(1) << (from % 64)) - 1 : 0;  // the colours below `from`
    for (uint32_t n = 0; n < count; ++n) taken |= used[nodes[n]][word];
    if (taken != ~uint64_t(0)) return word * 64 + static_cast<uint32_t>(std::countr_one(taken));
  }
  return kMaxXpbdColours;
}

}  // namespace

XpbdConstraintSet buildXpbdConstraints(const SpringTable& springs, const ElementTable& elements) {
  const size_t n = springs.rows.empty() ? 0 : springs.rows.size() - 1;
  struct Pending {
    gpu::XpbdConstraint constraint;
    uint32_t colour;
    uint32_t part;  // within a colour: 0 springs, 1 tethers (projectsAsTether), 2 other elements
  };
  std::vector<Pending> pending;
  std::vector<ColourMask> used(n, ColourMask{});
  // Each part takes colours of its own, after the parts placed before it: a colour is then one
  // dispatch on the GPU, where a colour that held springs and a few tethers was two (the 128²
  // cloth tied to both corners: 25 dispatches an iteration in 14 colours, now 14).
  uint32_t colours = 0, from = 0;
  auto place = [&](const gpu::XpbdConstraint& c, const uint32_t* nodes, uint32_t count, uint32_t part) {
    const uint32_t colour = firstFreeColour(used, nodes, count, from);
    if (colour >= kMaxXpbdColours)
      throw InputError("xpbd: particle " + std::to_string(nodes[0]) + " belongs to constraints that need more than " +
                       std::to_string(kMaxXpbdColours) + " colours (a vertex of very high valence)");
    for (uint32_t k = 0; k < count; ++k) used[nodes[k]][colour / 64] |= uint64_t(1) << (colour % 64);
    pending.push_back({c, colour, part});
    colours = std::max(colours, colour + 1);
  };
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t k = springs.rows[i]; k < springs.rows[i + 1]; ++k) {
      const gpu::SpringEntry& e = springs.entries[k];
      if (e.other <= i) continue;  // the spring's other end lists it first
      const uint32_t nodes[2] = {i, e.other};
      place({i, e.other, e.restLength, e.stiffness, e.damping, 0, 0, 0}, nodes, 2, 0);
    }
  }
  for (uint32_t part = 1; part <= 2 && elements.rows.back() > 0; ++part) {  // the tethers, then the others
    from = colours;
    for (uint32_t k = 0; k < elements.elements.size(); ++k) {
      const gpu::Element& e = elements.elements[k];
      if (!gpu::elementIsElastic(e.kind) || (projectsAsTether(e) ? 1u : 2u) != part) continue;
      uint32_t nodes[4];
      uint32_t count = 0;
      for (uint32_t slot = 0; slot < elementNodeCount(e.kind); ++slot) {
        if (e.kind == WEFT_ELEMENT_TETHER && slot == 1) continue;  // the pinned anchor
        nodes[count++] = e.nodes[static_cast<int>(slot)];
      }
      const gpu::XpbdConstraint c =
          part == 1 ? tetherConstraint(k, e) : gpu::XpbdConstraint{k, WEFT_XPBD_ELEMENT, 0.f, 0.f, 0.f, 0, 0, 0};
      place(c, nodes, count, part);
    }
  }
  // Counting sort by colour, and within one its springs, its tethers, its other elements (three
  // buckets a colour), each in the order they were placed in. No two constraints of a colour move
  // one particle, so their order within it changes no result; each part is one dispatch of its own
  // kernel on the GPU.
  std::vector<uint32_t> bucketStarts(3 * size_t(colours) + 1, 0);
  for (const Pending& p : pending) ++bucketStarts[3 * p.colour + p.part + 1];
  for (size_t b = 0; b + 1 < bucketStarts.size(); ++b) bucketStarts[b + 1] += bucketStarts[b];
  XpbdConstraintSet set;
  set.constraints.resize(pending.size());
  std::vector<uint32_t> fill(bucketStarts.begin(), bucketStarts.end() - 1);
  for (const Pending& p : pending) set.constraints[fill[3 * p.colour + p.part]++] = p.constraint;
  set.colourStarts.assign(colours + 1, 0);
  set.partStarts.assign(2 * size_t(colours), 0);
  for (uint32_t c = 0; c < colours; ++c) {
    set.colourStarts[c] = bucketStarts[3 * c];
    set.partStarts[2 * c] = bucketStarts[3 * c + 1];
    set.partStarts[2 * c + 1] = bucketStarts[3 * c + 2];
  }
  set.colourStarts[colours] = bucketStarts[3 * size_t(colours)];
  return set;
}

}  // namespace weft::integrators
