// Implicit CG's two-level preconditioner (solver/integrators/common/cg/cg_coarse.h), its coarse
// level alone: the aggregates cover every particle once (a grid's tiles, a mesh's breadth-first
// groups, each connected); the assembled A_c is the Galerkin product P^T A P + R M (I - S) R^T of
// the filtered system, with P = S R^T, checked entry by entry against the fine product itself
// (springs, membrane and bending elements, pinned and resting particles, drag); and its solve
// inverts it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>
#include <set>
#include <vector>

#include "shaders/physics.h"
#include "solver/model/elements.h"
#include "solver/cpu/cpu_elements.h"
#include "solver/integrators/common/cg/cg_coarse.h"
#include "solver/integrators/common/cg/cg_product_lanes.h"
#include "solver/model/spring_table.h"
#include "solver/cpu/thread_pool.h"

namespace weft::integrators {
namespace {

ClothModel grid(uint32_t n) {
  GridSpec spec;
  spec.width = spec.height = n;
  spec.totalMass = 0.3f;
  return buildGrid(spec, Material{2000.f, 500.f, 50.f, 0.5f});
}

// Every particle in exactly one aggregate, each aggregate's members its own.
void expectCover(const CgAggregates& a, size_t particles) {
  ASSERT_EQ(a.of.size(), particles);
  ASSERT_EQ(a.members.size(), particles);
  std::vector<int> seen(particles, 0);
  for (uint32_t g = 0; g < a.count(); ++g) {
    EXPECT_LT(a.memberStarts[g], a.memberStarts[g + 1]) << "aggregate " << g << " is empty";
    for (uint32_t m = a.memberStarts[g]; m < a.memberStarts[g + 1]; ++m) {
      ++seen[a.members[m]];
      EXPECT_EQ(a.of[a.members[m]], g);
    }
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(particles));
}

TEST(CgAggregates, AGridIsCutIntoSquareTiles) {
  const ClothModel model = grid(128);
  const SpringTable springs = buildSpringTable(model);
  ASSERT_GT(springs.grid.stencil.width, 0u);
  const CgAggregates a = buildCgAggregates(springs, buildElementTable(model));
  expectCover(a, model.particleCount());
  EXPECT_EQ(a.count(), 12u * 12u) << "tiles of 11 (sqrt of sqrt(N) = 128 particles) across 128";
  for (uint32_t i : {0u, 10u, 11u, 128u * 11u, 128u * 127u + 127u})
    EXPECT_EQ(a.of[i], (i / 128u / 11u) * 12u + (i % 128u) / 11u) << "particle " << i;
}

TEST(CgAggregates, AMeshIsGroupedBreadthFirstIntoConnectedAggregates) {
  ClothModel model = grid(40);
  SpringTable springs = buildSpringTable(model);
  springs.grid = GridSprings{};  // no stencil: the springs' graph alone
  const ElementTable elements = buildElementTable(model);
  const CgAggregates a = buildCgAggregates(springs, elements);
  const size_t n = model.particleCount();
  expectCover(a, n);
  const auto target = static_cast<uint32_t>(std::lround(std::sqrt(double(n))));  // 40
  for (uint32_t g = 0; g < a.count(); ++g) {
    const uint32_t size = a.memberStarts[g + 1] - a.memberStarts[g];
    EXPECT_GE(4 * size, target) << "aggregate " << g << ": a small one joins a neighbour";
    EXPECT_LE(size, target + target / 4) << "aggregate " << g;
    // connected through springs inside the aggregate
    std::set<uint32_t> reached{a.members[a.memberStarts[g]]};
    std::deque<uint32_t> queue{a.members[a.memberStarts[g]]};
    while (!queue.empty()) {
      const uint32_t i = queue.front();
      queue.pop_front();
      for (uint32_t k = springs.rows[i]; k < springs.rows[i + 1]; ++k) {
        const uint32_t j = springs.entries[k].other;
        if (a.of[j] == g && reached.insert(j).second) queue.push_back(j);
      }
    }
    EXPECT_EQ(reached.size(), size) << "aggregate " << g << " is not connected";
  }
  EXPECT_NEAR(double(a.count()), double(n) / target, 0.35 * double(n) / target);
}

// A cloth of springs, membrane and dihedral elements, moved off its rest shape, with two pinned
// corners and a band of particles resting on a tilted plane (the contact filter), and the setup's
// spring blocks for implicit Euler at h.
struct CoarseCase {
  CpuState s;
  std::vector<glm::vec4> constraint;
  float h = 1.f / 300.f, drag = 2e-4f;
};

CoarseCase makeCase(bool meshAggregates) {
  ClothModel model = grid(24);
  addMembrane(model, MembraneSpec{300.f, 200.f, 60.f, 0.01f});
  addDihedralBending(model, DihedralSpec{1e-4f, 0.01f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  CoarseCase c;
  CpuState& s = c.s;
  s.positions = packPositions(model);
  s.velocities = packVelocities(model);
  s.springs = buildSpringTable(model);
  if (meshAggregates) s.springs.grid = GridSprings{};
  s.elements = buildElementTable(model);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (glm::vec4& x : s.positions) x += glm::vec4(0.004f * u(rng), 0.004f * u(rng), 0.004f * u(rng), 0.f);
  const float a = c.h, l = c.h;
  s.springBlocks.resize(s.springs.entries.size());
  for (uint32_t i = 0; i < s.positions.size(); ++i)
    for (uint32_t k = s.springs.rows[i]; k < s.springs.rows[i + 1]; ++k)
      s.springBlocks[k] = gpu::springSystemBlock(gpu::xyz(s.positions[i]), gpu::xyz(s.positions[s.springs.entries[k].other]),
                                                 s.springs.entries[k], springBound(s.springs, k), a, l);
  const glm::vec3 normal = glm::normalize(glm::vec3(0.2f, 1.f, -0.1f));
  c.constraint.assign(s.positions.size(), glm::vec4(0.f, 0.f, 0.f, WEFT_FILTER_FREE));
  for (uint32_t i = 0; i < s.positions.size(); ++i) {
    if (s.positions[i].w == 0.f) c.constraint[i].w = WEFT_FILTER_PINNED;
    else if (i % 24 < 5) c.constraint[i] = glm::vec4(normal, WEFT_FILTER_CONTACT);
  }
  return c;
}

// Row i of the filtered fine operator S A u (springs, drag, elements), as cg_solve.cpp's product.
glm::vec3 fineRow(const CoarseCase& c, const std::vector<glm::vec4>& u, uint32_t i) {
  const CpuState& s = c.s;
  const SpringProductInput in{s.springs.rows.data(), s.springs.entries.data(), s.springBlocks.data(), s.positions.data(), u.data(),
                              c.h * c.drag};
  glm::vec3 row = springSystemProduct(in, i);
  if (s.positions[i].w > 0.f) row += elementProduct(i, s.positions, u, s.elements, c.h * c.h, c.h);
  return gpu::applyFilter(c.constraint[i], row);
}

void expectGalerkin(bool meshAggregates) {
  CoarseCase c = makeCase(meshAggregates);
  ThreadPool pool(2);
  CgCoarse coarse;
  coarse.prepare(c.s.springs, c.s.elements);
  ASSERT_TRUE(coarse.assemble(c.s, c.constraint, c.h * c.drag, c.h * c.h, c.h, pool));
  const CgAggregates& a = coarse.aggregates();
  const uint32_t dofs = coarse.unknowns();
  const std::vector<double> assembled = coarse.denseOperator();
  double freeMass = 0;
  int free = 0;
  for (const glm::vec4& x : c.s.positions)
    if (x.w > 0.f) freeMass += 1.0 / x.w, ++free;
  const double pinnedMass = freeMass / free;
  // Column (J, b) of P^T A P + R M (I - S) R^T: the fine operator applied to S e_b on J's particles.
  std::vector<double> expected(size_t(dofs) * dofs, 0.0);
  const size_t n = c.s.positions.size();
  std::vector<glm::vec4> probe(n);
  for (uint32_t J = 0; J < a.count(); ++J)
    for (int b = 0; b < 3; ++b) {
      std::fill(probe.begin(), probe.end(), glm::vec4(0.f));
      glm::vec3 e(0.f);
      e[b] = 1.f;
      for (uint32_t m = a.memberStarts[J]; m < a.memberStarts[J + 1]; ++m) {
        const uint32_t j = a.members[m];
        probe[j] = glm::vec4(gpu::applyFilter(c.constraint[j], e), 0.f);
        const double mass = c.s.positions[j].w > 0.f ? 1.0 / c.s.positions[j].w : pinnedMass;
        const glm::vec3 kept = e - gpu::applyFilter(c.constraint[j], e);
        for (int r = 0; r < 3; ++r) expected[size_t(3 * J + r) * dofs + 3 * J + b] += mass * kept[r];
      }
      for (uint32_t i = 0; i < n; ++i) {
        const glm::vec3 q = fineRow(c, probe, i);
        for (int r = 0; r < 3; ++r) expected[size_t(3 * a.of[i] + r) * dofs + 3 * J + b] += q[r];
      }
    }
  double scale = 0;
  for (double v : expected) scale = std::max(scale, std::abs(v));
  double worst = 0, asymmetry = 0;
  for (uint32_t r = 0; r < dofs; ++r)
    for (uint32_t k = 0; k < dofs; ++k) {
      worst = std::max(worst, std::abs(assembled[size_t(r) * dofs + k] - expected[size_t(r) * dofs + k]));
      asymmetry = std::max(asymmetry, std::abs(assembled[size_t(r) * dofs + k] - assembled[size_t(k) * dofs + r]));
    }
  EXPECT_LT(worst, 2e-5 * scale) << "largest entry " << scale;
  EXPECT_LT(asymmetry, 2e-5 * scale);
}

TEST(CgCoarse, TheOperatorIsTheGalerkinProductOfTheFilteredSystemOnGridTiles) { expectGalerkin(false); }
TEST(CgCoarse, TheOperatorIsTheGalerkinProductOfTheFilteredSystemOnMeshAggregates) { expectGalerkin(true); }

TEST(CgCoarse, ItsSolveInvertsTheOperator) {
  CoarseCase c = makeCase(true);
  ThreadPool pool(2);
  CgCoarse coarse;
  coarse.prepare(c.s.springs, c.s.elements);
  ASSERT_TRUE(coarse.assemble(c.s, c.constraint, c.h * c.drag, c.h * c.h, c.h, pool));
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::vec4> r(c.s.positions.size());
  for (uint32_t i = 0; i < r.size(); ++i) r[i] = glm::vec4(gpu::applyFilter(c.constraint[i], glm::vec3(u(rng), u(rng), u(rng))), 0.f);
  const double dot = coarse.solve(r, pool);
  const CgAggregates& a = coarse.aggregates();
  const uint32_t dofs = coarse.unknowns();
  std::vector<double> y(dofs, 0.0), z(dofs);
  for (uint32_t i = 0; i < r.size(); ++i)
    for (int k = 0; k < 3; ++k) y[3 * a.of[i] + k] += r[i][k];
  for (uint32_t g = 0; g < a.count(); ++g) {
    // every member of an aggregate gets its correction
    const glm::vec3 zg = coarse.correction(a.members[a.memberStarts[g]]);
    EXPECT_EQ(zg, coarse.correction(a.members[a.memberStarts[g + 1] - 1]));
    for (int k = 0; k < 3; ++k) z[3 * g + k] = zg[k];
  }
  const std::vector<double> A = coarse.denseOperator();
  double worst = 0, norm = 0, yz = 0;
  for (uint32_t row = 0; row < dofs; ++row) {
    double sum = 0;
    for (uint32_t k = 0; k < dofs; ++k) sum += A[size_t(row) * dofs + k] * z[k];
    worst = std::max(worst, std::abs(sum - y[row]));
    norm = std::max(norm, std::abs(y[row]));
    yz += y[row] * z[row];
  }
  EXPECT_LT(worst, 1e-5 * norm) << "A_c z against R r (z is kept in float)";
  EXPECT_NEAR(dot, yz, 1e-6 * std::abs(yz));
}

}  // namespace
}  // namespace weft::integrators
