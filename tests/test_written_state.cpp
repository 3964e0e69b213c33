// writeState and setHandle against a caller's mistakes: a state of the wrong size, a value that is
// not finite, a negative inverse mass, a tether's pin let go, a handle sent to no place. Each is
// refused in one sentence that names what is wrong, and the solver goes on exactly as one that was
// never asked (both backends, xpbd, whose colours share a tether's pin).
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "input_error.h"
#include "solver/model/elements.h"
#include "test_support.h"

namespace weft::test {
namespace {

class WrittenStateTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

constexpr float kDt = 1.f / 60.f;

// A horizontal 10 x 10 cloth pinned at the ends of its first row and tied to both by tethers, and
// held at its far corner kLoosePin, pinned after the tethers were made so that nothing hangs from it.
constexpr uint32_t kLoosePin = 99;
ClothModel tetheredCloth() {
  GridSpec grid;
  grid.width = grid.height = 10;
  grid.origin = {-0.5f, 1.5f, -0.5f};
  ClothModel model = buildGrid(grid, Material{});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  addTethers(model, TetherSpec{1e4f, 0.01f, 2});
  model.pinned[kLoosePin] = 1;
  return model;
}

SolverParams xpbdParams() {
  SolverParams params;
  params.integrator = Integrator::Xpbd;
  return params;
}

std::pair<std::vector<glm::vec4>, std::vector<glm::vec4>> stateOf(const Solver& solver) {
  std::vector<glm::vec4> x, v;
  solver.readState(x, v);
  return {x, v};
}

TEST_P(WrittenStateTest, AStateTheSolverCannotTakeIsRefusedWithNothingWritten) {
  const ClothModel model = tetheredCloth();
  auto refused = makeTestSolver(model, xpbdParams(), GetParam());
  auto untouched = makeTestSolver(model, xpbdParams(), GetParam());
  refused->advance(kDt, 8);
  untouched->advance(kDt, 8);
  const auto [x, v] = stateOf(*refused);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const uint32_t anchor = 9;  // the top row's far corner: pinned, and tethers hang from it
  ASSERT_EQ(x[anchor].w, 0.f);
  struct Wrong {
    std::string what, named;  // named: what the message must mention
    std::vector<glm::vec4> x, v;
  };
  std::vector<Wrong> wrong;
  wrong.push_back({"one position too few", "99 positions", {x.begin(), x.end() - 1}, v});
  wrong.push_back({"one velocity too many", "101 velocities", x, v});
  wrong.back().v.push_back(glm::vec4(0.f));
  wrong.push_back({"a NaN coordinate", "particle 42", x, v});
  wrong.back().x[42].y = nan;
  wrong.push_back({"an infinite velocity", "particle 17", x, v});
  wrong.back().v[17].z = -inf;
  wrong.push_back({"a negative inverse mass", "particle 33", x, v});
  wrong.back().x[33].w = -1.f;
  wrong.push_back({"a NaN inverse mass", "particle 34", x, v});
  wrong.back().x[34].w = nan;
  wrong.push_back({"a tether's pin let go", "particle 9", x, v});
  wrong.back().x[anchor].w = 100.f;
  for (const Wrong& w : wrong) {
    SCOPED_TRACE(w.what);
    const std::string message = inputErrorOf([&] { refused->writeState(w.x, w.v); });
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_NE(message.find(w.named), std::string::npos) << message;
  }
  EXPECT_NE(inputErrorOf([&] { refused->setHandle(20, glm::vec3(0.f, nan, 0.f)); }).find("particle 20"),
            std::string::npos);
  EXPECT_THROW(refused->setHandle(100, glm::vec3(0.f)), std::out_of_range);
  for (int frame = 0; frame < 5; ++frame) {
    refused->advance(kDt, 8);
    untouched->advance(kDt, 8);
  }
  const auto [a, va] = stateOf(*refused);
  const auto [b, vb] = stateOf(*untouched);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i], b[i]) << "particle " << i;
    ASSERT_EQ(va[i], vb[i]) << "particle " << i;
  }
}

// What is refused is only what must be: a pin nothing hangs from may be let go, and it falls.
TEST_P(WrittenStateTest, APinNoTetherHangsFromMayBeLetGo) {
  const ClothModel model = tetheredCloth();
  auto solver = makeTestSolver(model, xpbdParams(), GetParam());
  auto [x, v] = stateOf(*solver);
  ASSERT_EQ(x[kLoosePin].w, 0.f);
  const float y0 = x[kLoosePin].y;
  x[kLoosePin].w = model.inverseMass(kLoosePin - 1);
  solver->writeState(x, v);
  for (int frame = 0; frame < 6; ++frame) solver->advance(kDt, 8);
  const auto [after, vAfter] = stateOf(*solver);
  EXPECT_EQ(after[kLoosePin].w, x[kLoosePin].w);
  // 0.1 s: a free fall would take it 4.9 cm down; the cloth it swings on holds it back a little.
  EXPECT_LT(after[kLoosePin].y, y0 - 0.03f) << "the pin let go falls";
}

INSTANTIATE_TEST_SUITE_P(Backends, WrittenStateTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
