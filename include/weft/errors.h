#pragma once
// The errors weft throws. Every message is one sentence meant for a person:
//  - weft::InputError: something the caller can cause and fix (a bad scene or model, an impossible
//    value, a device that lacks what weft needs). Nothing was changed when it is thrown.
//  - weft::SolveError: a step the integrator could not take (an adaptive step that keeps
//    diverging): the cloth is past what the method can do, not a bug.
// Programmer errors (a call out of order, an index out of range) are std::logic_error and
// std::out_of_range.
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
