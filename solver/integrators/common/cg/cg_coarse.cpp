#include "solver/integrators/common/cg/cg_coarse.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include "shaders/physics.h"
#include "solver/model/elements.h"
#include "solver/cpu/thread_pool.h"

namespace weft::integrators {

namespace {

// About sqrt(N) / 2 particles an aggregate (see CgAggregates), at least 4.
uint32_t aggregateTarget(size_t particles) {
  return std::max<uint32_t>(4u, static_cast<uint32_t>(std::lround(std::sqrt(double(particles)))));
}

void fillMembers(CgAggregates& a, uint32_t count) {
  a.memberStarts.assign(count + 1, 0);
  for (uint32_t g : a.of) ++a.memberStarts[g + 1];
  for (uint32_t g = 0; g < count; ++g) a.memberStarts[g + 1] += a.memberStarts[g];
  a.members.resize(a.of.size());
  std::vector<uint32_t> fill(a.memberStarts.begin(), a.memberStarts.end() - 1);
  for (uint32_t i = 0; i < a.of.size(); ++i) a.members[fill[a.of[i]]++] = i;
}

// A grid's tiles of t x t particles, t = sqrt(target).
CgAggregates gridTiles(const gpu::GridStencil& grid, size_t particles) {
  const auto t = std::max<uint32_t>(2u, static_cast<uint32_t>(std::lround(std::sqrt(double(aggregateTarget(particles))))));
  const uint32_t across = (grid.width + t - 1) / t, down = (grid.height + t - 1) / t;
  CgAggregates a;
  a.of.resize(particles);
  for (uint32_t i = 0; i < particles; ++i) a.of[i] = (i / grid.width / t) * across + (i % grid.width) / t;
  fillMembers(a, across * down);
  return a;
}

// Each particle's neighbours through springs and elements (CSR), in table order.
struct Neighbours {
  std::vector<uint32_t> starts, list;
};
Neighbours neighbours(const SpringTable& springs, const ElementTable& elements, size_t particles) {
  Neighbours g;
  g.starts.assign(particles + 1, 0);
  std::vector<uint32_t> row;
  for (uint32_t i = 0; i < particles; ++i) {
    row.clear();
    for (uint32_t k = springs.rows[i]; k < springs.rows[i + 1]; ++k) row.push_back(springs.entries[k].other);
    for (uint32_t k = elements.rows[i]; k < elements.rows[i + 1]; ++k) {
      const gpu::Element& e = elements.elements[elements.refs[k] >> 2];
      if (!gpu::elementCouplesNodes(e.kind)) continue;
      for (uint32_t b = 0; b < elementNodeCount(e.kind); ++b)
        if (e.nodes[static_cast<int>(b)] != i) row.push_back(e.nodes[static_cast<int>(b)]);
    }
    g.list.insert(g.list.end(), row.begin(), row.end());
    g.starts[i + 1] = static_cast<uint32_t>(g.list.size());
  }
  return g;
}

// Breadth-first over the springs and elements from the lowest unassigned particle, up to the
// target size; an aggregate left under a quarter of it (hemmed in by others) joins the first
// neighbouring one.
CgAggregates graphAggregates(const Neighbours& graph, size_t particles) {
  const uint32_t target = aggregateTarget(particles);
  constexpr uint32_t kNone = UINT32_MAX;
  CgAggregates a;
  a.of.assign(particles, kNone);
  std::vector<uint32_t> sizes;
  std::deque<uint32_t> queue;
  for (uint32_t seed = 0; seed < particles; ++seed) {
    if (a.of[seed] != kNone) continue;
    const auto g = static_cast<uint32_t>(sizes.size());
    uint32_t size = 0;
    queue.assign(1, seed);
    a.of[seed] = g;
    while (!queue.empty() && size < target) {
      const uint32_t i = queue.front();
      queue.pop_front();
      ++size;
      for (uint32_t k = graph.starts[i]; k < graph.starts[i + 1] && size + queue.size() < target; ++k) {
        const uint32_t j = graph.list[k];
        if (a.of[j] != kNone) continue;
        a.of[j] = g;
        queue.push_back(j);
      }
    }
    size += static_cast<uint32_t>(queue.size());
    sizes.push_back(size);
  }
  // Small aggregates into a neighbour, then renumbered densely in order.
  std::vector<uint32_t> into(sizes.size());
  for (uint32_t g = 0; g < into.size(); ++g) into[g] = g;
  for (uint32_t i = 0; i < particles; ++i) {
    const uint32_t g = a.of[i];
    if (sizes[g] * 4 >= target || into[g] != g) continue;
    for (uint32_t k = graph.starts[i]; k < graph.starts[i + 1]; ++k) {
      const uint32_t h = a.of[graph.list[k]];
      if (h != g && sizes[h] * 4 >= target) {
        into[g] = h;
        break;
      }
    }
  }
  std::vector<uint32_t> dense(sizes.size(), kNone);
  uint32_t count = 0;
  for (uint32_t g = 0; g < into.size(); ++g)
    if (into[g] == g) dense[g] = count++;
  for (uint32_t& g : a.of) g = dense[into[g]];
  fillMembers(a, count);
  return a;
}

// Reverse Cuthill-McKee order of a symmetric graph in CSR form (self-loops allowed): position[v].
std::vector<uint32_t> reverseCuthillMcKee(const std::vector<uint32_t>& rowStarts, const std::vector<uint32_t>& columns) {
  const auto n = static_cast<uint32_t>(rowStarts.size() - 1);
  auto degree = [&](uint32_t v) { return rowStarts[v + 1] - rowStarts[v]; };
  std::vector<uint32_t> order;
  order.reserve(n);
  std::vector<bool> placed(n, false);
  std::vector<uint32_t> neighbours;
  for (uint32_t start = 0; start < n; ++start) {
    if (placed[start]) continue;
    // The component's lowest-degree vertex among those reached last from `start` (a pseudo-peripheral start).
    std::vector<uint32_t> level{start};
    std::vector<bool> seen(n, false);
    seen[start] = true;
    std::vector<uint32_t> last = level;
    while (!level.empty()) {
      last = level;
      std::vector<uint32_t> next;
      for (uint32_t v : level)
        for (uint32_t k = rowStarts[v]; k < rowStarts[v + 1]; ++k)
          if (!seen[columns[k]]) {
            seen[columns[k]] = true;
            next.push_back(columns[k]);
          }
      level.swap(next);
    }
    uint32_t root = *std::min_element(last.begin(), last.end(), [&](uint32_t x, uint32_t y) {
      return degree(x) != degree(y) ? degree(x) < degree(y) : x < y;
    });
    size_t head = order.size();
    order.push_back(root);
    placed[root] = true;
    for (; head < order.size(); ++head) {
      const uint32_t v = order[head];
      neighbours.clear();
      for (uint32_t k = rowStarts[v]; k < rowStarts[v + 1]; ++k)
        if (!placed[columns[k]]) {
          placed[columns[k]] = true;
          neighbours.push_back(columns[k]);
        }
      std::sort(neighbours.begin(), neighbours.end(), [&](uint32_t x, uint32_t y) {
        return degree(x) != degree(y) ? degree(x) < degree(y) : x < y;
      });
      order.insert(order.end(), neighbours.begin(), neighbours.end());
    }
  }
  std::vector<uint32_t> position(n);
  for (uint32_t p = 0; p < n; ++p) position[order[n - 1 - p]] = p;
  return position;
}

// sum_k a[k] b[k] over [begin, end) in four running sums, so that an add need not wait for the one
// before it: the factor and the forward solve take one such sum an entry, over 30-40 entries of
// their rows.
double spanDot(const double* a, const double* b, uint32_t begin, uint32_t end) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  uint32_t k = begin;
  for (; k + 4 <= end; k += 4) {
    s0 += a[k] * b[k];
    s1 += a[k + 1] * b[k + 1];
    s2 += a[k + 2] * b[k + 2];
    s3 += a[k + 3] * b[k + 3];
  }
  for (; k < end; ++k) s0 += a[k] * b[k];
  return (s0 + s1) + (s2 + s3);
}

// The filter's matrix: S v = applyFilter(constraint, v).
glm::mat3 filterMatrix(glm::vec4 constraint) {
  glm::mat3 s;
  for (int axis = 0; axis < 3; ++axis) {
    glm::vec3 e(0.f);
    e[axis] = 1.f;
    s[axis] = gpu::applyFilter(constraint, e);
  }
  return s;
}

}  // namespace

CgAggregates buildCgAggregates(const SpringTable& springs, const ElementTable& elements) {
  const size_t n = springs.rows.empty() ? 0 : springs.rows.size() - 1;
  if (springs.grid.stencil.width > 0 && size_t(springs.grid.stencil.width) * springs.grid.stencil.height == n)
    return gridTiles(springs.grid.stencil, n);
  return graphAggregates(neighbours(springs, elements, n), n);
}

void CgCoarse::prepare(const SpringTable& springs, const ElementTable& elements) {
  const size_t n = springs.rows.empty() ? 0 : springs.rows.size() - 1;
  const size_t refs = elements.rows.back();
  if (n == particles_ && springs.entries.size() == entries_ && refs == elementRefs_) return;
  particles_ = n;
  entries_ = springs.entries.size();
  elementRefs_ = refs;
  factored_ = false;
  aggregates_ = buildCgAggregates(springs, elements);
  const uint32_t count = aggregates_.count();
  // Row I's columns: itself and every aggregate a spring of its particles reaches, ascending.
  rowStarts_.assign(count + 1, 0);
  columns_.clear();
  entrySlot_.assign(springs.entries.size(), 0);
  diagonalSlot_.assign(count, 0);
  elementSlot_.assign(refs, glm::uvec4(0));
  std::vector<uint32_t> row;
  // Calls f(k, b, node) for node b of each element of particle i's incidence entry k.
  auto forEachElementNode = [&](uint32_t i, auto&& f) {
    for (uint32_t k = elements.rows[i]; k < elements.rows[i + 1]; ++k) {
      const gpu::Element& e = elements.elements[elements.refs[k] >> 2];
      const uint32_t nodes = gpu::elementCouplesNodes(e.kind) ? elementNodeCount(e.kind) : 1u;
      for (uint32_t b = 0; b < nodes; ++b) f(k, b, e.nodes[static_cast<int>(b)]);
    }
  };
  for (uint32_t g = 0; g < count; ++g) {
    row.assign(1, g);
    for (uint32_t m = aggregates_.memberStarts[g]; m < aggregates_.memberStarts[g + 1]; ++m) {
      const uint32_t i = aggregates_.members[m];
      for (uint32_t k = springs.rows[i]; k < springs.rows[i + 1]; ++k) row.push_back(aggregates_.of[springs.entries[k].other]);
      forEachElementNode(i, [&](uint32_t, uint32_t, uint32_t node) { row.push_back(aggregates_.of[node]); });
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    rowStarts_[g] = static_cast<uint32_t>(columns_.size());
    columns_.insert(columns_.end(), row.begin(), row.end());
    auto slotOf = [&](uint32_t node) {
      return rowStarts_[g] + static_cast<uint32_t>(std::lower_bound(row.begin(), row.end(), aggregates_.of[node]) - row.begin());
    };
    for (uint32_t m = aggregates_.memberStarts[g]; m < aggregates_.memberStarts[g + 1]; ++m) {
      const uint32_t i = aggregates_.members[m];
      for (uint32_t k = springs.rows[i]; k < springs.rows[i + 1]; ++k) entrySlot_[k] = slotOf(springs.entries[k].other);
      forEachElementNode(i, [&](uint32_t k, uint32_t b, uint32_t node) { elementSlot_[k][static_cast<int>(b)] = slotOf(node); });
    }
    diagonalSlot_[g] = rowStarts_[g] + static_cast<uint32_t>(std::lower_bound(row.begin(), row.end(), g) - row.begin());
  }
  rowStarts_[count] = static_cast<uint32_t>(columns_.size());
  blocks_.assign(columns_.size(), glm::dmat3(0.0));
  // The envelope: dof 3 p + a reaches back to the first dof of its lowest-placed neighbour.
  position_ = reverseCuthillMcKee(rowStarts_, columns_);
  const uint32_t dofs = 3u * count;
  first_.assign(dofs, 0);
  for (uint32_t g = 0; g < count; ++g) {
    uint32_t lowest = position_[g];
    for (uint32_t k = rowStarts_[g]; k < rowStarts_[g + 1]; ++k) lowest = std::min(lowest, position_[columns_[k]]);
    for (uint32_t a = 0; a < 3; ++a) first_[3u * position_[g] + a] = 3u * lowest;
  }
  start_.assign(dofs + 1, 0);
  for (uint32_t d = 0; d < dofs; ++d) start_[d + 1] = start_[d] + (d - first_[d] + 1);
  factor_.assign(start_[dofs], 0.0);
  inverseDiagonal_.assign(dofs, 0.0);
  work_.assign(dofs, 0.0);
  sums_.assign(count, glm::dvec3(0.0));
  z_.assign(count, glm::vec3(0.f));
}

bool CgCoarse::assemble(const CpuState& s, const std::vector<glm::vec4>& constraint, float dragTime, float stiffnessWeight,
                        float dampingWeight, ThreadPool& pool) {
  const ElementTable& elements = s.elements;
  const uint32_t count = aggregates_.count();
  const SpringTable& springs = s.springs;
  // A pinned particle's stand-in mass in M (I - S): the mean of the free ones'.
  double freeMass = 0;
  size_t freeCount = 0;
  for (const glm::vec4& x : s.positions)
    if (x.w > 0.f) {
      freeMass += 1.0 / x.w;
      ++freeCount;
    }
  const double pinnedMass = freeCount > 0 ? freeMass / double(freeCount) : 1.0;
  // Row by row of aggregates: each row's blocks are its own thread's. Summed in float (a row adds
  // a few hundred blocks of one sign pattern), factored in double. The filter is the identity for
  // most particles: only a constrained one (pinned or resting on a collider) pays for its products.
  auto isFree = [&](uint32_t i) { return constraint[i].w < WEFT_FILTER_CONTACT; };
  pool.parallelFor(count, [&](size_t begin, size_t end) {
    std::vector<glm::mat3> row;
    for (size_t g = begin; g < end; ++g) {
      row.assign(rowStarts_[g + 1] - rowStarts_[g], glm::mat3(0.f));
      const uint32_t at = rowStarts_[g];
      glm::mat3& diagonal = row[diagonalSlot_[g] - at];
      for (uint32_t m = aggregates_.memberStarts[g]; m < aggregates_.memberStarts[g + 1]; ++m) {
        const uint32_t i = aggregates_.members[m];
        const float w = s.positions[i].w;
        if (!(w > 0.f)) {
          diagonal += float(pinnedMass) * glm::mat3(1.f);  // S = 0: all of it is M (I - S)
          continue;
        }
        const float mass = 1.f / w;
        const bool freeI = isFree(i);
        glm::mat3 own = (mass + dragTime) * glm::mat3(1.f);
        const uint32_t inside = diagonalSlot_[g];  // the slot of a spring whose ends share the aggregate
        for (uint32_t k = springs.rows[i]; k < springs.rows[i + 1]; ++k) {
          const uint32_t j = springs.entries[k].other;
          // A spring between two free particles of one aggregate adds b to the diagonal block through
          // i's own and takes it away through the coupling: nothing, as a constant correction does not
          // stretch it. Passed over (most of a tile's springs), which also spares the diagonal the
          // rounding of that cancellation.
          if (freeI && entrySlot_[k] == inside && isFree(j) && s.positions[j].w > 0.f) continue;
          const glm::mat3 b = gpu::systemBlockMatrix(s.springBlocks[k]);
          own += b;
          if (!(s.positions[j].w > 0.f)) continue;  // its filter is 0
          glm::mat3& coupling = row[entrySlot_[k] - at];
          if (freeI && isFree(j)) {
            coupling -= b;
          } else {
            coupling -= filterMatrix(constraint[i]) * b * filterMatrix(constraint[j]);
          }
        }
        if (freeI) {
          diagonal += own;
        } else {
          const glm::mat3 si = filterMatrix(constraint[i]);
          diagonal += si * own * si + mass * (glm::mat3(1.f) - si);
        }
        // The elements' rows at i: k_c (S_i g_slot)(S_b g_b)^T into (I, agg(b)) for each node b
        // (the keeper's own block alone for a contact pair, slot 0), as elementProduct weighs them.
        const glm::mat3 si = freeI ? glm::mat3(1.f) : filterMatrix(constraint[i]);
        auto addElement = [&](const gpu::Element& e, uint32_t slot, const glm::uvec4* slots) {
          const gpu::Conditions c = gpu::elementConditions(e, gpu::xyz(s.positions[e.nodes.x]), gpu::xyz(s.positions[e.nodes.y]),
                                                           gpu::xyz(s.positions[e.nodes.z]), gpu::xyz(s.positions[e.nodes.w]));
          const bool couples = gpu::elementCouplesNodes(e.kind);
          const uint32_t nodes = couples ? elementNodeCount(e.kind) : 1u;
          const float weight = stiffnessWeight + dampingWeight * e.damping;
          for (uint32_t k = 0; k < c.count; ++k) {
            const glm::vec3 left = si * c.gradient[4u * k + slot] * (weight * c.stiffness[k]);
            for (uint32_t b = 0; b < nodes; ++b) {
              const uint32_t node = e.nodes[static_cast<int>(b)];
              if (!(s.positions[node].w > 0.f)) continue;  // its filter is 0
              const glm::vec3 grad = c.gradient[4u * k + b];
              const glm::vec3 right = isFree(node) ? grad : gpu::applyFilter(constraint[node], grad);
              row[(slots ? (*slots)[static_cast<int>(b)] : diagonalSlot_[g]) - at] += glm::outerProduct(left, right);
            }
          }
        };
        for (uint32_t k = elements.rows[i]; k < elements.rows[i + 1]; ++k)
          addElement(elements.elements[elements.refs[k] >> 2], elements.refs[k] & 3u, &elementSlot_[k]);
        if (!elements.contactPairCounts.empty())
          for (uint32_t k = 0; k < elements.contactPairCounts[i]; ++k)
            addElement(elements.contactPairs[size_t(i) * WEFT_CONTACT_PAIR_SLOTS + k], 0u, nullptr);
      }
      for (uint32_t k = rowStarts_[g]; k < rowStarts_[g + 1]; ++k) blocks_[k] = glm::dmat3(row[k - at]);
    }
  }, 64);
  // Scattered into the envelope in the factor's order (upper blocks mirrored).
  std::fill(factor_.begin(), factor_.end(), 0.0);
  for (uint32_t g = 0; g < count; ++g)
    for (uint32_t k = rowStarts_[g]; k < rowStarts_[g + 1]; ++k) {
      const uint32_t p = position_[g], q = position_[columns_[k]];
      if (q > p) continue;
      for (uint32_t a = 0; a < 3; ++a)
        for (uint32_t b = 0; b < 3; ++b) {
          const uint32_t row = 3u * p + a, column = 3u * q + b;
          if (column > row) continue;
          factor_[start_[row] + (column - first_[row])] = blocks_[k][b][a];  // glm: [column][row]
        }
    }
  // Envelope Cholesky, row by row: L_rc = (A_rc - sum_k L_rk L_ck) / L_cc over the rows' common span.
  const auto dofs = static_cast<uint32_t>(first_.size());
  for (uint32_t r = 0; r < dofs; ++r) {
    double* lr = &factor_[start_[r]] - first_[r];  // lr[c] is L_rc
    for (uint32_t c = first_[r]; c < r; ++c) {
      const double* lc = &factor_[start_[c]] - first_[c];
      lr[c] = (lr[c] - spanDot(lr, lc, std::max(first_[r], first_[c]), c)) * inverseDiagonal_[c];
    }
    const double d = lr[r] - spanDot(lr, lr, first_[r], r);
    if (!(d > 0.0)) {
      factored_ = false;
      return false;
    }
    lr[r] = std::sqrt(d);
    inverseDiagonal_[r] = 1.0 / lr[r];
  }
  factored_ = true;
  return true;
}

double CgCoarse::solve(const std::vector<glm::vec4>& r, ThreadPool& pool) {
  const uint32_t count = aggregates_.count();
  pool.parallelFor(count, [&](size_t begin, size_t end) {
    for (size_t g = begin; g < end; ++g) {
      glm::dvec3 sum(0.0);
      for (uint32_t m = aggregates_.memberStarts[g]; m < aggregates_.memberStarts[g + 1]; ++m)
        sum += glm::dvec3(gpu::xyz(r[aggregates_.members[m]]));
      sums_[g] = sum;
    }
  }, 16);  // a tile's particles each: a hundred aggregates are worth both threads
  for (uint32_t g = 0; g < count; ++g)
    for (uint32_t a = 0; a < 3; ++a) work_[3u * position_[g] + a] = sums_[g][static_cast<int>(a)];
  const auto dofs = static_cast<uint32_t>(first_.size());
  for (uint32_t d = 0; d < dofs; ++d) {  // L u = y
    const double* ld = &factor_[start_[d]] - first_[d];
    work_[d] = (work_[d] - spanDot(ld, work_.data(), first_[d], d)) * inverseDiagonal_[d];
  }
  for (uint32_t d = dofs; d-- > 0;) {  // L^T z = u, column by column
    const double* ld = &factor_[start_[d]] - first_[d];
    work_[d] *= inverseDiagonal_[d];
    const double zd = work_[d];
    for (uint32_t k = first_[d]; k < d; ++k) work_[k] -= ld[k] * zd;
  }
  double dot = 0;
  for (uint32_t g = 0; g < count; ++g) {
    const glm::dvec3 z(work_[3u * position_[g]], work_[3u * position_[g] + 1], work_[3u * position_[g] + 2]);
    dot += glm::dot(sums_[g], z);
    z_[g] = glm::vec3(z);
  }
  return dot;
}

uint64_t CgCoarse::hostBytes() const {
  auto bytes = [](const auto& v) { return uint64_t(v.size()) * sizeof(v[0]); };
  return bytes(aggregates_.of) + bytes(aggregates_.memberStarts) + bytes(aggregates_.members) + bytes(rowStarts_) +
         bytes(columns_) + bytes(entrySlot_) + bytes(diagonalSlot_) + bytes(blocks_) + bytes(position_) + bytes(first_) +
         bytes(start_) + bytes(factor_) + bytes(inverseDiagonal_) + bytes(work_) + bytes(sums_) + bytes(z_);
}

std::vector<double> CgCoarse::denseOperator() const {
  const uint32_t dofs = unknowns();
  std::vector<double> dense(size_t(dofs) * dofs, 0.0);
  for (uint32_t g = 0; g < aggregates_.count(); ++g)
    for (uint32_t k = rowStarts_[g]; k < rowStarts_[g + 1]; ++k)
      for (uint32_t a = 0; a < 3; ++a)
        for (uint32_t b = 0; b < 3; ++b) dense[size_t(3u * g + a) * dofs + 3u * columns_[k] + b] = blocks_[k][b][a];
  return dense;
}

MemoryNeed cgCoarseMemory(const StateSize& size) {
  MemoryNeed need;
  need.add(size.particles * sizeof(uint32_t));      // of
  need.add(size.particles * sizeof(uint32_t));      // members
  need.add(size.springEntries * sizeof(uint32_t));  // entrySlot_
  need.add(size.elementRefs * sizeof(glm::uvec4));  // elementSlot_
  const uint64_t target = aggregateTarget(size.particles);
  const uint64_t count = 2 * ((size.particles + target - 1) / target) + 1;
  const uint64_t dofs = 3 * count;
  const uint64_t blocks = count * std::min<uint64_t>(count, 16);
  const auto across = static_cast<uint64_t>(std::ceil(std::sqrt(double(count))));
  const uint64_t envelope = dofs * std::min<uint64_t>(dofs, 3 * (2 * across + 3));
  need.add(count * (3 * sizeof(uint32_t) + sizeof(uint32_t) + sizeof(glm::dvec3) + sizeof(glm::vec3)));
  need.add(blocks * (sizeof(uint32_t) + sizeof(glm::dmat3)));
  need.add(dofs * (sizeof(uint32_t) + sizeof(size_t) + 2 * sizeof(double)));  // first_, start_, work_, inverseDiagonal_
  need.add(envelope * sizeof(double));
  return need;
}

CgCoarse& cgCoarse(CpuState& s) {
  if (!s.cgCoarse) s.cgCoarse = std::make_unique<CgCoarse>();
  return static_cast<CgCoarse&>(*s.cgCoarse);
}

}  // namespace weft::integrators
