#pragma once
// How long a step the explicit integrators can take on a cloth (docs/integrators.md, "Stable
// steps"). The linearised spring system at rest, M x'' = -K x - C x', has modes whose angular
// frequency omega and damping rate gamma are bounded by Gershgorin's theorem on M^-1/2 K M^-1/2 and
// M^-1/2 C M^-1/2 (block rows: a spring's 3x3 stiffness block has norm k at rest and below k
// stretched, its damping block c). Each integrator's stability region then gives the longest step
// for which every mode within those bounds stays bounded (IntegratorUnit::stableStep). The bounds
// are upper bounds, so the step is a sufficient one: hanging.json held at steps 1.06 to 1.3 times
// longer (docs/integrators.md).
// Elements (membranes, bending, tethers) add stiffness that the bounds leave out; `elements` says
// how many there are.
#include <cstddef>

namespace weft {

struct ClothModel;

struct ModeBounds {
  double omega = 0.0;  // 1/s: every mode's angular frequency is at most this
  double gamma = 0.0;  // 1/s: every mode's damping rate (the springs' and the air's) is at most this
  // The least damping per stiffness over the springs (s): every mode's gamma / omega^2 is at least
  // this (explicit Euler's step must stay below it). 0 where a spring has no damping; infinite
  // where no spring stiffens a free particle.
  double dampingPerStiffness = 0.0;
  size_t elements = 0;  // the model's elements, whose stiffness the bounds do not count
};

// The bounds for `model`'s springs, with `airDrag` (kg/s per particle) in the damping. Pinned
// particles do not move and have no modes of their own.
ModeBounds springModeBounds(const ClothModel& model, float airDrag);

// The least substeps of a frame of `frameDt` s that keep each step within `stableStep` s (at
// least 1; 0 where no step is stable).
int substepsWithin(double frameDt, double stableStep);

}  // namespace weft
