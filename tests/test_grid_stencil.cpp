// The grid stencil path (shaders/grid_stencil.h) is an optimisation, not another model: a grid's
// cloth steps to the same bits whether its springs are found from the index or read from the table,
// on both backends and with every integrator that gathers springs from the index: those whose forces
// come from particleAcceleration, and Verlet's constraints.
#include <cmath>
#include <cstring>

#include "engine/record_stats.h"
#include "solver/model/spring_table.h"
#include "test_support.h"

namespace weft::test {
namespace {

struct StencilCase {
  Integrator integrator;
  Backend backend;
};

class GridStencilTest : public ValidatedTest, public ::testing::WithParamInterface<StencilCase> {};

// A cloth with every force particleAcceleration gathers: springs of three families, damping, drag
// and wind, gravity, two pinned corners and a sphere.
ClothModel hangingGrid() {
  GridSpec grid;
  grid.width = 13;
  grid.height = 10;
  grid.origin = glm::vec3(-0.5f, 1.2f, 0.f);
  grid.totalMass = 3.f;  // 23 g a particle: 16 steps a frame are stable for every integrator here
  ClothModel model = buildGrid(grid, Material{300.f, 60.f, 5.f, 0.08f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  return model;
}

SolverParams stencilParams(Integrator integrator) {
  SolverParams params;
  params.integrator = integrator;
  params.environment.airDrag = 0.003f;
  params.environment.wind = glm::vec3(0.6f, 0.f, 0.3f);
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = glm::vec3(0.f, 0.9f, 0.4f);
  sphere.radius = 0.25f;
  params.colliders = {sphere};
  return params;
}

bool sameBits(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)) == 0;
}

TEST_P(GridStencilTest, StepsToTheSameBitsAsTheSpringTable) {
  const StencilCase c = GetParam();
  const ClothModel model = hangingGrid();
  ClothModel unknown = model;  // the same cloth, not known to be a grid: its table is read
  unknown.gridWidth = unknown.gridHeight = 0;
  ASSERT_NE(buildSpringTable(model).grid.stencil.width, 0u);
  ASSERT_EQ(buildSpringTable(unknown).grid.stencil.width, 0u);
  const SolverParams params = stencilParams(c.integrator);
  auto stencil = makeTestSolver(model, params, c.backend);
  auto table = makeTestSolver(unknown, params, c.backend);
  for (int frame = 0; frame < 6; ++frame) {
    stencil->advance(1.f / 60.f, 16);
    table->advance(1.f / 60.f, 16);
  }
  std::vector<glm::vec4> xs, vs, xt, vt;
  stencil->readState(xs, vs);
  table->readState(xt, vt);
  EXPECT_TRUE(sameBits(xs, xt)) << "positions differ by up to " << maxPositionDifference(xs, xt) << " m";
  EXPECT_TRUE(sameBits(vs, vt)) << "velocities differ by up to " << maxPositionDifference(vs, vt) << " m/s";
  for (const glm::vec4& v : vs) ASSERT_TRUE(std::isfinite(v.x + v.y + v.z)) << "the step is unstable here";
  EXPECT_GT(maxPositionDifference(xs, packPositions(model)), 0.02f) << "the cloth did not move";
}

std::string caseName(const ::testing::TestParamInfo<StencilCase>& info) {
  std::string name = integratorName(info.param.integrator);
  std::erase(name, '-');
  return name + (info.param.backend == Backend::Cpu ? "_cpu" : "_gpu");
}

INSTANTIATE_TEST_SUITE_P(
    Integrators, GridStencilTest,
    ::testing::Values(StencilCase{Integrator::ExplicitEuler, Backend::Cpu}, StencilCase{Integrator::ExplicitEuler, Backend::Gpu},
                      StencilCase{Integrator::SymplecticEuler, Backend::Cpu}, StencilCase{Integrator::SymplecticEuler, Backend::Gpu},
                      StencilCase{Integrator::Verlet, Backend::Cpu}, StencilCase{Integrator::Verlet, Backend::Gpu},
                      StencilCase{Integrator::Rk4, Backend::Cpu}, StencilCase{Integrator::Rk4, Backend::Gpu},
                      StencilCase{Integrator::NonlinearCg, Backend::Cpu}, StencilCase{Integrator::NonlinearCg, Backend::Gpu}),
    caseName);

// The GPU solver does pick the stencil kernels for a grid: a step binds the spring table (rows,
// entries, bounds) for a cloth not known to be a grid, and the stencil with its 24 bytes of rest
// lengths a particle for the grid itself.
class GridStencilBinding : public ValidatedTest {};

TEST_F(GridStencilBinding, AGridsExplicitStepBindsNoSpringTable) {
  const ClothModel model = hangingGrid();
  ClothModel unknown = model;
  unknown.gridWidth = unknown.gridHeight = 0;
  const SolverParams params = stencilParams(Integrator::SymplecticEuler);
  auto boundBytes = [&](const ClothModel& m) {
    auto solver = makeTestSolver(m, params, Backend::Gpu);
    engine::RecordStats stats;
    {
      engine::ScopedRecordStats counting(stats);
      solver->advance(1.f / 60.f, 1);
    }
    return stats.total().boundBytes;
  };
  const SpringTable table = buildSpringTable(model);
  const uint64_t tableBytes = table.rows.size() * sizeof(uint32_t) + table.entries.size() * sizeof(gpu::SpringEntry) +
                              sizeof(gpu::StrainLimit);  // the bounds' one-entry placeholder
  const uint64_t stencilBytes = sizeof(gpu::GridStencil) + model.particleCount() * WEFT_GRID_REST_SLOTS * sizeof(float);
  EXPECT_EQ(boundBytes(unknown) - boundBytes(model), tableBytes - stencilBytes);
}

}  // namespace
}  // namespace weft::test
