#pragma once
// What `weft run` says of an explicit integrator's step limit (solver/stability.h): a warning
// before a run whose steps are longer than its stable step, and the substeps to take when such a
// run explodes.
#include <string>

#include "solver/stability.h"

namespace weft {

struct StepLimit {
  std::string integrator;  // its name, as the summary line gives it
  ModeBounds modes;        // the cloth's springs' bounds
  double stableStep = 0;   // s: IntegratorUnit::stableStep(modes); infinite without a limit
  double frameDt = 0;      // s
  int substeps = 1;        // of each frame
};

// Empty when each step is within the stable step; else one paragraph (no trailing newline).
std::string stepLimitWarning(const StepLimit& limit);
// Empty when each step is within the stable step; else a clause for the explosion's sentence,
// beginning "; ".
std::string stepLimitHint(const StepLimit& limit);

}  // namespace weft
