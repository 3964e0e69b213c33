#include "solver/model/settings_check.h"

#include <cmath>

#include "weft/errors.h"
#include "solver/model/shown_text.h"

namespace weft {
namespace {

std::string got(double x) { return " (got " + shownNumber(x) + ")"; }

// An integer in [minimum, maximum], said as the scene reader's integer reads say it.
std::optional<std::string> integerProblem(int x, int minimum, int maximum) {
  if (x > maximum) return "must be at most " + std::to_string(maximum) + got(x);
  if (x < minimum) {
    const std::string kind = minimum == 1 ? "a positive integer" : minimum == 0 ? "an integer >= 0" : "an integer >= " + std::to_string(minimum);
    return "must be " + kind + got(x);
  }
  return std::nullopt;
}

std::optional<std::string> positiveProblem(float x) {
  if (std::isfinite(x) && x > 0.f) return std::nullopt;
  return std::string("must be a positive number") + (std::isfinite(x) || std::isnan(x) ? "" : " in float range") + got(x);
}

// x in [low, high) or, with lowOpen, (low, high]; `range` is how the sentence writes it.
std::optional<std::string> intervalProblem(float x, float low, float high, bool lowOpen, const char* range) {
  const bool ok = lowOpen ? (x > low && x <= high) : (x >= low && x < high);
  if (ok) return std::nullopt;
  return std::string("must be in ") + range + got(x);
}

}  // namespace

std::optional<SettingProblem> settingsProblem(const SolverSettings& s) {
  const std::pair<const char*, std::optional<std::string>> checks[] = {
      {"dt", positiveProblem(s.dt)},
      {"substeps", integerProblem(s.substeps, 1, kMaxSubsteps)},
      {"iterations", integerProblem(s.iterations, 0, kMaxIterations)},
      {"constraintStiffness", intervalProblem(s.constraintStiffness, 0.f, 1.f, true, "(0, 1]")},
      {"relaxation", intervalProblem(s.relaxation, 1.f, 2.f, false, "[1, 2)")},
      {"relaxationRho", intervalProblem(s.relaxationRho, 0.f, 1.f, false, "[0, 1)")},
      {"tolerance", positiveProblem(s.tolerance)},
      {"maxIterations", integerProblem(s.maxIterations, 1, kMaxIterations)},
      {"newtonIterations", integerProblem(s.newtonIterations, 1, kMaxNewtonIterations)},
      {"chebyshevRho", intervalProblem(s.chebyshevRho, 0.f, 1.f, false, "[0, 1)")},
      {"momentum", s.momentum == kMomentumSchedule
                       ? std::nullopt
                       : intervalProblem(s.momentum, 0.f, 1.f, false, "[0, 1) (or the schedule)")},
      {"velocityScale", positiveProblem(s.velocityScale)},
      {"relativeTolerance", intervalProblem(s.relativeTolerance, 0.f, 1.f, false, "[0, 1)")},
      {"strainLimitIterations", integerProblem(s.strainLimitIterations, 1, kMaxIterations)},
  };
  for (const auto& [key, problem] : checks)
    if (problem) return SettingProblem{key, *problem};
  return std::nullopt;
}

void checkSettings(const SolverSettings& settings, const std::string& what) {
  if (const auto problem = settingsProblem(settings)) throw InputError(what + ": " + problem->key + " " + problem->sentence);
}

}  // namespace weft
