// Tearing on both backends (solver/model/tearing.h): a notched cloth pulled from two sides tears from the
// notch along the line of highest strain, keeps its mass, stays finite, and ends in two pieces.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <weft/errors.h>

#include "engine/commands.h"
#include "solver/gpu/gpu_solver.h"
#include "test_support.h"
#include "tests/cloth_pieces.h"

namespace weft::test {
namespace {

class TearingTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// A 2.3 x 1.1 m cloth of 0.1 m cells in the XZ plane, held along its left and right columns,
// without gravity, whose structural and shear springs break at 15 % stretch.
constexpr uint32_t kWidth = 24, kHeight = 12;
constexpr float kMiddle = 1.15f;  // m, between columns 11 and 12
ClothModel pulledCloth() {
  GridSpec grid;
  grid.width = kWidth;
  grid.height = kHeight;
  grid.sizeX = 0.1f * (kWidth - 1);
  grid.sizeY = 0.1f * (kHeight - 1);
  grid.totalMass = 0.3f;
  Material material;
  material.structuralStiffness = 500.f;
  material.shearStiffness = 100.f;
  material.bendStiffness = 0.f;
  material.tearStrain = 0.15f;
  ClothModel model = buildGrid(grid, material);
  std::vector<uint32_t> sides;
  for (uint32_t row = 0; row < kHeight; ++row) sides.insert(sides.end(), {row * kWidth, row * kWidth + kWidth - 1});
  pinParticles(model, sides);
  return model;
}

TEST_P(TearingTest, ANotchedClothPulledFromTwoSidesTearsFromTheNotchIntoTwoPieces) {
  const ClothModel model = pulledCloth();
  SolverParams params;
  params.integrator = Integrator::Verlet;
  params.environment.gravity = glm::vec3(0.f);
  auto solver = makeTestSolver(model, params, GetParam());
  ASSERT_TRUE(solver->tears());
  // The notch: a cut through the first two rows at the middle, from the edge z = 0.
  ASSERT_GT(solver->cut(glm::vec3(kMiddle, 1.f, -1.f), glm::vec3(kMiddle, -1.f, -1.f), glm::vec3(kMiddle, 0.f, 0.45f)), 0u);
  EXPECT_EQ(pieceCount(*solver->tornModel()), 1u);
  const double mass = model.totalMass();

  // Pull: the held columns move apart at 0.24 m/s each, moved between frames (not a handle: a
  // column), until the cloth is in two pieces or 4 s have passed.
  std::vector<glm::vec4> x, v;
  int frames = 0;
  for (; frames < 240 && pieceCount(*solver->tornModel()) < 2; ++frames) {
    solver->readState(x, v);
    for (glm::vec4& p : x)
      if (p.w == 0.f) p.x += p.x < kMiddle ? -0.004f : 0.004f;
    solver->writeState(x, v);
    solver->advance(1.f / 60.f, 16);
  }
  const ClothModel& torn = *solver->tornModel();
  solver->readState(x, v);
  EXPECT_EQ(pieceCount(torn), 2u) << "after " << frames << " frames";
  EXPECT_NEAR(torn.totalMass(), mass, 1e-5 * mass);
  ASSERT_EQ(x.size(), torn.particleCount());
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_TRUE(std::isfinite(x[i].x) && std::isfinite(x[i].y) && std::isfinite(x[i].z)) << i;
    ASSERT_TRUE(std::isfinite(v[i].x) && std::isfinite(v[i].y) && std::isfinite(v[i].z)) << i;
  }
  // Along the line of highest strain: the notch's tip concentrates it, so the crack runs straight on
  // from the notch. Every particle that split sat (at rest) within 1.5 cells of the middle.
  ASSERT_GT(torn.particleCount(), model.particleCount());
  float widest = 0.f;
  for (size_t i = model.particleCount(); i < torn.particleCount(); ++i)
    widest = std::max(widest, std::abs(torn.positions[i].x - kMiddle));
  EXPECT_LT(widest, 0.15f);
  EXPECT_GT(frames, 5) << "the cloth must tear by pulling, not at once";
}

// The cloth's rest state with the columns right of the middle 4 cm further right: the row springs
// over the middle stretch by 40 %, past their 15 % tear strain, and no others.
std::vector<glm::vec4> stretchedAcrossTheMiddle(const ClothModel& model) {
  std::vector<glm::vec4> x(model.particleCount());
  for (size_t i = 0; i < x.size(); ++i) {
    const glm::vec3 p = model.positions[i];
    x[i] = glm::vec4(p.x + (p.x > kMiddle ? 0.04f : 0.f), p.y, p.z, model.inverseMass(i));
  }
  return x;
}

// Symplectic Euler without gravity: a 1 us step leaves a stretched state as it is (Verlet would
// relax it), so the tears are the stretched state's.
SolverParams shortStepParams() {
  SolverParams params;
  params.integrator = Integrator::SymplecticEuler;
  params.environment.gravity = glm::vec3(0.f);
  return params;
}

// The detection on the GPU (tear_detect.comp) lists the same springs as on the CPU: from the same
// stretched state, both backends make the same topology edit, particle for particle.
TEST(TearingBackends, BothBackendsBreakTheSameSprings) {
  const ClothModel model = pulledCloth();
  const std::vector<glm::vec4> x = stretchedAcrossTheMiddle(model), v(model.particleCount(), glm::vec4(0.f));
  const SolverParams params = shortStepParams();
  std::vector<std::unique_ptr<Solver>> solvers;
  for (Backend backend : allBackends()) {
    solvers.push_back(makeTestSolver(model, params, backend));
    solvers.back()->writeState(x, v);
    solvers.back()->advance(1e-6f, 1);  // a step too short to move anything by a tear's worth
  }
  const ClothModel &cpu = *solvers[0]->tornModel(), &gpu = *solvers[1]->tornModel();
  EXPECT_GT(cpu.particleCount(), model.particleCount());
  EXPECT_EQ(solvers[0]->tornCount(), solvers[1]->tornCount());
  EXPECT_EQ(cpu.particleCount(), gpu.particleCount());
  EXPECT_EQ(cpu.triangles, gpu.triangles);
  ASSERT_EQ(cpu.springs.size(), gpu.springs.size());
  for (size_t k = 0; k < cpu.springs.size(); ++k) {
    EXPECT_EQ(cpu.springs[k].a, gpu.springs[k].a);
    EXPECT_EQ(cpu.springs[k].b, gpu.springs[k].b);
  }
}

// A host recording frames into its own command buffer (GpuSolver::recordAdvance) gets the frame's
// tear detection recorded with it and applies it with applyRecordedTears() once the frame finished:
// the same edit as advance() makes.
class TearingRecordTest : public ValidatedTest {};

TEST_F(TearingRecordTest, RecordedFramesTearAsAdvanceDoes) {
  const ClothModel model = pulledCloth();
  const std::vector<glm::vec4> x = stretchedAcrossTheMiddle(model), v(model.particleCount(), glm::vec4(0.f));
  const SolverParams params = shortStepParams();
  GpuSolver advanced(model, params, gpuContext(), embeddedShaders());
  GpuSolver recorded(model, params, gpuContext(), embeddedShaders());
  advanced.writeState(x, v);
  recorded.writeState(x, v);
  advanced.advance(1e-6f, 1);
  engine::submitAndWait(gpuContext(), [&](VkCommandBuffer cmd) { recorded.recordAdvance(cmd, 1e-6f, 1); });
  EXPECT_EQ(recorded.topologyVersion(), 0u);  // nothing changes until the host applies the tears
  recorded.applyRecordedTears();
  EXPECT_EQ(recorded.topologyVersion(), 1u);
  EXPECT_GT(recorded.particleCount(), model.particleCount());
  EXPECT_EQ(recorded.particleCount(), advanced.particleCount());
  EXPECT_EQ(recorded.tornModel()->triangles, advanced.tornModel()->triangles);
  std::vector<glm::vec4> xa, va, xr, vr;
  advanced.readState(xa, va);
  recorded.readState(xr, vr);
  EXPECT_EQ(xa, xr);
}

INSTANTIATE_TEST_SUITE_P(Backends, TearingTest, ::testing::ValuesIn(allBackends()), backendParamName);

// A cloth with its own contact friction (a scene's "cloths" entry), cut: each particle the cut
// copies keeps that friction (each cloth's is a range of particles, and the copies come after them
// all). The parameters as given and as the solver now has them are both still accepted; another
// friction is refused.
TEST(TearingFriction, ACutClothsCopiesKeepItsOwnContactFriction) {
  const ClothModel model = pulledCloth();
  SolverParams params;
  params.integrator = Integrator::Verlet;
  params.contact.enabled = true;
  params.contact.thickness = 0.01f;
  params.contact.clothFriction = {ClothFriction{0, static_cast<uint32_t>(model.particleCount()), 0.9f, 1.f}};
  auto solver = makeTestSolver(model, params, Backend::Cpu);
  ASSERT_GT(solver->cut(glm::vec3(kMiddle, 1.f, -1.f), glm::vec3(kMiddle, -1.f, -1.f), glm::vec3(kMiddle, 0.f, 0.45f)), 0u);
  const size_t n = solver->tornModel()->particleCount();
  ASSERT_GT(n, model.particleCount());
  std::vector<int> covered(n, 0);
  for (const ClothFriction& c : solver->params().contact.clothFriction) {
    EXPECT_EQ(c.friction, 0.9f);
    EXPECT_EQ(c.staticFriction, 1.f);
    for (uint32_t p = c.firstParticle; p < c.firstParticle + c.particleCount; ++p) ++covered[p];
  }
  for (size_t p = 0; p < n; ++p) EXPECT_EQ(covered[p], 1) << "particle " << p << " of " << n;
  EXPECT_NO_THROW(solver->setParams(params));
  EXPECT_NO_THROW(solver->setParams(solver->params()));
  SolverParams other = params;
  other.contact.clothFriction[0].friction = 0.2f;
  EXPECT_THROW(solver->setParams(other), InputError);
}

}  // namespace
}  // namespace weft::test
