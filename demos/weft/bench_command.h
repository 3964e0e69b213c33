#pragma once
// `weft bench`: ms per step of an integrator on square grids, GPU and CPU side by side in one run,
// with each device's measured copy bandwidth as the yardstick.
#include <optional>
#include <string>
#include <vector>

namespace weft {

// The contact suite's bound on one measurement, s: its largest row on the CPU backend (the twist at
// 256², about 340 s on a 2-core machine) fits, lavapipe's at 256² (past 13 minutes) does not.
inline constexpr double kDefaultRowSeconds = 600;

struct BenchOptions {
  std::vector<int> grids{64, 256, 512};
  std::vector<std::string> integrators{"verlet"};
  int iterations = 10;          // Verlet constraint iterations
  float tolerance = 1e-3f;      // implicit solves
  int maxIterations = 200;      // implicit solves
  float chebyshevRho = -1.f;    // newton-chebyshev's estimate; < 0: the solver's default
  float relaxationRho = 0.f;    // verlet's Chebyshev estimate; 0: plain Jacobi
  std::string acceleration = "chebyshev";  // of both Jacobi solves: chebyshev, nesterov or none
  float momentum = -1.f;        // Nesterov's fixed momentum; < 0: the (k - 1) / (k + 2) schedule
  std::string preconditioner = "block-jacobi";  // implicit-cg, imex: block-jacobi or two-level (CPU backend)
  int substeps = 4;
  int frames = 15;        // measured frames per case (after warm-up); the median is reported
  std::vector<std::string> backends{"gpu", "cpu"};
  std::string device;
  std::string shaderDir;  // benchmark edited kernels without rebuilding
  // Read the grid's springs from the spring table, as for a mesh, instead of finding them from the
  // index (shaders/grid_stencil.h): the general path, to measure what the grid path saves.
  bool springTable = false;
  std::string jsonPath;   // optional: the record of the run (demos/weft/bench_record.h)
  std::string csvPath;    // optional: the rows as CSV, the settings in every line
  std::string plotPath;   // optional: ms per step against particles, SVG (demos/weft/bench_plot.h)
  bool quiet = false;     // no progress lines on stderr
  // "targets": the performance targets' rows instead of the sweep (demos/weft/bench_targets.h);
  // grids, integrators and the solver settings above are then the suite's own.
  std::string suite;
  bool quick = false;     // the suite on quarter-size grids for a few frames: a check, not its figures
  // The targets and contact suites: a measurement (one row's solver run; in the contact suite one
  // cloth, backend, contact on or off) whose first frames project past this many seconds stops, and
  // its row reads "not measured"; 0: no bound. Unset: kDefaultRowSeconds. Refused by the colliders
  // suite and the sweep, which time every row whole.
  std::optional<double> rowSeconds;
};

int benchCommand(const BenchOptions& options);

}  // namespace weft
