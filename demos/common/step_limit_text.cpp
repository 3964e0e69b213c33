#include "demos/common/step_limit_text.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "solver/integrators/integrator_unit.h"

namespace weft {

namespace {

bool exceeded(const StepLimit& l) { return l.frameDt / l.substeps > l.stableStep; }

// A duration in the unit that reads best: "21.3 µs", "2.08 ms", "0.5 s".
std::string duration(double seconds) {
  char text[32];
  if (seconds < 1e-3)
    std::snprintf(text, sizeof text, "%.3g µs", seconds * 1e6);
  else if (seconds < 1.0)
    std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  return text;
}

std::string elementsLeftOut(const StepLimit& l) {
  if (l.modes.elements == 0) return "";
  return " (its " + std::to_string(l.modes.elements) + " elements add stiffness this leaves out)";
}

}  // namespace

StepLimit stepLimitFor(const ClothModel& cloth, Integrator integrator, float airDrag, double frameDt, int substeps) {
  StepLimit limit{integratorName(integrator), {}, std::numeric_limits<double>::infinity(), frameDt, substeps};
  const integrators::IntegratorUnit& unit = integrators::integratorUnit(integrator);
  if (unit.explicitForces()) {
    limit.modes = springModeBounds(cloth, airDrag);
    limit.stableStep = unit.stableStep(limit.modes);
  }
  return limit;
}

std::string stepLimitWarning(const StepLimit& l) {
  if (!exceeded(l)) return "";
  char text[512];
  if (!(l.stableStep > 0.0)) {
    std::snprintf(text, sizeof text,
                  "weft: warning: %s gains energy at every step in the modes of undamped springs, whatever the "
                  "step: give the material damping, or take an integrator that is stable without it",
                  l.integrator.c_str());
    return text;
  }
  const int needed = substepsWithin(l.frameDt, l.stableStep);
  std::snprintf(text, sizeof text,
                "weft: warning: %s holds this cloth's springs stable only at steps up to %s (their modes reach "
                "%.4g/s, damped at up to %.4g/s)%s; this run steps %s (%d substeps a frame) and may explode: "
                "--substeps %d or more stays within it",
                l.integrator.c_str(), duration(l.stableStep).c_str(), l.modes.omega, l.modes.gamma,
                elementsLeftOut(l).c_str(), duration(l.frameDt / l.substeps).c_str(), l.substeps, needed);
  return text;
}

std::string stepLimitHint(const StepLimit& l) {
  if (!exceeded(l)) return "";
  if (!(l.stableStep > 0.0)) return "; " + l.integrator + " has no stable step while the springs are undamped";
  return "; --substeps " + std::to_string(substepsWithin(l.frameDt, l.stableStep)) + " keeps each step within " +
         l.integrator + "'s stable step for these springs (" + duration(l.stableStep) + ")";
}

std::string stepLimitNote(const StepLimit& l) {
  if (!exceeded(l)) return "";
  if (!(l.stableStep > 0.0)) return l.integrator + " gains energy in the undamped springs' modes at any step";
  return l.integrator + " is stable on these springs only at steps up to " + duration(l.stableStep) + ": " +
         std::to_string(substepsWithin(l.frameDt, l.stableStep)) + " substeps or more (now " +
         std::to_string(l.substeps) + ")";
}

}  // namespace weft
