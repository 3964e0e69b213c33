// The run's report: a solve log of fixed size however long the run, an exact median from it, and a
// stats file that stays the same size from a thousand steps to a million unless every step is asked for.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "demos/weft/run_report.h"
#include "demos/weft/solve_log.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

// Step k's solve: iterations cycling through 1 to 37 unevenly, one step in 7 unconverged.
SolveStats solveAt(int64_t k) {
  return SolveStats{.iterations = int(1 + (k * k) % 37), .residual = float(k % 1000) * 1e-6f,
                    .converged = k % 7 != 0, .dt = 1e-3f / float(1 + k % 3)};
}

TEST(SolveLog, HoldsTheEndsOfAMillionStepsAndSummarisesEveryOne) {
  SolveLog log;
  std::vector<double> iterations;
  const int64_t n = 1000000;
  for (int64_t k = 1; k <= n; ++k) {
    log.add(solveAt(k));
    iterations.push_back(solveAt(k).iterations);
  }
  EXPECT_EQ(log.count(), n);
  EXPECT_EQ(log.heldSolves(), 2 * SolveLog::kEndSteps);  // 100 solves in memory, not a million
  ASSERT_EQ(log.first().size(), 50u);
  ASSERT_EQ(log.last().size(), 50u);
  EXPECT_EQ(log.first().front().step, 1);
  EXPECT_EQ(log.first().back().step, 50);
  EXPECT_EQ(log.last().front().step, n - 49);
  EXPECT_EQ(log.last().back().step, n);
  EXPECT_EQ(log.last().back().stats.iterations, solveAt(n).iterations);
  EXPECT_EQ(log.medianIterations(), median(iterations));
  EXPECT_EQ(log.maxIterations(), int(*std::max_element(iterations.begin(), iterations.end())));
  int64_t histogramTotal = 0;
  for (const auto& [its, solves] : log.iterationHistogram()) {
    histogramTotal += solves;
    EXPECT_EQ(solves, std::count(iterations.begin(), iterations.end(), double(its))) << its;
  }
  EXPECT_EQ(histogramTotal, n);
  EXPECT_EQ(log.unconverged(), n / 7);
  EXPECT_FLOAT_EQ(log.maxResidual(), 999e-6f);
  EXPECT_FLOAT_EQ(log.minDt(), 1e-3f / 3.f);
  EXPECT_FLOAT_EQ(log.maxDt(), 1e-3f);
}

TEST(SolveLog, MedianOfAnEvenCountAveragesTheMiddleTwo) {
  SolveLog log;
  for (int its : {9, 2, 4, 100}) log.add(SolveStats{.iterations = its});
  EXPECT_EQ(log.medianIterations(), 6.5);
  EXPECT_EQ(log.first().size(), 4u);  // fewer than 50: all in the first, none twice
  EXPECT_TRUE(log.last().empty());
}

uintmax_t statsSize(int64_t solves, bool keepAll, nlohmann::json* parsed = nullptr) {
  RunReport report;
  report.solves = SolveLog(keepAll);
  for (int64_t k = 1; k <= solves; ++k) report.solves.add(solveAt(k));
  const fs::path path = fs::path(testing::TempDir()) / ("weft_stats_" + std::to_string(::getpid()) + ".json");
  writeStatsJson(report, path.string());
  if (parsed) *parsed = nlohmann::json::parse(std::ifstream(path));
  const uintmax_t size = fs::file_size(path);
  fs::remove(path);
  return size;
}

// The summary line says when the device could not store a step's live contact pairs (they were
// evaluated at each corner: slower, the same motion), and says nothing of it otherwise; the stats
// JSON counts those steps over the run.
TEST(SummaryLine, NamesTheStepsPastTheDevicesRoomForContactPairs) {
  RunReport report;
  report.scene = "pile.json";
  report.contact.on = true;
  ContactStats frame;
  frame.minDistance = 0.002f;
  report.contact.add(frame, 1.0, 2.0, 16);
  EXPECT_EQ(summaryLine(report).find("room for pairs"), std::string::npos) << summaryLine(report);
  frame.unstoredSteps = 5;
  report.contact.add(frame, 1.0, 2.0, 16);
  report.contact.add(frame, 1.0, 2.0, 16);
  EXPECT_NE(summaryLine(report).find("contact 2.00 mm nearest, 0.188 ms/step (find 0.062, resolve 0.125), 10 steps past the device's room for pairs"),
            std::string::npos)
      << summaryLine(report);
  const fs::path path = fs::temp_directory_path() / "weft_summary_unstored.json";
  writeStatsJson(report, path.string());
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(path))["contact"]["unstoredSteps"].get<int>(), 10);
  fs::remove(path);
}

TEST(StatsJson, SizeDoesNotGrowWithTheRunUnlessEveryStepIsAskedFor) {
  nlohmann::json j;
  const uintmax_t thousand = statsSize(1000, false), million = statsSize(1000000, false, &j);
  // Only the numbers' digits differ (step indices, counts): a few hundred bytes, not 999000 steps.
  EXPECT_LT(million, thousand + 1000);
  EXPECT_EQ(j["solve"]["solves"], 1000000);
  EXPECT_FALSE(j["solve"].contains("steps"));
  ASSERT_EQ(j["solve"]["lastSteps"].size(), 50u);
  EXPECT_EQ(j["solve"]["lastSteps"][49]["step"], 1000000);
  EXPECT_EQ(j["solve"]["lastSteps"][49]["iterations"], solveAt(1000000).iterations);
  EXPECT_EQ(j["solve"]["firstSteps"][0]["step"], 1);

  statsSize(1000, true, &j);  // --stats-steps all: every step, as before the summary
  ASSERT_EQ(j["solve"]["steps"].size(), 1000u);
  EXPECT_EQ(j["solve"]["steps"][999]["iterations"], solveAt(1000).iterations);
  EXPECT_EQ(j["solve"]["steps"][999]["converged"], solveAt(1000).converged);
}

}  // namespace
}  // namespace weft
