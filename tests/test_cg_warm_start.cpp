// implicit-cg's warm start (solver/integrators/common/cg/cg_solve.h): each solve starts from the
// last one's answer where that leaves a smaller residual than zero does, and stops at the same
// accuracy relative to b's own residual. The same motion to the solve's tolerance, in fewer
// iterations; a guess that is worse than zero is dropped; and a state written into a solver
// leaves no guess behind.
#include <cstring>

#include "demos/common/demo_scene.h"
#include "shaders/cg.h"
#include "solver/model/scene.h"
#include "test_support.h"

namespace weft::test {
namespace {

// The scalar decision alone (cg.h, which the GPU's scalar pass runs too): after a BEGIN whose
// r.s is 4, a guess leaving 1 is kept, one leaving 9 or a NaN (a buffer never written) is not, and
// one already within the tolerance ends the solve before its first iteration.
TEST(CgWarmScalars, AGuessIsKeptOnlyWhereItLeavesLessResidual) {
  auto begun = [] {
    gpu::SolveScalars s{};
    gpu::cgScalarStep(s, WEFT_SOLVE_BEGIN, 4.f, 1e-1f, 100u);
    return s;
  };
  gpu::SolveScalars kept = begun();
  EXPECT_FALSE(gpu::cgScalarStep(kept, WEFT_SOLVE_WARM, 1.f, 1e-1f, 100u));
  EXPECT_TRUE(gpu::cgWarmKept(kept));
  EXPECT_EQ(kept.deltaNew, 1.f);
  EXPECT_EQ(kept.delta0, 4.f) << "the stopping test stays relative to b's residual";
  EXPECT_FLOAT_EQ(gpu::cgRelativeResidual(kept), 0.5f);
  for (float worse : {9.f, 4.f, NAN}) {
    gpu::SolveScalars dropped = begun();
    EXPECT_FALSE(gpu::cgScalarStep(dropped, WEFT_SOLVE_WARM, worse, 1e-1f, 100u));
    EXPECT_FALSE(gpu::cgWarmKept(dropped)) << worse;
    EXPECT_EQ(dropped.deltaNew, 4.f) << worse;
  }
  gpu::SolveScalars done = begun();
  EXPECT_TRUE(gpu::cgScalarStep(done, WEFT_SOLVE_WARM, 0.01f, 1e-1f, 100u)) << "0.01 <= 0.1^2 * 4";
  EXPECT_TRUE(gpu::cgWarmKept(done));
  EXPECT_EQ(done.iterations, 0u);
}

class CgWarmStartTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

// hanging_verlet.json's 48 x 48 cloth falling from the horizontal, implicit-cg at 5 steps a frame.
SolvedRun runHanging(Backend backend, bool warm, int frames, float tolerance = 1e-3f) {
  const Scene scene = loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json").scene;
  SolverParams params = solverParams(scene);
  params.integrator = Integrator::ImplicitCg;
  params.tolerance = tolerance;
  params.maxIterations = 1000;
  params.cgWarmStart = warm;
  auto solver = makeTestSolver(scene.cloth, params, backend);
  return runSolves(*solver, frames, scene.solver.dt, 5);
}

TEST_P(CgWarmStartTest, SameMotionToTheToleranceInFewerIterations) {
  const SolvedRun reference = runHanging(GetParam(), false, 20, 1e-5f);
  const SolvedRun cold = runHanging(GetParam(), false, 20);
  const SolvedRun warm = runHanging(GetParam(), true, 20);
  EXPECT_EQ(reference.unconverged, 0);
  EXPECT_EQ(cold.unconverged, 0);
  EXPECT_EQ(warm.unconverged, 0);
  const double coldError = rmsDistance(reference.x, cold.x);
  const double warmError = rmsDistance(reference.x, warm.x);
  EXPECT_LT(warm.iterations, 0.7 * cold.iterations);
  // The error the tolerance leaves grows over the steps the same way from either start.
  EXPECT_LT(warmError, 1.5 * coldError) << "m, root mean square";
  std::printf("[ info ] implicit-cg on hanging_verlet.json (48x48, 5 steps a frame, 20 frames) to 1e-3: %d iterations cold, "
              "%d warm; from the 1e-5 solution: %.3g m cold, %.3g m warm\n",
              cold.iterations, warm.iterations, coldError, warmError);
}

// A solver given a state by writeState continues exactly as a solver made from that state, warm
// start or not: the answer of the solve before the write is no guess for the one after it.
TEST_P(CgWarmStartTest, ASolverGivenAStateContinuesAsOneMadeFromIt) {
  const Scene scene = loadDemoScene(std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json").scene;
  SolverParams params = solverParams(scene);
  params.integrator = Integrator::ImplicitCg;
  auto used = makeTestSolver(scene.cloth, params, GetParam());
  for (int f = 0; f < 5; ++f) used->advance(scene.solver.dt, 5);
  std::vector<glm::vec4> x0, v0;
  used->readState(x0, v0);
  used->writeState(x0, v0);
  auto made = makeTestSolver(scene.cloth, params, GetParam());
  made->writeState(x0, v0);
  for (int f = 0; f < 3; ++f) {
    used->advance(scene.solver.dt, 5);
    made->advance(scene.solver.dt, 5);
  }
  std::vector<glm::vec4> xu, vu, xm, vm;
  used->readState(xu, vu);
  made->readState(xm, vm);
  ASSERT_EQ(xu.size(), xm.size());
  size_t differ = 0;
  for (size_t i = 0; i < xu.size(); ++i) differ += std::memcmp(&xu[i], &xm[i], sizeof(glm::vec4)) != 0;
  EXPECT_EQ(differ, 0u) << "particles whose positions differ";
}

INSTANTIATE_TEST_SUITE_P(Backends, CgWarmStartTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
