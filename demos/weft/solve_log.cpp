#include "demos/weft/solve_log.h"

#include <algorithm>

namespace weft {

void SolveLog::add(const SolveStats& stats) {
  ++count_;
  ++histogram_[stats.iterations];
  maxResidual_ = std::max(maxResidual_, stats.residual);
  unconverged_ += stats.converged ? 0 : 1;
  minDt_ = count_ == 1 ? stats.dt : std::min(minDt_, stats.dt);
  maxDt_ = count_ == 1 ? stats.dt : std::max(maxDt_, stats.dt);
  const LoggedSolve logged{count_, stats};
  if (first_.size() < kEndSteps) {
    first_.push_back(logged);
  } else {
    last_.push_back(logged);
    if (last_.size() > kEndSteps) last_.pop_front();
  }
  if (keepAll_) all_.push_back(stats);
}

double SolveLog::medianIterations() const {
  if (count_ == 0) return 0.0;
  // The values at sorted places (count - 1) / 2 and count / 2: one place when the count is odd.
  const int64_t lowPlace = (count_ - 1) / 2, highPlace = count_ / 2;
  int64_t seen = 0;
  double low = 0.0;
  for (const auto& [iterations, solves] : histogram_) {
    if (seen <= lowPlace && lowPlace < seen + solves) low = iterations;
    if (seen <= highPlace && highPlace < seen + solves) return 0.5 * (low + iterations);
    seen += solves;
  }
  return low;
}

}  // namespace weft
