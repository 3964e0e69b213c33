#pragma once
// What the implicit solves of a run did, in memory that does not grow with the run: the count,
// an exact histogram of iterations (so the median is exact), the worst residual, the step lengths'
// range, and the first and last kEndSteps steps whole. Every step is kept only when asked (`keepAll`,
// `weft run --stats-steps all`): an hour at 60 fps and 8 substeps is 1.7 million steps.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "solver/backend/solver.h"

namespace weft {

struct LoggedSolve {
  int64_t step = 0;  // the solve's place in the run, from 1 (one solve per step the solver took)
  SolveStats stats;
};

class SolveLog {
 public:
  static constexpr size_t kEndSteps = 50;

  explicit SolveLog(bool keepAll = false) : keepAll_(keepAll) {}
  void add(const SolveStats& stats);

  int64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  const std::map<int, int64_t>& iterationHistogram() const { return histogram_; }  // iterations -> solves
  double medianIterations() const;
  int maxIterations() const { return histogram_.empty() ? 0 : histogram_.rbegin()->first; }
  float maxResidual() const { return maxResidual_; }
  int64_t unconverged() const { return unconverged_; }
  float minDt() const { return minDt_; }
  float maxDt() const { return maxDt_; }

  const std::vector<LoggedSolve>& first() const { return first_; }  // solves 1 to kEndSteps
  const std::deque<LoggedSolve>& last() const { return last_; }     // the last kEndSteps after those
  bool keepsAll() const { return keepAll_; }
  const std::vector<SolveStats>& all() const { return all_; }       // every solve, when keepsAll()
  size_t heldSolves() const { return first_.size() + last_.size() + all_.size(); }

 private:
  bool keepAll_;
  int64_t count_ = 0, unconverged_ = 0;
  std::map<int, int64_t> histogram_;
  float maxResidual_ = 0.f, minDt_ = 0.f, maxDt_ = 0.f;
  std::vector<LoggedSolve> first_;
  std::deque<LoggedSolve> last_;
  std::vector<SolveStats> all_;
};

}  // namespace weft
