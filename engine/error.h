#pragma once
// The two kinds of error (STYLE.md, practice 8):
//  - InputError: something the user can cause (bad scene, unknown device, impossible value). Its
//    message is one sentence meant for the user; programs print it and exit non-zero.
//  - SolveError: a step the integrator could not take (an adaptive step that keeps diverging): the
//    scene is past what the method can do, not a bug. Its message says so in one sentence;
//    `weft run` treats it like a state turned non-finite (exit 3, the stats and recording so far).
//  - VK_CHECK / std::logic_error: programmer errors, reported with file and line.
#include <stdexcept>
#include <string>

namespace weft {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SolveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace weft
