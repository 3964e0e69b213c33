#pragma once
// How far a cloth is stretched: each structural spring's strain |x_a - x_b| / L - 1, counted where
// positive (compression is buckling, not the "rubber" a user sees). A cloth that holds has a mean
// under 1 % and no spring past 10 %; Jacobi-relaxed position solvers are judged by it, and so are
// the budgets `weft run` and `weft bench` report.
#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "solver/model/cloth_model.h"

namespace weft {

struct StretchStats {
  double mean = 0;     // mean over the structural springs of max(0, strain)
  double max = 0;      // the largest strain of any structural spring
  size_t springs = 0;  // structural springs counted (0: none, mean and max 0)
};

// positions[i] is particle i of `model` (xyz; w ignored).
StretchStats structuralStretch(const ClothModel& model, const std::vector<glm::vec4>& positions);

// The worst of a run's frames: the largest mean and the largest spring, each over every frame added,
// with the frame each came in (the first of equals). A cloth stretches most as it swings taut and
// may read well again by the end, so a budget is judged by this (`weft bench --suite targets`'s
// holding rows, `weft run`'s worstStretch), the last frame's stretch beside it.
struct WorstStretch {
  double mean = 0, max = 0;
  int meanFrame = 0, maxFrame = 0;  // 0 until a frame with structural springs was added
  void add(int frame, const StretchStats& stats);
};

}  // namespace weft
