#pragma once
// A grid scene at another resolution, for a caller that picks the grid size itself.
#include <cstdint>

#include "solver/model/scene.h"

namespace weft {

// The scene with its grid cloth rebuilt as n x n particles: same size, origin, plane, material,
// initial velocity and mass rule (a totalMass stays the total, an arealDensity the density), the
// same corner pins. An explicit pin index (row r, column c of the W x H grid) moves to the particle
// at the same fraction of the grid: row round(r (n-1) / (H-1)), column round(c (n-1) / (W-1)).
// Spring stiffnesses stay the material's N/m per spring; docs/scene-format.md says what that does
// to the cloth. A mesh cloth, or n outside [2, kMaxGridSide]: InputError.
Scene withGridSize(const Scene& scene, uint32_t n);

}  // namespace weft
