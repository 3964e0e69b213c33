#pragma once
// Shared by the tests: one validated Vulkan context per process, small hand-built models, and the
// physical quantities the tests assert on.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "engine/context.h"
#include "engine/shader_library.h"
#include "solver/model/cloth_model.h"
#include "solver/backend/solver.h"

namespace weft::test {

// The context is created once with the validation layer (synchronisation validation included);
// every test that used it fails if any validation message appeared.
engine::Context& gpuContext();
const engine::ShaderLibrary& embeddedShaders();

class ValidatedTest : public ::testing::Test {
 protected:
  void TearDown() override;
};

// Both backends, for TEST_P suites.
inline std::vector<Backend> allBackends() { return {Backend::Cpu, Backend::Gpu}; }
std::string backendParamName(const ::testing::TestParamInfo<Backend>& info);
std::unique_ptr<Solver> makeTestSolver(const ClothModel& model, const SolverParams& params, Backend backend);
// Expects solver.advance(frameDt, substeps) to be refused with an InputError whose message holds
// `words`, leaving the state and the clock as they were.
void expectAdvanceRefusedWithNothingChanged(Solver& solver, float frameDt, int substeps, const std::string& words);

// A case's test name for suites that run every integrator (weft::allIntegrators(), the model's
// WEFT_INTEGRATORS list) on both backends: "xpbd_gpu", with `suffix` appended.
std::string integratorCaseName(Integrator integrator, Backend backend, const std::string& suffix = "");

// A horizontal n x n grid `size` m square from `origin`, 0.2 kg/m^2, with springs of `stiffness`
// N/m (shear a quarter of it, bend a hundredth) and damping 0.05.
ClothModel testSheet(uint32_t n, float size, glm::vec3 origin, float stiffness = 50.f);

// A model of free particles (no springs) at the given positions, each of mass `mass`.
ClothModel freeParticles(const std::vector<glm::vec3>& positions, float mass);
// Particle 0 pinned at the origin, particle 1 of mass `mass` at (restLength + stretch, 0, 0).
ClothModel pinnedSpring(float mass, float stiffness, float restLength, float stretch, float damping = 0.f);

// Largest distance (m) between the same particle's positions in two states.
float maxPositionDifference(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b);
// Root mean square (m) of the particles' distances between two states.
double rmsDistance(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b);

// An implicit run's end state and its solves' totals (the CG tests' runs against a reference).
struct SolvedRun {
  std::vector<glm::vec4> x, v;
  int iterations = 0;
  int unconverged = 0;
};
// Advances `solver` `frames` frames of `frameDt` in `substeps` steps, counting its solves' iterations.
SolvedRun runSolves(Solver& solver, int frames, float frameDt, int substeps);

// Kinetic energy (J) of every particle, pinned ones included (their velocity is zero).
double kineticEnergy(const ClothModel& model, const std::vector<glm::vec4>& velocities);

// A 16x16, 1 m cloth pinned at two corners with 2000 N/m springs and 0.3 kg: omega h =
// sqrt(k/m) h is about 40 at 60 Hz, far past explicit Euler's limit (2). The implicit tests' cloth.
ClothModel stiffHangingCloth();

// Runs `model` for 5 frames of 1/60 s in `substeps` steps twice on the GPU backend, once through
// advance() (the unit's own chunked submissions) and once recorded into a host command buffer by
// recordAdvance(): the two must end bit for bit alike, and the cloth must have moved.
void expectRecordingMatchesAdvance(const ClothModel& model, const SolverParams& params, int substeps);

// Kinetic plus spring potential energy (J) of a state; gravity must be zero for this to be conserved.
double mechanicalEnergy(const ClothModel& model, const std::vector<glm::vec4>& positions,
                        const std::vector<glm::vec4>& velocities);

}  // namespace weft::test
