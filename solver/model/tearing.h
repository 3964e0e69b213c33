#pragma once
// Tearing. Springs of a tearing material break once stretched past their tear strain, and a cut
// breaks every spring a swept surface crosses. Where broken edges separate the triangles around a
// particle into several fans, the particle splits into one copy per fan, so the triangles come apart.
//
// The detection runs on each backend (solver/passes/tear_detection.h). The topology edit is this host code, shared by both backends: it edits the
// model and the state, and the solver reloads its tables from the result (Solver::applyTears). A
// tear is an event, not a per-step cost: frames without one pay only the detection.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "solver/model/cloth_model.h"

namespace weft {

// true when some spring of the model has a tear strain.
bool tears(const ClothModel& model);

// InputError, one sentence, for a tearing cloth whose other parts could not follow its topology:
// tethers (they hold particles by index, so a torn-off piece would stay tied to its pin).
void checkTearable(const ClothModel& model);

// The model indices, ascending, of the springs (of any kind) whose segment at `positions` crosses the
// triangle (a, b, c): what a cut along a dragged line sweeps (the eye and two far points).
std::vector<uint32_t> springsCrossingTriangle(const ClothModel& model, const std::vector<glm::vec4>& positions,
                                              glm::vec3 a, glm::vec3 b, glm::vec3 c);

struct TearEdit {
  size_t brokenSprings = 0;     // springs removed: past their strain with no particle to split, or cut
  size_t detachedSprings = 0;   // springs over a split particle whose ends went to two sides
  size_t detachedElements = 0;  // hinges whose wings went to two sides
  size_t newParticles = 0;      // copies made by splits
  std::vector<uint32_t> copiedFrom;  // each copy's particle, in the order the copies were appended
  bool changed() const { return brokenSprings + detachedSprings + detachedElements + newParticles > 0; }
};

// Tearing by strain. For each spring given (model indices; out-of-range and repeated ones are
// ignored), one end splits by the plane through it perpendicular to the spring: the triangles of its
// fan on the spring's side go to a copy, with the spring, so the crack opens at that particle and the
// strain is released. Where neither end's fan lies on both sides of its plane (a lone triangle), the
// spring is removed instead.
TearEdit tearSprings(ClothModel& model, std::vector<uint32_t> springs, std::vector<glm::vec4>& positions,
                     std::vector<glm::vec4>& velocities);

// A cut by the triangle (a, b, c): the springs it crosses are removed, and their ends split along its
// plane, so the triangles on its two sides come apart.
TearEdit cutCloth(ClothModel& model, glm::vec3 a, glm::vec3 b, glm::vec3 c, std::vector<glm::vec4>& positions,
                  std::vector<glm::vec4>& velocities);

// What both do: each split gives a particle's far triangles (and its springs and hinges on that side)
// a copy; each copy takes the share of the particle's mass that its triangles' rest area lumped there,
// so the total mass is kept, and the particle's state. New particles are appended to the model and to
// `positions` / `velocities` (the solver's state, w the inverse mass). Springs joining two triangles
// on both sides (the crack's new edges) are doubled; springs passing over a split particle from one
// side to the other are dropped, as are hinges across the crack. Bend pairs are rebuilt.

}  // namespace weft
