// Timing frames of a resized scene. The median, not the mean: one frame the operating system
// interrupts should not move the grid size a machine gets.
#include "demos/common/frame_timing.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "solver/model/grid_resize.h"

namespace weft {

double measureFrameMs(const Scene& scene, uint32_t n, Backend backend, engine::Context* context,
                      const engine::ShaderLibrary* shaders, int frames) {
  if (frames < 1) throw std::invalid_argument("measureFrameMs needs at least one frame");
  const Scene resized = withGridSize(scene, n);
  std::unique_ptr<Solver> solver = makeSolver(resized.cloth, solverParams(resized), backend, context, shaders);
  const float dt = resized.solver.dt;
  const int substeps = resized.solver.substeps;
  solver->advance(dt, substeps);

  std::vector<double> samples;
  samples.reserve(static_cast<size_t>(frames));
  for (int frame = 0; frame < frames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    solver->advance(dt, substeps);
    samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(samples.begin(), samples.end());
  const size_t mid = samples.size() / 2;
  return samples.size() % 2 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
}

}  // namespace weft
