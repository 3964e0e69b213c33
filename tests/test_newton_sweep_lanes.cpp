// Newton-Chebyshev's sweep in lanes (newton_sweep_lanes.h), four and eight wide, against the
// scalar rows (springResidual, then newtonSweepRow): the same bits in every y_(j+1), Nesterov x_j
// and |r_j|^2, under Chebyshev's weights (1 and not), Nesterov's momentum (0 and not), with and
// without the elements' part taken away. The groups' particles have as many spring ends or not (a
// row out of ends keeps its residual while the others take their terms away); some rows have no
// spring ends at all (one whose residual is -0), some are pinned (mass term 0, or NaN), and the
// iterate holds a NaN. (CgProductLanes checks which width runs, for both solves.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "solver/integrators/newton_chebyshev/newton_sweep_lanes.h"
#include "solver/cpu/simd/lanes.h"
#include "lane_test_rows.h"

namespace weft::integrators {
namespace {

struct Case {
  LaneTestRows springs;  // blocks: the couplings
  std::vector<glm::vec4> rhs, diagonal, dx, dxPrev, lastJacobi, taken;
  NewtonSweepInput input(float omega, bool nesterov) {
    return {springs.rows.data(), springs.entries.data(), springs.blocks.data(), rhs.data(), diagonal.data(),
            dx.data(), dxPrev.data(), lastJacobi.data(), omega, nesterov};
  }
};

// n particles with laneTestRows' spring ends (the empty rows' b.x -0 and y.x +0: their residual's
// x stays -0); every 11th pinned (mass term 0) and every 37th with a NaN mass term, one NaN in the
// iterate.
Case makeCase(uint32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> r(-1.f, 1.f);
  Case c;
  c.springs = laneTestRows(n, rng, [&](std::mt19937& g) { return glm::vec4(r(g), r(g), r(g), 50.f * (1.f + r(g))); });
  for (uint32_t i = 0; i < n; ++i) {
    c.rhs.emplace_back(r(rng), r(rng), r(rng), 0.f);
    c.dx.emplace_back(r(rng), r(rng), r(rng), 0.f);
    c.dxPrev.emplace_back(r(rng), r(rng), r(rng), 0.f);
    c.lastJacobi.emplace_back(r(rng), r(rng), r(rng), r(rng));
    c.taken.emplace_back(r(rng), r(rng), r(rng), r(rng));
    const float massTerm = i % 11 == 4 ? 0.f : i % 37 == 9 ? std::nanf("") : 36.f * (1.5f + r(rng));
    c.diagonal.emplace_back(r(rng), r(rng), r(rng), r(rng));
    c.diagonal.emplace_back(r(rng), r(rng), massTerm, 0.f);
  }
  for (uint32_t i = 0; i < n; ++i)
    if (laneTestRowIsEmpty(i)) c.rhs[i].x = -0.f, c.dx[i].x = 0.f, c.taken[i].x = 0.f;
  c.dx[n / 2].y = std::nanf("");
  return c;
}

bool sameRows(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  return std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)) == 0;
}

// Every group of `width` consecutive rows, from its own copy of y_(j-1) and x_j, through the kernel
// and through the scalar rows.
void expectScalarBits(NewtonSweepLanes kernel, int width, float omega, bool nesterov, bool withTaken) {
  const uint32_t n = 301;
  Case c = makeCase(n, 11u + unsigned(width));
  GroupKinds kinds;
  int negativeZero = 0, pinned = 0;
  for (uint32_t first = 0; first + uint32_t(width) <= n; ++first) {
    kinds.add(c.springs.rows, first, width);
    Case lanes = c;
    float norms[8];
    kernel(lanes.input(omega, nesterov), first, withTaken ? &c.taken[first] : nullptr, norms);
    Case scalar = c;
    const NewtonSweepInput in = scalar.input(omega, nesterov);
    for (int l = 0; l < width; ++l) {
      const uint32_t i = first + uint32_t(l);
      glm::vec3 r(0.f);
      if (sweepMassTerm(in, i) > 0.f) r = springResidual(in, i) - (withTaken ? glm::vec3(c.taken[i]) : glm::vec3(0.f));
      const float norm = newtonSweepRow(in, i, r);
      negativeZero += r.x == 0.f && std::signbit(r.x) ? 1 : 0;
      pinned += sweepMassTerm(in, i) > 0.f ? 0 : 1;
      ASSERT_TRUE(sameBits(norms[l], norm)) << "row " << i << ": " << norms[l] << " against " << norm;
    }
    ASSERT_TRUE(sameRows(lanes.dxPrev, scalar.dxPrev)) << "y_(j+1) of the group at " << first;
    ASSERT_TRUE(sameRows(lanes.lastJacobi, scalar.lastJacobi)) << "x_(j+1) of the group at " << first;
  }
  EXPECT_GT(kinds.uniform, 100);
  EXPECT_GT(kinds.mixed, 20);
  EXPECT_GT(kinds.withEmptyRow, 10);
  EXPECT_GT(negativeZero, 10);
  EXPECT_GT(pinned, 30);
}

// Both accelerations at their plain and their weighted sweeps, with and without the elements' part.
void expectScalarBitsEverywhere(NewtonSweepLanes kernel, int width) {
  for (const bool withTaken : {false, true}) {
    SCOPED_TRACE(withTaken ? "elements' part taken" : "springs only");
    expectScalarBits(kernel, width, 1.f, false, withTaken);
    expectScalarBits(kernel, width, 1.7f, false, withTaken);
    expectScalarBits(kernel, width, 0.f, true, withTaken);
    expectScalarBits(kernel, width, 0.6f, true, withTaken);
  }
}

TEST(NewtonSweepLanes, FourWideGivesTheScalarRowsBits) {
  if (!newtonSweepLanesSse()) GTEST_SKIP() << "this build has no SSE2 lanes";
  expectScalarBitsEverywhere(newtonSweepLanesSse(), 4);
}

TEST(NewtonSweepLanes, EightWideGivesTheScalarRowsBits) {
  if (!newtonSweepLanesAvx2() || processorLaneWidth() < 8) GTEST_SKIP() << "no AVX2 here";
  expectScalarBitsEverywhere(newtonSweepLanesAvx2(), 8);
}

// The scalar row's step, in double precision: jacobi = y + s D^-1 r, with D^-1 the symmetric
// matrix of the particle's two vec4 and s Nesterov's half step (else 1); y_(j+1) = omega (jacobi -
// y_(j-1)) + y_(j-1) under Chebyshev, jacobi + beta (jacobi - x_j) under Nesterov, which keeps
// x_(j+1) = jacobi; a pinned row gets 0 and keeps x_j.
TEST(NewtonSweepLanes, TheScalarRowIsTheAcceleratedBlockJacobiStep) {
  for (const bool nesterov : {false, true}) {
    Case c = makeCase(97, 5u);
    const Case before = c;
    const float weight = nesterov ? 0.6f : 1.7f;
    const NewtonSweepInput in = c.input(weight, nesterov);
    int checked = 0;
    for (uint32_t i = 0; i < 97; ++i) {
      const glm::vec3 r = glm::vec3(c.taken[i]);  // any residual
      const float norm = newtonSweepRow(in, i, r);
      const glm::vec4 a = c.diagonal[2 * i], b = c.diagonal[2 * i + 1];
      if (!(b.z > 0.f)) {
        EXPECT_EQ(c.dxPrev[i], glm::vec4(0.f)) << "row " << i;
        EXPECT_EQ(norm, 0.f);
        EXPECT_TRUE(sameRows({c.lastJacobi[i]}, {before.lastJacobi[i]}));
        continue;
      }
      const glm::dmat3 inverse(a.x, a.w, b.x, a.w, a.y, b.y, b.x, b.y, a.z);
      const glm::dvec3 y(glm::vec3(c.dx[i])), rd(r);
      const glm::dvec3 jacobi = y + (nesterov ? 0.5 : 1.0) * (inverse * rd);
      const glm::dvec3 expected = nesterov ? jacobi + double(weight) * (jacobi - glm::dvec3(glm::vec3(before.lastJacobi[i])))
                                           : double(weight) * (jacobi - glm::dvec3(glm::vec3(before.dxPrev[i]))) +
                                                 glm::dvec3(glm::vec3(before.dxPrev[i]));
      for (int axis = 0; axis < 3; ++axis) {
        EXPECT_NEAR(c.dxPrev[i][axis], expected[axis], 1e-5) << "row " << i;
        if (nesterov) {
          EXPECT_NEAR(c.lastJacobi[i][axis], jacobi[axis], 1e-5) << "row " << i;
        }
      }
      EXPECT_EQ(c.dxPrev[i].w, 0.f);
      EXPECT_NEAR(norm, glm::dot(rd, rd), 1e-5);
      ++checked;
    }
    EXPECT_GT(checked, 80);
  }
}

// The scalar residual is the sweep's: b - (mass term) y - the couplings' products, here against a
// residual built from the coupling matrices (systemBlockMatrix) in double precision.
TEST(NewtonSweepLanes, TheScalarResidualIsBMinusTheSystemTimesY) {
  Case c = makeCase(97, 3u);
  const NewtonSweepInput in = c.input(1.f, false);
  int checked = 0;
  for (uint32_t i = 0; i < 97; ++i) {
    const glm::vec3 r = springResidual(in, i);
    if (std::isnan(r.x + r.y + r.z)) continue;  // the rows that meet the iterate's NaN
    const glm::dvec3 yi(glm::vec3(c.dx[i]));
    glm::dvec3 expected = glm::dvec3(glm::vec3(c.rhs[i])) - double(c.diagonal[2 * i + 1].z) * yi;
    double scale = glm::length(expected);
    for (uint32_t k = c.springs.rows[i]; k < c.springs.rows[i + 1]; ++k) {
      const glm::dvec3 term = glm::dmat3(gpu::systemBlockMatrix(c.springs.blocks[k])) * (yi - glm::dvec3(glm::vec3(c.dx[c.springs.entries[k].other])));
      expected -= term;
      scale += glm::length(term);
    }
    for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(r[axis], expected[axis], 1e-5 * scale) << "row " << i;
    ++checked;
  }
  EXPECT_GT(checked, 80);
}

}  // namespace
}  // namespace weft::integrators
