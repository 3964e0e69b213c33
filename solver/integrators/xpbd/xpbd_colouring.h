#pragma once
// XPBD's constraints in colour order: every spring once and every elastic element, coloured
// greedily so that no two constraints of a colour move the same particle. Gauss-Seidel then runs a
// colour at a time, each colour one parallel pass (a dispatch, a parallelFor) whose writes never
// overlap. A grid colours in its own structure; a mesh takes as many colours as its busiest vertex
// needs (about twice its constraints), which the greedy order bounds by 2 x degree - 1.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "shaders/shared.h"
#include "solver/model/elements.h"
#include "solver/model/spring_table.h"

namespace weft::integrators {

inline constexpr uint32_t kMaxXpbdColours = 256;

struct XpbdConstraintSet {
  // Colour by colour; the springs' colours first, then the tethers' (xpbd_tether.h), then the other
  // elastic elements': each colour holds one part, and the part ranges below say which.
  std::vector<gpu::XpbdConstraint> constraints;
  std::vector<uint32_t> colourStarts;  // colours + 1 starts into `constraints`
  std::vector<uint32_t> partStarts;    // per colour c: [2c] its first tether, [2c + 1] its first other element
  uint32_t colours() const { return colourStarts.empty() ? 0u : static_cast<uint32_t>(colourStarts.size() - 1); }
  // Colour c's springs, tethers and other elements as [first, end) ranges into `constraints`.
  uint32_t springsEnd(uint32_t c) const { return partStarts[2 * c]; }
  uint32_t tethersEnd(uint32_t c) const { return partStarts[2 * c + 1]; }
};

// The constraints a cloth's tables can hold, what the unit's buffers and vectors are sized for (and
// what solver/backend/memory_budget.h counts): each spring once and each element of the table, the
// aerodynamic ones and the inert placeholder of a cloth without elements included; at least one.
inline uint64_t xpbdConstraintCapacity(uint64_t springEntries, uint64_t elements) {
  return std::max<uint64_t>(springEntries / 2 + elements, 1);
}

// Springs from the table's rows (each once, from its lower end), then the tethers, then the other
// elastic elements, each part in colours after the last part's (a tether's anchor is pinned and
// never moves, so it does not count as shared). Throws InputError if
// some particle would need more than kMaxXpbdColours colours.
XpbdConstraintSet buildXpbdConstraints(const SpringTable& springs, const ElementTable& elements);

}  // namespace weft::integrators
