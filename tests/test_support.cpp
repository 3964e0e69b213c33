#include "test_support.h"

#include <cmath>

#include <glm/geometric.hpp>

#include "engine/commands.h"
#include "engine/error.h"
#include "solver/gpu/gpu_solver.h"

namespace weft::test {

engine::Context& gpuContext() {
  static engine::Context context(engine::ContextOptions{.validation = true});
  return context;
}

const engine::ShaderLibrary& embeddedShaders() {
  static engine::ShaderLibrary library;
  return library;
}

void ValidatedTest::TearDown() {
  // Only inspect a context that exists: CPU-only tests never create one.
  static size_t seen = 0;
  size_t now = gpuContext().validationMessageCount();
  EXPECT_EQ(now, seen) << "the validation layer reported: "
                       << (gpuContext().validationMessages().empty() ? "" : gpuContext().validationMessages().back());
  seen = now;
}

std::string backendParamName(const ::testing::TestParamInfo<Backend>& info) { return backendName(info.param); }

void expectAdvanceRefusedWithNothingChanged(Solver& solver, float frameDt, int substeps, const std::string& words) {
  std::vector<glm::vec4> x0, v0, x, v;
  solver.readState(x0, v0);
  const double time = solver.time();
  try {
    solver.advance(frameDt, substeps);
    ADD_FAILURE() << "advance was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
  solver.readState(x, v);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(v, v0);
  EXPECT_EQ(solver.time(), time);
}

ClothModel testSheet(uint32_t n, float size, glm::vec3 origin, float stiffness) {
  GridSpec g;
  g.width = g.height = n;
  g.sizeX = g.sizeY = size;
  g.origin = origin;
  g.arealDensity = 0.2f;
  Material m;
  m.structuralStiffness = stiffness;
  m.shearStiffness = stiffness / 4.f;
  m.bendStiffness = stiffness / 100.f;
  m.damping = 0.05f;
  return buildGrid(g, m);
}

std::string integratorCaseName(Integrator integrator, Backend backend, const std::string& suffix) {
  std::string name = std::string(integratorName(integrator)) + "_" + backendName(backend) + suffix;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

std::unique_ptr<Solver> makeTestSolver(const ClothModel& model, const SolverParams& params, Backend backend) {
  if (backend == Backend::Cpu) return makeSolver(model, params, backend);
  return makeSolver(model, params, backend, &gpuContext(), &embeddedShaders());
}

ClothModel freeParticles(const std::vector<glm::vec3>& positions, float mass) {
  ClothModel m;
  m.positions = positions;
  m.velocities.assign(positions.size(), glm::vec3(0.f));
  m.masses.assign(positions.size(), mass);
  m.pinned.assign(positions.size(), 0);
  return m;
}

ClothModel pinnedSpring(float mass, float stiffness, float restLength, float stretch, float damping) {
  ClothModel m = freeParticles({glm::vec3(0.f), glm::vec3(restLength + stretch, 0.f, 0.f)}, mass);
  m.pinned[0] = 1;
  m.springs.push_back({0, 1, restLength, stiffness, damping, SpringKind::Structural});
  return m;
}

float maxPositionDifference(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  float worst = 0.f;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::distance(glm::vec3(a[i]), glm::vec3(b[i])));
  return worst;
}

double rmsDistance(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const glm::dvec3 d = glm::dvec3(glm::vec3(a[i]) - glm::vec3(b[i]));
    sum += glm::dot(d, d);
  }
  return std::sqrt(sum / double(a.size()));
}

SolvedRun runSolves(Solver& solver, int frames, float frameDt, int substeps) {
  SolvedRun run;
  for (int f = 0; f < frames; ++f) {
    solver.advance(frameDt, substeps);
    for (const SolveStats& s : solver.lastSolveStats()) {
      run.iterations += s.iterations;
      run.unconverged += s.converged ? 0 : 1;
    }
  }
  solver.readState(run.x, run.v);
  return run;
}

double kineticEnergy(const ClothModel& model, const std::vector<glm::vec4>& velocities) {
  double energy = 0;
  for (size_t i = 0; i < velocities.size(); ++i)
    energy += 0.5 * model.masses[i] * glm::dot(glm::dvec3(velocities[i]), glm::dvec3(velocities[i]));
  return energy;
}

ClothModel stiffHangingCloth() {
  GridSpec grid;
  grid.width = 16;
  grid.height = 16;
  grid.origin = glm::vec3(-0.5f, 1.5f, 0.f);
  grid.totalMass = 0.3f;
  ClothModel model = buildGrid(grid, Material{2000.f, 500.f, 50.f, 0.5f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  return model;
}

void expectRecordingMatchesAdvance(const ClothModel& model, const SolverParams& params, int substeps) {
  GpuSolver chunked(model, params, gpuContext(), embeddedShaders());
  GpuSolver recorded(model, params, gpuContext(), embeddedShaders());
  for (int frame = 0; frame < 5; ++frame) {
    chunked.advance(1.f / 60.f, substeps);
    engine::submitAndWait(gpuContext(),
                          [&](VkCommandBuffer cmd) { recorded.recordAdvance(cmd, 1.f / 60.f, substeps); });
  }
  std::vector<glm::vec4> xa, va, xb, vb;
  chunked.readState(xa, va);
  recorded.readState(xb, vb);
  for (size_t i = 0; i < xa.size(); ++i) ASSERT_EQ(xa[i], xb[i]) << "particle " << i;
  EXPECT_NE(xa[model.particleCount() - 1], glm::vec4(model.positions.back(), xa.back().w));  // it moved
}

double mechanicalEnergy(const ClothModel& model, const std::vector<glm::vec4>& positions,
                        const std::vector<glm::vec4>& velocities) {
  double energy = 0;
  for (size_t i = 0; i < positions.size(); ++i)
    if (!model.pinned[i]) {
      glm::dvec3 v(velocities[i]);
      energy += 0.5 * model.masses[i] * glm::dot(v, v);
    }
  for (const Spring& s : model.springs) {
    double stretch = glm::distance(glm::dvec3(positions[s.a]), glm::dvec3(positions[s.b])) - s.restLength;
    energy += 0.5 * s.stiffness * stretch * stretch;
  }
  return energy;
}

}  // namespace weft::test
