#pragma once
// `weft run`: a headless simulation of one scene, with optional PNG, OBJ sequence and stats.
#include <optional>
#include <string>

namespace weft {

struct RunOptions {
  std::string scenePath;
  std::optional<std::string> backend;
  std::optional<std::string> integrator;
  std::optional<int> frames;
  std::optional<float> dt;
  std::optional<int> substeps;
  std::optional<int> iterations;
  std::optional<float> tolerance;
  std::optional<int> maxIterations;
  std::optional<std::string> preconditioner;  // implicit-cg, imex: block-jacobi or two-level
  std::optional<int> grid;  // particles per side of the scene's grid cloth (withGridSize)
  std::string pngPath;
  std::string draw;  // the PNG's draw mode (demos/render/scene_drawer.h); empty: shaded
  std::string objDir;
  std::string statsPath;
  std::string recordPath;
  std::string statsSteps = "ends";  // the stats' solve log: "ends" (first and last 50 steps) or "all"
  std::string onExplosion = "stop";  // "stop" (exit 3) or "halve-dt": roll the frame back and retry at half the step
  std::string device;
  std::string shaderDir;
  bool validate = false;
  bool quiet = false;  // no progress line
};

// Exit status: 0 done, 1 bad input (message printed), 3 the state turned non-finite or the
// integrator could not take a step (SolveError), 130 or 143 SIGINT or SIGTERM stopped the run
// (demos/weft/interrupt.h).
int runCommand(const RunOptions& options);

constexpr int kExitBadInput = 1;
constexpr int kExitNonFinite = 3;

}  // namespace weft
