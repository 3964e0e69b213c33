#pragma once
// Implicit CG's two-level preconditioner (SolverParams::preconditioner, CPU backend): the
// block-Jacobi preconditioner plus a coarse correction over aggregates of particles,
//   P^-1 r = S D^-1 r + S R^T A_c^-1 R r,    A_c = R (S A_s S + M (I - S)) R^T,
// with R the sum over each aggregate's particles (a piecewise-constant velocity per aggregate), S
// Baraff & Witkin's filter, and A_s the system's mass, drag, springs and elements (each element's
// blocks k_c g_a g_b^T, the Gauss-Newton form its product uses, shaders/elements/conditions.h). Both
// terms are symmetric and positive on the filtered directions, so CG keeps its guarantees.
// Why: block-Jacobi hands a correction on one spring per iteration, so CG needs about the cloth's
// width in springs to carry a smooth change across it (81 iterations a step at 128^2, hanging.json's
// cloth at 5 substeps). The aggregates carry the smooth part in one application.
// The M (I - S) term keeps an aggregate whose particles are all pinned non-singular and adds nothing
// to a filtered direction. A_c is factored once a solve, in double precision, by envelope Cholesky
// in reverse Cuthill-McKee order.
#include <cstdint>
#include <vector>

#include "shaders/shared.h"
#include "solver/backend/backend_state.h"
#include "solver/backend/memory_budget.h"

namespace weft {
class ThreadPool;
}

namespace weft::integrators {

// Particles grouped into aggregates: a grid (SpringTable::grid) in square tiles, any other cloth
// grown breadth-first over its springs and elements from the lowest unassigned particle. About
// sqrt(N) aggregates of sqrt(N) particles (11 x 11 tiles at 128^2): measured on hanging.json's
// cloth at 128^2, tiles of 5, 8, 11, 16 and 22 took 24, 30.5, 33, 38 and 44 iterations a step
// (median) and 19.8, 11.8, 10.8, 11.8 and 13.4 ms, against 81.5 and 18.7 ms with block-Jacobi.
struct CgAggregates {
  std::vector<uint32_t> of;            // each particle's aggregate
  std::vector<uint32_t> memberStarts;  // count + 1 starts into members
  std::vector<uint32_t> members;       // each aggregate's particles, in index order
  uint32_t count() const { return memberStarts.empty() ? 0u : static_cast<uint32_t>(memberStarts.size() - 1); }
};
CgAggregates buildCgAggregates(const SpringTable& springs, const ElementTable& elements);

// The coarse level: its structure (built from the spring table when it changes), its factor, and
// the last coarse solution.
class CgCoarse : public UnitResources {
 public:
  // (Re)builds the aggregates, the coarse sparsity and its envelope when the tables are not those
  // they were built from (another particle, spring entry or element incidence count: a new cloth,
  // or tearing).
  void prepare(const SpringTable& springs, const ElementTable& elements);
  // Assembles A_c from the setup's spring blocks (CpuState::springBlocks), the elements' conditions
  // (with the solve's weights: the product's a l + a d_e) and the filter, and factors it; false (and
  // no correction until the next assemble) when a pivot is not positive.
  bool assemble(const CpuState& s, const std::vector<glm::vec4>& constraint, float dragTime, float stiffnessWeight,
                float dampingWeight, ThreadPool& pool);
  bool ready() const { return factored_; }
  // z = A_c^-1 R r for a filtered r; returns y.z with y = R r, which is sum_i r_i . z_agg(i): what
  // the correction adds to r.c (r is filtered, so r . S z = r . z).
  double solve(const std::vector<glm::vec4>& r, ThreadPool& pool);
  // The last solve's correction at particle i (before the filter).
  glm::vec3 correction(uint32_t i) const { return z_[aggregates_.of[i]]; }

  const CgAggregates& aggregates() const { return aggregates_; }
  uint32_t unknowns() const { return 3u * aggregates_.count(); }
  // The envelope's stored entries (the factor's size), for the memory count and the docs.
  size_t envelopeEntries() const { return factor_.size(); }
  uint64_t hostBytes() const override;
  // The assembled A_c, as a dense matrix in aggregate order (tests).
  std::vector<double> denseOperator() const;

 private:
  size_t particles_ = SIZE_MAX, entries_ = SIZE_MAX;
  CgAggregates aggregates_;
  // The coarse sparsity in aggregate order: row I's blocks (I, columns[k]) for k in rowStarts.
  std::vector<uint32_t> rowStarts_, columns_;
  std::vector<uint32_t> entrySlot_;  // each spring entry's block in its row's aggregate row
  // Each element incidence entry's (ElementTable::refs) four nodes' blocks in its row's aggregate row.
  std::vector<glm::uvec4> elementSlot_;
  size_t elementRefs_ = SIZE_MAX;
  std::vector<uint32_t> diagonalSlot_;
  std::vector<glm::dmat3> blocks_;
  // The factor: aggregates in reverse Cuthill-McKee order (position_[I]), dofs 3 p + axis; row d of
  // L holds columns first_[d] .. d at factor_[start_[d] ..].
  std::vector<uint32_t> position_, first_;
  std::vector<size_t> start_;
  std::vector<double> factor_, work_;
  std::vector<double> inverseDiagonal_;  // 1 / L_dd: a multiplication where the solves divided
  std::vector<glm::dvec3> sums_;
  std::vector<glm::vec3> z_;
  bool factored_ = false;
};

// What a CgCoarse holds for a cloth of `size` (UnitMemory::cpuTwoLevel): its per-particle, per-entry
// and per-incidence tables exactly, and its coarse level estimated for a cloth that is a surface
// (aggregates of half their target size on average, so 2 sqrt(N) of them, each coupled to 16
// others, an envelope about twice the square root of their count wide; a grid's tiles take about
// half as many, coupled to 9).
MemoryNeed cgCoarseMemory(const StateSize& size);

// The coarse level of `s` (CpuState::cgCoarse), made on first use.
CgCoarse& cgCoarse(CpuState& s);

}  // namespace weft::integrators
