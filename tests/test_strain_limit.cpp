// Strain limiting (Provot 1995) on both backends, against what it promises: no structural or shear
// spring outside [(1 - compression) L, (1 + stretch) L] after a step (within the Jacobi
// iterations' convergence), nothing changed where no limit binds, the two backends agreeing, and
// a free cloth's momentum kept.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "solver/model/spring_table.h"
#include "test_support.h"

namespace weft::test {
namespace {

constexpr StrainLimitSpec kLimit{0.1f, 0.05f};  // at most 10 % stretch and 5 % compression

// The worst stretch and compression (fractions of the rest length) of the limited springs.
struct Strain {
  float stretch = 0.f, compression = 0.f;
};
Strain worstStrain(const ClothModel& model, const std::vector<glm::vec4>& x) {
  Strain worst;
  for (const Spring& s : model.springs) {
    if (s.kind == SpringKind::Bend) continue;
    const float ratio = glm::distance(glm::vec3(x[s.a]), glm::vec3(x[s.b])) / s.restLength;
    worst.stretch = std::max(worst.stretch, ratio - 1.f);
    worst.compression = std::max(worst.compression, 1.f - ratio);
  }
  return worst;
}

// Jacobi averaging converges approximately: after the iterations the tests give it, the worst spring
// is this far (a fraction of its rest length) past its limit at most. Measured on the 16x16 cloth at
// dt = 0.1 s (ImplicitStepAtATenthOfASecond...), worst over 10 frames, with the shares weighted by
// counts of violated springs (before strainShare weighted them by excess): 17.7 % stretch after 16
// iterations, 12.3 % after 64, 11.7 % after 256, 10.26 % after 1024; by excess, 10.06 % after 1024.
constexpr float kSlack = 0.005f;

// A soft cloth (20 N/m) sags far past 10 % under gravity; the explicit integrators need short
// steps to hold it (explicit Euler gains energy at any step; its springs' damping holds it here).
constexpr float kSoft = 20.f;
int substepsFor(Integrator integrator) {
  const bool explicitForces = integrator == Integrator::ExplicitEuler || integrator == Integrator::SymplecticEuler ||
                              integrator == Integrator::Rk4;
  return explicitForces ? 32 : 8;
}

bool sameBits(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)) == 0;
}

// seed 004's flat cloth pinned at two corners: the implicit tests' 16x16, 2000 N/m cloth.
ClothModel flatCloth(uint32_t side, const StrainLimitSpec& limit, float stiffness = 2000.f) {
  GridSpec grid;
  grid.width = side;
  grid.height = side;
  grid.origin = glm::vec3(-0.5f, 1.5f, 0.f);
  grid.totalMass = 0.3f;
  Material material{stiffness, stiffness / 4.f, stiffness / 40.f, 0.5f};
  material.strainLimit = limit;
  ClothModel model = buildGrid(grid, material);
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  return model;
}

// The worst strain over `frames` frames of one step each, measured after every frame.
Strain worstOverFrames(Solver& solver, const ClothModel& model, int frames, float frameDt, int substeps) {
  Strain worst;
  std::vector<glm::vec4> x, v;
  for (int f = 0; f < frames; ++f) {
    solver.advance(frameDt, substeps);
    solver.readState(x, v);
    for (size_t i = 0; i < x.size(); ++i) {  // the projection never moves a pin
      if (model.pinned[i]) {
        EXPECT_EQ(glm::vec3(x[i]), model.positions[i]) << "frame " << f << " particle " << i;
      }
    }
    const Strain s = worstStrain(model, x);
    worst.stretch = std::max(worst.stretch, s.stretch);
    worst.compression = std::max(worst.compression, s.compression);
  }
  return worst;
}

class StrainLimitTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

TEST_P(StrainLimitTest, ImplicitStepAtATenthOfASecondStaysInsideTheLimit) {
  // At dt = 0.1 s implicit Euler takes the flat cloth most of the way down in one step: the springs
  // by the pins stretch far past 10 %. With the limit every frame must end inside it.
  SolverParams params;
  params.integrator = Integrator::ImplicitCg;
  params.strainLimitIterations = 1024;  // Jacobi needs them on a 16-particle chain from 263 % stretch
  const int frames = 10;
  const ClothModel free = flatCloth(16, {});
  const ClothModel limited = flatCloth(16, kLimit);
  auto unlimitedSolver = makeTestSolver(free, params, GetParam());
  const Strain without = worstOverFrames(*unlimitedSolver, free, frames, 0.1f, 1);
  auto solver = makeTestSolver(limited, params, GetParam());
  const Strain with = worstOverFrames(*solver, limited, frames, 0.1f, 1);
  std::printf("[ info ] implicit-cg, dt 0.1 s, %d frames, %d iterations: worst stretch %.4f (without the limit %.4f), "
              "worst compression %.4f (without %.4f)\n",
              frames, params.strainLimitIterations, with.stretch, without.stretch, with.compression, without.compression);
  EXPECT_GT(without.stretch, 0.5f);  // the test means something only where the limit binds
  EXPECT_LE(with.stretch, kLimit.stretch + kSlack);
  EXPECT_LE(with.compression, kLimit.compression + kSlack);
}

TEST_P(StrainLimitTest, EveryIntegratorStaysInsideTheLimit) {
  // The soft cloth hanging from two corners: its springs by the pins stretch far past 10 % without
  // the limit (except under Verlet, whose own constraints hold the rest lengths) and stay inside it with.
  const ClothModel free = flatCloth(8, {}, kSoft);
  const ClothModel limited = flatCloth(8, kLimit, kSoft);
  for (size_t k = 0; k < kIntegratorCount; ++k) {
    SolverParams params;
    params.integrator = static_cast<Integrator>(k);
    params.strainLimitIterations = 64;
    const int substeps = substepsFor(params.integrator);
    auto unlimitedSolver = makeTestSolver(free, params, GetParam());
    const Strain without = worstOverFrames(*unlimitedSolver, free, 15, 1.f / 60.f, substeps);
    auto solver = makeTestSolver(limited, params, GetParam());
    const Strain with = worstOverFrames(*solver, limited, 15, 1.f / 60.f, substeps);
    std::printf("[ info ] %-16s worst stretch %.4f (without %.4f), compression %.4f (without %.4f)\n",
                integratorName(params.integrator), with.stretch, without.stretch, with.compression, without.compression);
    if (params.integrator != Integrator::Verlet) {
      EXPECT_GT(without.stretch, kLimit.stretch + kSlack) << integratorName(params.integrator);
    }
    EXPECT_LE(with.stretch, kLimit.stretch + kSlack) << integratorName(params.integrator);
    EXPECT_LE(with.compression, kLimit.compression + kSlack) << integratorName(params.integrator);
  }
}

TEST_P(StrainLimitTest, ALimitThatNeverBindsChangesNothing) {
  // Off (no material limit, whatever strainLimitIterations says) is the solver as it was: no pass at
  // all. And a limit too wide to bind (1000 % stretch, 99 % compression) still runs every pass, one
  // integrator step at a time: its results must be the same bits too, except nonlinear-cg's, whose
  // adaptive steps then land on every requested step rather than only on the frame's end.
  const ClothModel off = flatCloth(8, {}, kSoft);
  const ClothModel wide = flatCloth(8, {10.f, 0.99f}, kSoft);
  for (size_t k = 0; k < kIntegratorCount; ++k) {
    SolverParams params;
    params.integrator = static_cast<Integrator>(k);
    const char* name = integratorName(params.integrator);
    SolverParams otherIterations = params;
    otherIterations.strainLimitIterations = 3;
    auto reference = makeTestSolver(off, params, GetParam());
    auto keyOnly = makeTestSolver(off, otherIterations, GetParam());
    auto unbound = makeTestSolver(wide, params, GetParam());
    std::vector<glm::vec4> x0, v0, x1, v1, x2, v2;
    for (int f = 0; f < 5; ++f)
      for (Solver* s : {reference.get(), keyOnly.get(), unbound.get()}) s->advance(1.f / 60.f, substepsFor(params.integrator));
    reference->readState(x0, v0);
    keyOnly->readState(x1, v1);
    unbound->readState(x2, v2);
    EXPECT_TRUE(sameBits(x0, x1) && sameBits(v0, v1)) << name;
    if (params.integrator != Integrator::NonlinearCg) {
      EXPECT_TRUE(sameBits(x0, x2)) << name << ": positions differ by " << maxPositionDifference(x0, x2) << " m";
      EXPECT_TRUE(sameBits(v0, v2)) << name;
    }
    EXPECT_GT(maxPositionDifference(x0, packPositions(off)), 0.01f) << name;  // it moved
  }
}

TEST_P(StrainLimitTest, TheCorrectionKeepsAFreeClothsMomentum) {
  // No pins, no gravity, springs of zero stiffness: every particle flies straight, the cloth
  // expanding about its centre (20 % per step) while drifting sideways. The limit pulls it back to
  // 10 % stretch; its corrections are equal and opposite impulses, so the momentum stays what it was.
  GridSpec grid;
  grid.width = 8;
  grid.height = 8;
  grid.totalMass = 0.3f;
  Material material{0.f, 0.f, 0.f, 0.f};
  material.strainLimit = kLimit;
  ClothModel model = buildGrid(grid, material);
  const glm::vec3 centre(0.5f, 0.f, 0.5f), drift(0.3f, 0.1f, -0.2f);
  const float dt = 0.1f;
  // Plus an irregular part, so that no symmetry of the cloth cancels what a one-sided correction
  // would add (a per-particle average of the corrections fails this test; the symmetric share passes).
  for (size_t i = 0; i < model.particleCount(); ++i) {
    const float a = float(i * 7919 % 101) / 101.f, b = float(i * 104729 % 97) / 97.f;
    model.velocities[i] = drift + 2.f * (model.positions[i] - centre) + glm::vec3(a - 0.5f, 0.f, b - 0.5f);
  }
  auto momentum = [&](const std::vector<glm::vec4>& v) {
    glm::dvec3 p(0.0);
    for (size_t i = 0; i < v.size(); ++i) p += double(model.masses[i]) * glm::dvec3(glm::vec3(v[i]));
    return p;
  };
  SolverParams params;
  params.integrator = Integrator::SymplecticEuler;
  params.environment.gravity = glm::vec3(0.f);
  params.strainLimitIterations = 256;  // a uniform expansion relaxes from the edges inwards: slowly
  auto solver = makeTestSolver(model, params, GetParam());
  std::vector<glm::vec4> x, v;
  solver->readState(x, v);
  const glm::dvec3 before = momentum(v);
  double scale = 0.0;  // the sum of |m v|: what float rounding is relative to
  for (size_t i = 0; i < v.size(); ++i) scale += model.masses[i] * glm::length(glm::vec3(v[i]));
  solver->advance(dt, 1);
  solver->readState(x, v);
  const glm::dvec3 after = momentum(v);
  const Strain strain = worstStrain(model, x);
  std::printf("[ info ] free cloth: momentum change %.3g kg m/s of sum |m v| %.3g; worst stretch %.4f (20 %% unlimited)\n",
              glm::length(after - before), scale, strain.stretch);
  EXPECT_LE(strain.stretch, kLimit.stretch + 0.02f);  // the limit acted (20 % without it)
  // Each iteration's corrections cancel in exact arithmetic; each adds at most a float rounding of
  // the momentum it moves. Measured: 4.8e-7 (CPU) and 4.2e-9 (GPU) of 0.27 kg m/s (2.4e-3 with a
  // per-particle average instead of the symmetric share).
  EXPECT_LE(glm::length(after - before),
            params.strainLimitIterations * double(std::numeric_limits<float>::epsilon()) * scale);
}

INSTANTIATE_TEST_SUITE_P(Backends, StrainLimitTest, ::testing::ValuesIn(allBackends()), backendParamName);

class StrainLimitAgreement : public ValidatedTest {};

TEST_F(StrainLimitAgreement, CpuAndGpuAgreeWithTheLimitActive) {
  // The same physics header on both sides, so only float rounding separates the backends; but the
  // projection amplifies it. Without the limit, on a harder throw (8 m/s per m), the states agree
  // bit for bit (symplectic Euler) and within 2.4e-7 m (implicit-cg) over 10 frames. With it, on that
  // throw, after one step the positions still agree bit for bit and the velocities within 4e-6 m/s
  // of kicks of tens of m/s (position moves / dt). Here, 10 frames later the positions differ by
  // 0.17 mm (symplectic Euler, at 32 steps a frame, each projected) and 0.02 mm (implicit-cg).
  // The soft cloth, thrown outwards (2 m/s per m from its centre) so the limit binds within frames.
  auto thrown = [](const StrainLimitSpec& limit) {
    ClothModel model = flatCloth(8, limit, kSoft);
    for (size_t i = 0; i < model.particleCount(); ++i)
      model.velocities[i] = 2.f * (model.positions[i] - glm::vec3(0.f, 1.5f, 0.5f));
    for (Spring& s : model.springs) s.damping = 0.f;  // else the springs' damping stops the throw within a frame
    return model;
  };
  const ClothModel model = thrown(kLimit);
  for (Integrator integrator : {Integrator::SymplecticEuler, Integrator::ImplicitCg}) {
    SolverParams params;
    params.integrator = integrator;
    params.strainLimitIterations = 64;
    auto cpu = makeTestSolver(model, params, Backend::Cpu);
    auto gpu = makeTestSolver(model, params, Backend::Gpu);
    std::vector<glm::vec4> xc, vc, xg, vg;
    auto unlimited = makeTestSolver(thrown({}), params, Backend::Cpu);
    float stretch = 0.f;  // the worst over the frames, with and without the limit
    for (int f = 0; f < 10; ++f) {
      cpu->advance(1.f / 60.f, substepsFor(integrator));
      gpu->advance(1.f / 60.f, substepsFor(integrator));
      cpu->readState(xc, vc);
      stretch = std::max(stretch, worstStrain(model, xc).stretch);
    }
    const float unlimitedStretch = worstOverFrames(*unlimited, model, 10, 1.f / 60.f, substepsFor(integrator)).stretch;
    gpu->readState(xg, vg);
    const float dx = maxPositionDifference(xc, xg);
    for (Solver* solver : {cpu.get(), gpu.get()}) {  // its own pass in the timings, GPU timestamps included
      const PassTimes times = solver->lastPassTimes();
      EXPECT_TRUE(std::any_of(times.begin(), times.end(), [](const auto& t) { return t.first == "strain_limit"; }))
          << backendName(solver->backend());
    }
    std::printf("[ info ] %s with the limit active, 10 frames: CPU and GPU positions differ by %.3g m; worst stretch "
                "%.4f (without the limit %.4f)\n",
                integratorName(integrator), dx, stretch, unlimitedStretch);
    // About three times what was measured; a CPU twin with one-sided shares parted them by 1.6 mm
    // and 0.9 mm, and an empty one would by centimetres.
    EXPECT_LT(dx, integrator == Integrator::ImplicitCg ? 1e-4f : 5e-4f) << integratorName(integrator);
    EXPECT_LE(stretch, kLimit.stretch + kSlack) << integratorName(integrator);
    EXPECT_GT(unlimitedStretch, kLimit.stretch + 0.05f) << "the limit must bind for this test to mean anything";
  }
}

}  // namespace
}  // namespace weft::test
