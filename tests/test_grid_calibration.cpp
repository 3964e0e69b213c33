// The grid-size search against synthetic costs whose answer is known in closed form: it finds the
// largest multiple of 8 within budget, in at most kCalibrationMaxMeasurements measurements.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "input_error.h"
#include "demos/common/grid_calibration.h"

namespace weft {
namespace {

using ::testing::HasSubstr;
using test::inputErrorOf;

const CalibrationSpec kSpec{60.f, 32, 2048};  // the defaults: budget 1000 / 60 * 0.8 = 13.33 ms

double budgetOf(const CalibrationSpec& spec) { return 1000.0 / spec.targetFps * kCalibrationHeadroom; }

TEST(GridCalibration, BudgetLeavesHeadroomForDrawing) {
  const CalibrationResult r = calibrateGrid(kSpec, [](uint32_t) { return 1.0; });
  EXPECT_DOUBLE_EQ(r.budgetMs, 1000.0 / 60.0 * 0.8);
}

// ms = c n^2, the cost of per-particle work: the largest n within budget is sqrt(budget / c), and
// the answer is that rounded down to a multiple of 8, for answers all over [minGrid, maxGrid].
TEST(GridCalibration, QuadraticCostFindsTheLargestSizeWithinBudget) {
  for (double answer = 40.0; answer < 2040.0; answer *= 1.13) {
    const double c = budgetOf(kSpec) / (answer * answer);
    const CalibrationResult r = calibrateGrid(kSpec, [c](uint32_t n) { return c * n * n; });
    EXPECT_TRUE(r.withinBudget);
    EXPECT_EQ(r.grid, static_cast<uint32_t>(std::floor(answer / 8.0)) * 8) << "answer " << answer;
    EXPECT_LE(r.tried.size(), 10u) << "answer " << answer;
    EXPECT_DOUBLE_EQ(r.msPerFrame, c * r.grid * r.grid);
  }
}

// ms = a + c n^2: a fixed per-frame overhead (dispatches, submission) makes the cost flatter than
// n^2 at small sizes, so the log-log interpolation guesses low; the answer must still be within
// budget and within 3 % of the exact one, for overheads from a fifth of the budget to most of it.
TEST(GridCalibration, CostWithOverheadStaysWithinBudgetAndClose) {
  for (double overhead : {0.2, 0.5, 0.8}) {
    for (double answer = 100.0; answer < 2040.0; answer *= 1.17) {
      const double a = overhead * budgetOf(kSpec);
      const double c = (budgetOf(kSpec) - a) / (answer * answer);
      const CalibrationResult r = calibrateGrid(kSpec, [a, c](uint32_t n) { return a + c * n * n; });
      SCOPED_TRACE(testing::Message() << "overhead " << overhead << ", answer " << answer);
      EXPECT_LE(r.grid, answer);
      EXPECT_GE(r.grid, 0.97 * answer - 8.0);
      EXPECT_LE(r.tried.size(), 10u);
    }
  }
}

TEST(GridCalibration, EverySizeTriedIsAMultipleOf8ExceptTheEnds) {
  const CalibrationSpec spec{30.f, 20, 1000};
  const CalibrationResult r = calibrateGrid(spec, [](uint32_t n) { return 1e-4 * n * n; });
  ASSERT_FALSE(r.tried.empty());
  EXPECT_EQ(r.tried.front().first, 20u);
  for (const auto& [n, ms] : r.tried) {
    EXPECT_TRUE(n % 8 == 0 || n == 20 || n == 1000) << n;
    EXPECT_DOUBLE_EQ(ms, 1e-4 * n * n);
  }
  // sqrt(26.67 / 1e-4) = 516.4
  EXPECT_EQ(r.grid, 512u);
}

TEST(GridCalibration, CheapCostReturnsMaxGrid) {
  const CalibrationResult r = calibrateGrid(kSpec, [](uint32_t) { return 0.1; });
  EXPECT_EQ(r.grid, 2048u);
  EXPECT_TRUE(r.withinBudget);
  EXPECT_EQ(r.tried.back().first, 2048u);
  EXPECT_LE(r.tried.size(), 10u);
}

TEST(GridCalibration, ExpensiveCostReturnsMinGridFlagged) {
  const CalibrationResult r = calibrateGrid(kSpec, [](uint32_t) { return 100.0; });
  EXPECT_EQ(r.grid, 32u);
  EXPECT_FALSE(r.withinBudget);
  EXPECT_DOUBLE_EQ(r.msPerFrame, 100.0);
  EXPECT_EQ(r.tried.size(), 1u);  // nothing larger is worth measuring
}

// A broken measurement (NaN, or a larger size measuring cheaper) must not be taken for a pass or
// send the search outside the sizes it bracketed.
TEST(GridCalibration, NoisyOrBrokenMeasurementsStayInsideTheBracket) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const CalibrationResult broken = calibrateGrid(kSpec, [nan](uint32_t n) { return n > 300 ? nan : 1e-4 * n * n; });
  EXPECT_LE(broken.grid, 300u);
  EXPECT_GE(broken.grid, 256u);
  const CalibrationResult zigzag =
      calibrateGrid(kSpec, [](uint32_t n) { return n >= 512 ? 20.0 : (n % 16 ? 1.0 : 5.0); });
  EXPECT_LT(zigzag.grid, 512u);
  EXPECT_GE(zigzag.grid, 256u);
  EXPECT_LE(zigzag.tried.size(), 10u);
}

TEST(GridCalibration, ProgressSeesEveryMeasurement) {
  std::vector<std::pair<uint32_t, double>> seen;
  const CalibrationResult r = calibrateGrid(
      kSpec, [](uint32_t n) { return 1e-5 * n * n; }, [&](uint32_t n, double ms) { seen.emplace_back(n, ms); });
  EXPECT_EQ(seen, r.tried);
}

TEST(GridCalibration, ImpossibleSpecIsAnInputError) {
  EXPECT_THAT(inputErrorOf([] { calibrateGrid({60.f, 64, 32}, [](uint32_t) { return 1.0; }); }),
              HasSubstr("2 <= minGrid <= maxGrid <= 4096"));
  EXPECT_THAT(inputErrorOf([] { calibrateGrid({0.f, 32, 64}, [](uint32_t) { return 1.0; }); }),
              HasSubstr("targetFps > 0"));
}

}  // namespace
}  // namespace weft
