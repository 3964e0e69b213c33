#pragma once
// What one frame of a scene costs at a given grid size: the measurement calibrateGrid searches with.
#include <cstdint>

#include "solver/model/scene.h"
#include "solver/backend/solver.h"

namespace weft {

// Builds a solver for withGridSize(scene, n) on `backend`, advances one warm-up frame (pipelines,
// first-touch allocations, caches), then returns the median wall-clock ms of `frames` frames of
// advance(dt, substeps) with the scene's own solver settings. The GPU backend waits for each frame
// inside advance(), so the wall clock includes the device's work. The GPU backend needs a context
// and shaders; frames >= 1. Mesh scene or n out of range: InputError (withGridSize).
double measureFrameMs(const Scene& scene, uint32_t n, Backend backend, engine::Context* context,
                      const engine::ShaderLibrary* shaders, int frames);

}  // namespace weft
