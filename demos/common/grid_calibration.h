#pragma once
// Picking the largest grid this machine simulates in real time: a search over grid sizes that
// measures as few of them as it can, since each measurement builds a solver and runs frames.
// Pure: the caller supplies the cost (demos/common/frame_timing.h measures one), so it needs no device.
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "solver/model/scene.h"

namespace weft {

// How the viewer picks a grid size for this machine: a scene file's "calibration" section.
struct CalibrationSpec {
  float targetFps = 60.f;  // frames per second the simulation should keep up with, > 0
  uint32_t minGrid = 32;   // particles per side, 2 <= minGrid <= maxGrid
  uint32_t maxGrid = 2048; // particles per side, <= kMaxGridSide
};

// The share of a frame the simulation may take; the rest is left for drawing the cloth, the
// panel and presenting, which the measurement does not include.
constexpr double kCalibrationHeadroom = 0.8;
// Sizes tried are multiples of this (the ends, minGrid and maxGrid, are tried as given): at the
// hundreds of particles a side that calibration is for, a step of 8 changes the frame cost by a
// few percent, about the timing noise, so finer steps would spend measurements on differences
// the clock cannot see.
constexpr uint32_t kCalibrationStep = 8;
// Refinement stops once the search has measured this many sizes.
constexpr int kCalibrationMaxMeasurements = 10;

struct CalibrationResult {
  uint32_t grid = 0;         // particles per side: the largest size measured within budget
  double msPerFrame = 0.0;   // what that size measured
  double budgetMs = 0.0;     // 1000 / targetFps * kCalibrationHeadroom
  bool withinBudget = true;  // false when even minGrid is over budget (grid is then minGrid)
  std::vector<std::pair<uint32_t, double>> tried;  // (size, ms per frame), in the order measured
};

// msPerFrameAt(n): ms one frame of an n x n cloth takes. progress(n, ms), if given, is told each
// measurement as it is made.
//
// The search: from minGrid, grow the side by 2 while the cost extrapolated to twice the side stays
// within budget, else by sqrt(2); stop at the first size over budget. The extrapolation takes the
// cost as n^s, s the log-log slope between the last two sizes (2, per-particle work, before there
// are two), so a small grid's flat fixed overhead does not hold the search to small steps. A cost
// a + c n^2 at most quadruples when the side doubles, so the one measurement over budget costs at
// most four budgets (two after a sqrt(2) step). Then refine between the last size within budget and
// the first over it: interpolate the size whose cost is the budget along the line through the two
// in log-log (exact when the cost is a power of n, as it is once per-particle work outweighs
// per-dispatch overhead), round down to a multiple of 8, measure; a guess outside the bracket moves
// to its nearest end, a useless slope (noise) gives the middle. Refinement stops at
// kCalibrationMaxMeasurements in all; tests/test_grid_calibration.cpp holds the default range
// (32 to 2048) to that for costs c n^2 and a + c n^2.
CalibrationResult calibrateGrid(const CalibrationSpec& spec,
                                const std::function<double(uint32_t n)>& msPerFrameAt,
                                const std::function<void(uint32_t n, double ms)>& progress = {});

}  // namespace weft
