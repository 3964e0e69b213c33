#pragma once
// The one check of how a cloth steps (SolverSettings, scene.h): every value's range, said once. The
// scene reader reports a problem with the file and the key ("scene.json: solver.relaxation must be
// in [1, 2) (got 2)"), the public API with its type ("StepSettings: iterations must be at most
// 10000 (got 80000)"), and the solver refuses parameters made in code with it (InputError).
#include <optional>
#include <string>

#include "solver/model/scene.h"

namespace weft {

// A value out of its range: the key a scene file's "solver" section names it by, and one sentence
// that says the range and the value ("must be a positive integer (got 0)").
struct SettingProblem {
  std::string key;
  std::string sentence;
};

// The first value of `settings` out of its range, in the order of the struct's fields; none when
// every value is in range.
std::optional<SettingProblem> settingsProblem(const SolverSettings& settings);

// InputError "<what>: <key> <sentence>" for the first problem, if any.
void checkSettings(const SolverSettings& settings, const std::string& what);

}  // namespace weft
