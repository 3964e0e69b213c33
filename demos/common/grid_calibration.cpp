// The grid-size search of calibrateGrid: grow until a size is over budget, then close in on the
// budget between the last size within it and that one.
#include "demos/common/grid_calibration.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/error.h"

namespace weft {
namespace {

uint32_t roundDown(double n) {
  return static_cast<uint32_t>(std::floor(n / kCalibrationStep)) * kCalibrationStep;
}
uint32_t roundNearest(double n) {
  return static_cast<uint32_t>(std::lround(n / kCalibrationStep)) * kCalibrationStep;
}
uint32_t firstStepAbove(uint32_t n) { return (n / kCalibrationStep + 1) * kCalibrationStep; }
uint32_t lastStepBelow(uint32_t n) { return (n - 1) / kCalibrationStep * kCalibrationStep; }

}  // namespace

CalibrationResult calibrateGrid(const CalibrationSpec& spec,
                                const std::function<double(uint32_t n)>& msPerFrameAt,
                                const std::function<void(uint32_t n, double ms)>& progress) {
  if (!(spec.targetFps > 0.f) || spec.minGrid < 2 || spec.minGrid > spec.maxGrid ||
      spec.maxGrid > kMaxGridSide) {
    throw InputError("calibration needs targetFps > 0 and 2 <= minGrid <= maxGrid <= " +
                     std::to_string(kMaxGridSide));
  }
  CalibrationResult result;
  result.budgetMs = 1000.0 / spec.targetFps * kCalibrationHeadroom;
  auto measure = [&](uint32_t n) {
    const double ms = msPerFrameAt(n);
    result.tried.emplace_back(n, ms);
    if (progress) progress(n, ms);
    return ms;
  };
  // Written so that NaN counts as over budget.
  auto fits = [&](double ms) { return ms <= result.budgetMs; };

  uint32_t pass = spec.minGrid;
  double passMs = measure(pass);
  result.grid = pass;
  result.msPerFrame = passMs;
  if (!fits(passMs)) {
    result.withinBudget = false;
    return result;
  }

  uint32_t fail = 0;  // 0: every size tried fits
  double failMs = 0.0;
  double growth = 2.0;  // log-log slope of the cost: per-particle work until two sizes say otherwise
  while (pass < spec.maxGrid) {
    const bool doubleFits = passMs * std::pow(2.0, std::max(growth, 0.0)) <= result.budgetMs;
    const double factor = doubleFits ? 2.0 : std::sqrt(2.0);
    const uint32_t next = std::min(spec.maxGrid, std::max(roundNearest(pass * factor), firstStepAbove(pass)));
    const double ms = measure(next);
    if (!fits(ms)) {
      fail = next;
      failMs = ms;
      break;
    }
    if (passMs > 0.0 && ms > 0.0) growth = std::log(ms / passMs) / std::log(double(next) / pass);
    pass = next;
    passMs = ms;
  }

  while (fail != 0 && result.tried.size() < static_cast<size_t>(kCalibrationMaxMeasurements)) {
    const uint32_t lo = firstStepAbove(pass);
    const uint32_t hi = lastStepBelow(fail);
    if (lo > hi) break;  // no multiple of 8 left between them
    // cost = passMs (n / pass)^slope through both points, solved for cost = budget. Noise can
    // make the slope useless (the larger size measured cheaper); then take the middle.
    const double slope = std::log(failMs / passMs) / std::log(double(fail) / pass);
    uint32_t n = roundDown(0.5 * (double(pass) + fail));
    if (passMs > 0.0 && std::isfinite(slope) && slope > 0.0) {
      n = roundDown(pass * std::pow(result.budgetMs / passMs, 1.0 / slope));
    }
    n = std::clamp(n, lo, hi);
    const double ms = measure(n);
    if (fits(ms)) {
      pass = n;
      passMs = ms;
    } else {
      fail = n;
      failMs = ms;
    }
  }
  result.grid = pass;
  result.msPerFrame = passMs;
  return result;
}

}  // namespace weft
