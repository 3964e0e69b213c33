// Implicit CG's two-level preconditioner (SolverParams::preconditioner, cg_coarse.h) in the solve:
// on the CPU backend it reaches the motion of a tightly converged block-Jacobi solve as closely as
// block-Jacobi does at the same tolerance, in far fewer iterations, on a grid of springs (tiles) and
// on a cloth of membrane and bending elements (aggregates grown over its elements); the GPU backend
// refuses it for the integrators that solve with CG and says what to use.
#include "demos/common/demo_scene.h"
#include "input_error.h"
#include "solver/model/elements.h"
#include "solver/model/grid_resize.h"
#include "solver/model/scene.h"
#include "test_support.h"

namespace weft::test {
namespace {

SolvedRun run(const ClothModel& cloth, SolverParams params, Preconditioner preconditioner, float tolerance, int frames,
             int substeps) {
  params.integrator = Integrator::ImplicitCg;
  params.tolerance = tolerance;
  params.maxIterations = 2000;
  params.preconditioner = preconditioner;
  auto solver = makeTestSolver(cloth, params, Backend::Cpu);
  return runSolves(*solver, frames, 1.f / 60.f, substeps);
}

// Block-Jacobi and two-level at 1e-3 against block-Jacobi at 1e-6: errors and iterations.
void expectSameMotionInFewerIterations(const ClothModel& cloth, const SolverParams& params, int frames, int substeps,
                                       double iterationRatio, const char* what) {
  const SolvedRun reference = run(cloth, params, Preconditioner::BlockJacobi, 1e-6f, frames, substeps);
  const SolvedRun jacobi = run(cloth, params, Preconditioner::BlockJacobi, 1e-3f, frames, substeps);
  const SolvedRun twoLevel = run(cloth, params, Preconditioner::TwoLevel, 1e-3f, frames, substeps);
  EXPECT_EQ(reference.unconverged + jacobi.unconverged + twoLevel.unconverged, 0);
  const double jacobiError = rmsDistance(reference.x, jacobi.x);
  const double twoLevelError = rmsDistance(reference.x, twoLevel.x);
  EXPECT_LT(twoLevel.iterations, iterationRatio * jacobi.iterations) << what;
  EXPECT_LT(twoLevelError, 1.5 * jacobiError) << what << ": m, root mean square";
  std::printf("[ info ] %s, implicit-cg to 1e-3: %d iterations with block-jacobi, %d two-level; from the 1e-6 "
              "solution %.3g m and %.3g m\n",
              what, jacobi.iterations, twoLevel.iterations, jacobiError, twoLevelError);
}

// hanging_verlet.json's cloth at 64^2 (springs; the grid's tiles), falling from the horizontal.
TEST(CgTwoLevel, SameMotionToTheToleranceInFewerIterationsOnAGridOfSprings) {
  const Scene scene =
      withGridSize(loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json").scene, 64);
  expectSameMotionInFewerIterations(scene.cloth, solverParams(scene), 10, 5, 0.45, "hanging_verlet.json at 64^2, 5 steps a frame");
}

// A 24^2 cloth of membrane and dihedral elements alone (no springs to tile by: aggregates grown
// over the elements), hung from two corners.
TEST(CgTwoLevel, SameMotionToTheToleranceInFewerIterationsOnAClothOfElements) {
  GridSpec spec;
  spec.width = spec.height = 24;
  spec.origin = glm::vec3(-0.5f, 1.5f, 0.f);
  spec.totalMass = 0.3f;
  ClothModel cloth = buildGrid(spec, Material{0.f, 0.f, 0.f, 0.f});
  ForceModels models;
  models.membrane = MembraneSpec{400.f, 250.f, 60.f, 0.002f};
  models.dihedral = DihedralSpec{5e-5f, 0.01f};
  applyForceModels(cloth, models);
  pinParticles(cloth, gridCorners(cloth, CornerPreset::Two));
  SolverParams params;
  params.environment.airDrag = 2e-4f;
  expectSameMotionInFewerIterations(cloth, params, 10, 2, 0.7, "a 24^2 membrane with dihedral bending, 2 steps a frame");
}

// The GPU backend has block-Jacobi alone: asked for two-level by an integrator that solves with CG,
// when made or later, it refuses with the way out; for any other integrator the setting is moot.
TEST(CgTwoLevel, TheGpuBackendRefusesItAndSaysWhatToUse) {
  const Scene scene = loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json").scene;
  SolverParams params = solverParams(scene);
  params.preconditioner = Preconditioner::TwoLevel;
  for (Integrator integrator : {Integrator::ImplicitCg, Integrator::Imex}) {
    params.integrator = integrator;
    const std::string message = inputErrorOf([&] { makeTestSolver(scene.cloth, params, Backend::Gpu); });
    EXPECT_NE(message.find("CPU backend only"), std::string::npos) << message;
    EXPECT_NE(message.find("--backend cpu"), std::string::npos) << message;
  }
  params.integrator = Integrator::Verlet;
  auto solver = makeTestSolver(scene.cloth, params, Backend::Gpu);
  SolverParams cg = params;
  cg.integrator = Integrator::ImplicitCg;
  const std::string message = inputErrorOf([&] { solver->setParams(cg); });
  EXPECT_NE(message.find("CPU backend only"), std::string::npos) << message;
  EXPECT_EQ(solver->params().integrator, Integrator::Verlet) << "a refused change changes nothing";
}

}  // namespace
}  // namespace weft::test
