// The GPU passes and the CPU loops compute the same thing: after a few hundred steps of the same
// scene they agree to float32 rounding. A missing barrier between in-place passes (which the
// validation layer does not always flag) shows up here as a large difference.
#include <cmath>

#include "solver/model/spring_table.h"
#include "test_support.h"

namespace weft::test {
namespace {

class BackendsAgreeTest : public ValidatedTest, public ::testing::WithParamInterface<Integrator> {};


TEST_P(BackendsAgreeTest, GpuMatchesCpuAfterHundredsOfSteps) {
  GridSpec grid;
  grid.width = 20;
  grid.height = 16;  // not a multiple of anything in particular: exercises the tail guards
  grid.origin = glm::vec3(-0.5f, 1.2f, 0.f);
  grid.totalMass = 0.5f;
  ClothModel model = buildGrid(grid, Material{80.f, 20.f, 4.f, 0.05f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  SolverParams params;
  params.integrator = GetParam();
  params.iterations = 12;
  params.environment.airDrag = 0.002f;
  params.environment.wind = glm::vec3(0.5f, 0.f, 0.2f);
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = glm::vec3(0.f, 0.6f, 0.5f);
  sphere.radius = 0.3f;
  ColliderDesc ground;
  params.colliders = {sphere, ground};

  auto cpu = makeTestSolver(model, params, Backend::Cpu);
  auto gpu = makeTestSolver(model, params, Backend::Gpu);
  const int frames = 10, substeps = 30;  // 300 steps of 1/1800 s
  for (int f = 0; f < frames; ++f) {
    cpu->advance(1.f / 60.f, substeps);
    gpu->advance(1.f / 60.f, substeps);
  }
  std::vector<glm::vec4> xc, vc, xg, vg;
  cpu->readState(xc, vc);
  gpu->readState(xg, vg);
  // Same formulas, same summation order (CSR gather), so the only differences are rounding: the
  // GPU compiler may fuse multiply-adds the CPU rounds twice. A float32 ulp at 1 m is 1.2e-7;
  // 300 steps of a damped, mostly contracting system keep the drift within a few hundred ulps.
  // A wrong pass (missing barrier, wrong buffer) moves particles by centimetres.
  float dx = maxPositionDifference(xc, xg);
  EXPECT_LT(dx, 1e-4f) << "positions differ by " << dx << " m";
  // and the cloth did move: the comparison is not between two untouched states
  EXPECT_GT(maxPositionDifference(xc, packPositions(model)), 0.05f);
  std::printf("[ info ] %s: max |x_gpu - x_cpu| = %.3g m after %d steps\n", integratorName(GetParam()), dx,
              frames * substeps);
}

INSTANTIATE_TEST_SUITE_P(Integrators, BackendsAgreeTest,
                         ::testing::Values(Integrator::ExplicitEuler, Integrator::SymplecticEuler, Integrator::Verlet,
                                           Integrator::Rk4),
                         [](const auto& info) {
                           std::string name = integratorName(info.param);
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
}  // namespace weft::test
