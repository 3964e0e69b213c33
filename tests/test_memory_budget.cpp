// The memory check before a solver allocates: the estimate is the state each backend really
// makes, and a cloth past a limit is refused with one sentence that names the size and the limit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "input_error.h"
#include "solver/cpu/cpu_solver.h"
#include "solver/model/elements.h"
#include "solver/gpu/gpu_solver.h"
#include "solver/model/host_memory.h"
#include "solver/backend/memory_budget.h"
#include "test_support.h"

namespace weft {
namespace {

using ::testing::HasSubstr;
using test::inputErrorOf;

ClothModel springGrid() {
  GridSpec grid;
  grid.width = 23;
  grid.height = 17;
  ClothModel model = buildGrid(grid, Material{});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  return model;
}

// Bend springs, three element kinds (a membrane, triangles against the wind, tethers) and pins.
ClothModel elementGrid() {
  ClothModel model = springGrid();
  ForceModels forces;
  forces.membrane = MembraneSpec{300.f, 150.f, 50.f, 0.001f};
  forces.aerodynamics = AeroSpec{};
  forces.tethers = TetherSpec{200.f, 0.05f};
  applyForceModels(model, forces);
  return model;
}

// A strain limit adds its per-spring-end table and per-particle sums (solver/passes/strain_limit.h).
ClothModel limitedGrid() {
  ClothModel model = springGrid();
  applyStrainLimit(model, StrainLimitSpec{0.1f, 0.05f});
  return model;
}

// Seed 004's force bounds and the projection together: both tables.
ClothModel boundedGrid() {
  ClothModel model = springGrid();
  applyStrainLimit(model, StrainLimitSpec{0.1f, 0.05f, StrainLimitMode::Both});
  return model;
}

std::vector<Integrator> everyIntegrator() {
  std::vector<Integrator> all;
  for (size_t i = 0; i < kIntegratorCount; ++i) all.push_back(static_cast<Integrator>(i));
  return all;
}

TEST(MemoryBudget, StateSizeCountsTheTablesTheSolversBuild) {
  for (const ClothModel& model : {springGrid(), elementGrid(), limitedGrid(), boundedGrid()}) {
    const StateSize size = stateSize(model);
    const SpringTable springs = buildSpringTable(model);
    const ElementTable elements = buildElementTable(model);
    EXPECT_EQ(size.particles, model.particleCount());
    EXPECT_EQ(size.springEntries, springs.entries.size());
    EXPECT_EQ(size.elements, elements.elements.size());
    EXPECT_EQ(size.elementRefs, elements.refs.size());
    EXPECT_EQ(size.strainLimitEntries, springs.strainLimits.size());
    EXPECT_EQ(size.forceBoundEntries, springs.forceBounds.size());
    EXPECT_EQ(size.gridRestLengths, springs.grid.restLengths.size());
  }
}

// At 128^2 (11 x 11 tiles, 144 aggregates) the two-level estimate still covers what it holds.
TEST(MemoryBudget, TheTwoLevelEstimateCoversALargeGridsCoarseLevel) {
  GridSpec grid;
  grid.width = grid.height = 128;
  const ClothModel model = buildGrid(grid, Material{});
  SolverParams params;
  params.integrator = Integrator::ImplicitCg;
  params.preconditioner = Preconditioner::TwoLevel;
  CpuSolver solver(model, params, 1);
  solver.advance(1.f / 60.f, 1);
  const MemoryNeed need = cpuStateNeed(stateSize(model), Integrator::ImplicitCg, Acceleration::Chebyshev, Preconditioner::TwoLevel);
  const MemoryNeed without = cpuStateNeed(stateSize(model), Integrator::ImplicitCg);
  EXPECT_GE(need.total, solver.stateBytes());
  EXPECT_LE(need.total - without.total, 8 * (solver.stateBytes() - without.total));
}

TEST(MemoryBudget, CpuEstimateIsTheStateEachIntegratorGrows) {
  for (const ClothModel& model : {springGrid(), elementGrid(), limitedGrid(), boundedGrid()}) {
    uint64_t worst = 0;
    for (Acceleration acceleration : {Acceleration::Chebyshev, Acceleration::Nesterov})
      for (Integrator integrator : everyIntegrator()) {
        SolverParams params;
        params.integrator = integrator;
        params.acceleration = acceleration;
        CpuSolver solver(model, params, 1);
        solver.advance(1.f / 60.f, 1);
        const MemoryNeed need = cpuStateNeed(stateSize(model), integrator, acceleration);
        EXPECT_EQ(need.total, solver.stateBytes()) << integratorName(integrator) << int(acceleration);
        worst = std::max(worst, solver.stateBytes());
      }
    // The two-level preconditioner's tables exactly, its coarse level by an estimate that covers
    // it and is not far above it (at most 8 times what it holds: on these 23 x 17 cloths the
    // estimate takes their 30 tiles as 41 aggregates of 16 neighbours).
    uint64_t worstTwoLevel = 0;
    for (Integrator integrator : {Integrator::ImplicitCg, Integrator::Imex}) {
      SolverParams params;
      params.integrator = integrator;
      params.preconditioner = Preconditioner::TwoLevel;
      CpuSolver solver(model, params, 1);
      solver.advance(1.f / 60.f, 1);
      const MemoryNeed need = cpuStateNeed(stateSize(model), integrator, Acceleration::Chebyshev, Preconditioner::TwoLevel);
      const MemoryNeed without = cpuStateNeed(stateSize(model), integrator);
      EXPECT_GE(need.total, solver.stateBytes()) << integratorName(integrator);
      const uint64_t held = solver.stateBytes() - without.total;
      EXPECT_GE(held, stateSize(model).springEntries * sizeof(uint32_t)) << "at least each entry's slot";
      EXPECT_LE(need.total - without.total, 8 * held) << integratorName(integrator);
      worstTwoLevel = std::max(worstTwoLevel, need.total);
    }
    EXPECT_EQ(cpuStateNeed(stateSize(model)).total, std::max(worst, worstTwoLevel));
  }
}

// The buffers alive on the context after a frame, less those before: the estimate leaves out only
// buffers of fixed size (colliders, solve scalars, indirect arguments, step logs, readbacks).
TEST(MemoryBudget, GpuEstimateIsTheBuffersEachIntegratorMakes) {
  engine::Context& context = test::gpuContext();
  for (const ClothModel& model : {springGrid(), elementGrid(), limitedGrid(), boundedGrid()}) {
    uint64_t worst = 0;
    for (Acceleration acceleration : {Acceleration::Chebyshev, Acceleration::Nesterov})
      for (Integrator integrator : everyIntegrator()) {
        SolverParams params;
        params.integrator = integrator;
        params.acceleration = acceleration;
        const uint64_t before = context.bufferBytes();
        GpuSolver solver(model, params, context, test::embeddedShaders());
        solver.advance(1.f / 60.f, 1);
        const uint64_t actual = context.bufferBytes() - before;
        const MemoryNeed need = gpuStateNeed(stateSize(model), integrator, acceleration);
        EXPECT_LE(need.total, actual) << integratorName(integrator) << int(acceleration);
        EXPECT_LE(actual, need.total + 1024) << integratorName(integrator) << int(acceleration);
        worst = std::max(worst, actual);
      }
    EXPECT_LE(gpuStateNeed(stateSize(model)).total, worst);
    EXPECT_LE(worst, gpuStateNeed(stateSize(model)).total + 1024);
  }
  EXPECT_EQ(context.validationMessageCount(), 0u);
}

TEST(MemoryBudget, GridModelBytesAreWhatBuildGridAllocates) {
  for (uint32_t side : {2u, 3u, 23u}) {
    GridSpec grid;
    grid.width = side;
    grid.height = side + 4;
    const ClothModel m = buildGrid(grid, Material{});
    auto bytes = [](const auto& v) { return uint64_t(v.size()) * sizeof(v[0]); };
    EXPECT_EQ(gridModelBytes(grid.width, grid.height), bytes(m.positions) + bytes(m.velocities) + bytes(m.masses) +
                                                           bytes(m.pinned) + bytes(m.springs) + bytes(m.triangles) +
                                                           bytes(m.bendPairs))
        << side;
  }
}

TEST(MemoryBudget, MeshModelBytesBoundWhatBuildMeshAllocates) {
  // A grid's triangles given as a mesh: meshModelBytes, computed before building, is at least what
  // the model holds (it counts the topology's worst case and the sorted edge triples) and within
  // a small factor of it.
  for (uint32_t side : {2u, 5u, 31u}) {
    GridSpec grid;
    grid.width = grid.height = side;
    const ClothModel g = buildGrid(grid, Material{});
    const ClothModel m = buildMesh(g.positions, g.triangles, Material{}, 1.f, 0.f);
    auto bytes = [](const auto& v) { return uint64_t(v.size()) * sizeof(v[0]); };
    const uint64_t held = bytes(m.positions) + bytes(m.velocities) + bytes(m.masses) + bytes(m.pinned) +
                          bytes(m.springs) + bytes(m.triangles) + bytes(m.bendPairs);
    const uint64_t estimate = meshModelBytes(m.positions.size(), m.triangles.size());
    EXPECT_GE(estimate, held) << side;
    EXPECT_LE(estimate, 4 * held) << side;
  }
}

TEST(MemoryBudget, BytesReadAsPeopleWriteThem) {
  EXPECT_EQ(formatBytes(512), "512 bytes");
  EXPECT_EQ(formatBytes(3277), "3.2 KB");
  EXPECT_EQ(formatBytes(uint64_t{2} << 30), "2.0 GB");
  EXPECT_EQ(formatBytes(uint64_t{12242} << 20), "12.0 GB");
}

void expectSentence(const std::string& message) {
  EXPECT_LE(message.size(), 200u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

DeviceLimits roomyDevice() { return {"tiny", uint64_t{1} << 40, uint64_t{1} << 40, 65535, 65535}; }

TEST(MemoryBudget, AClothPastTheDevicesLimitsIsRefusedWithBothSizes) {
  const ClothModel model = springGrid();
  const MemoryNeed need = gpuStateNeed(stateSize(model));
  const std::string what = describeCloth(model);
  EXPECT_EQ(what, "a 23 x 17 cloth");
  checkGpuFits(need, model.particleCount(), roomyDevice(), what);  // fits: no error

  DeviceLimits small = roomyDevice();
  small.deviceMemory = need.total - 1;
  std::string message = inputErrorOf([&] { checkGpuFits(need, model.particleCount(), small, what); });
  EXPECT_THAT(message, HasSubstr("a 23 x 17 cloth needs " + formatBytes(need.total) +
                                 " of device memory (its largest buffer " + formatBytes(need.largest) + ")"));
  EXPECT_THAT(message, HasSubstr("the device 'tiny' has " + formatBytes(small.deviceMemory)));
  expectSentence(message);

  DeviceLimits narrow = roomyDevice();
  narrow.maxStorageBufferRange = need.largest - 1;
  message = inputErrorOf([&] { checkGpuFits(need, model.particleCount(), narrow, what); });
  EXPECT_THAT(message, HasSubstr("its largest buffer " + formatBytes(need.largest)));
  EXPECT_THAT(message, HasSubstr("(maxStorageBufferRange " + formatBytes(narrow.maxStorageBufferRange) + ")"));
  expectSentence(message);

  // 391 particles are 2 workgroups of 256: one row of one group is too few.
  DeviceLimits fewGroups = roomyDevice();
  fewGroups.maxGroupsX = fewGroups.maxGroupsY = 1;
  message = inputErrorOf([&] { checkGpuFits(need, model.particleCount(), fewGroups, what); });
  EXPECT_EQ(message, "a 23 x 17 cloth needs 2 workgroups per pass; the device 'tiny' dispatches at most 1 x 1 "
                     "(maxComputeWorkGroupCount)");
  fewGroups.maxGroupsX = 2;
  checkGpuFits(need, model.particleCount(), fewGroups, what);
}

TEST(MemoryBudget, AClothPastTheHostsMemoryIsRefusedWithBothSizes) {
  const ClothModel model = elementGrid();
  const MemoryNeed need = cpuStateNeed(stateSize(model));
  checkHostFits(need, need.total, describeCloth(model));
  const std::string message = inputErrorOf([&] { checkHostFits(need, need.total - 1, describeCloth(model)); });
  EXPECT_EQ(message, "a 23 x 17 cloth needs " + formatBytes(need.total) +
                         " of host memory for the CPU backend's state; the host has " + formatBytes(need.total - 1) +
                         " available");
  expectSentence(message);
}

}  // namespace
}  // namespace weft
