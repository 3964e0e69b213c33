#pragma once
// What `weft run` and the viewer say of an explicit integrator's step limit (solver/model/stability.h):
// a warning before a run whose steps are longer than its stable step, the substeps to take when
// such a run explodes, and the viewer panel's line.
#include <string>

#include "solver/model/scene.h"
#include "solver/model/stability.h"

namespace weft {

struct StepLimit {
  std::string integrator;  // its name, as the summary line gives it
  ModeBounds modes;        // the cloth's springs' bounds
  double stableStep = 0;   // s: IntegratorUnit::stableStep(modes); infinite without a limit
  double frameDt = 0;      // s
  int substeps = 1;        // of each frame
};

// The limit of `integrator` on `cloth` at `substeps` steps a frame of `frameDt`: the springs'
// bounds (120 passes over them) only for an integrator whose forces are explicit; the others get
// an infinite stable step.
StepLimit stepLimitFor(const ClothModel& cloth, Integrator integrator, float airDrag, double frameDt, int substeps);

// Empty when each step is within the stable step; else one paragraph (no trailing newline).
std::string stepLimitWarning(const StepLimit& limit);
// Empty when each step is within the stable step; else a clause for the explosion's sentence,
// beginning "; ".
std::string stepLimitHint(const StepLimit& limit);
// Empty when each step is within the stable step; else the viewer panel's line under the substeps
// (no flags: the panel's slider is where the substeps change).
std::string stepLimitNote(const StepLimit& limit);

}  // namespace weft
