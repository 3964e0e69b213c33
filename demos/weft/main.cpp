// weft: command-line front end. Parses arguments and calls the command; nothing else lives here.
#include <cstdio>

#include <CLI/CLI.hpp>

#include "demos/view/view_command.h"
#include "demos/weft/bench_command.h"
#include "demos/weft/bench_targets.h"
#include "demos/weft/replay_command.h"
#include "demos/weft/run_command.h"
#include "engine/context.h"
#include "engine/error.h"
#include "solver/model/scene.h"
#include "weft/version.h"

namespace {

std::string integratorList() {
  std::string out;
  for (const auto& name : weft::integratorNames()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"weft: real-time cloth on Vulkan compute, with a CPU backend beside it"};
  app.require_subcommand(1);
  // Prints "weft 0.1.0" (the project's version, <weft/version.h>) and exits 0, with no subcommand.
  app.set_version_flag("--version", std::string("weft ") + WEFT_VERSION_STRING, "print the version and exit");

  weft::RunOptions run;
  CLI::App* runCmd = app.add_subcommand("run", "simulate a scene headless; summary, PNG, OBJ frames, stats");
  runCmd->add_option("scene", run.scenePath, "scene file (JSON, see docs/scene-format.md)")->required();
  runCmd->add_option("--backend", run.backend, "gpu (default) or cpu");
  runCmd->add_option("--integrator", run.integrator, "one of: " + integratorList());
  runCmd->add_option("--frames", run.frames, "frames to simulate");
  runCmd->add_option("--dt", run.dt, "seconds per frame");
  runCmd->add_option("--substeps", run.substeps, "steps per frame");
  runCmd->add_option("--iterations", run.iterations, "constraint iterations per step (verlet: Jacobi, xpbd: Gauss-Seidel sweeps)");
  runCmd->add_option("--tolerance", run.tolerance, "implicit solves: relative residual to reach");
  runCmd->add_option("--max-iterations", run.maxIterations, "implicit solves: iteration cap per step");
  runCmd->add_option("--preconditioner", run.preconditioner,
                     "implicit-cg, imex: block-jacobi (default) or two-level (CPU backend, docs/integrators.md)");
  runCmd->add_option("--grid", run.grid, "rebuild the scene's grid cloth with N x N particles, same size and mass");
  runCmd->add_option("--png", run.pngPath, "render the final frame to this PNG");
  runCmd->add_option("--draw", run.draw, "draw the PNG's cloth shaded (default), as a wireframe, as springs, or with its contacts marked");
  runCmd->add_option("--obj-dir", run.objDir, "write one OBJ per frame into this folder");
  runCmd->add_option("--record", run.recordPath, "record every frame's positions to this file (docs/recording-format.md)");
  runCmd->add_option("--stats", run.statsPath, "write run statistics to this JSON file");
  runCmd->add_option("--stats-steps", run.statsSteps,
                     "implicit solves in the stats: ends (summary, first and last 50 steps; default) or all");
  runCmd->add_option("--on-explosion", run.onExplosion,
                     "when the state explodes: stop (default, exit 3) or halve-dt (roll the frame back, retry at half the step)");
  runCmd->add_option("--device", run.device, "Vulkan device name (substring); default $WEFT_DEVICE or the best");
  runCmd->add_option("--shader-dir", run.shaderDir, "compile shaders from this folder at start-up");
  runCmd->add_flag("--validate", run.validate, "enable the Vulkan validation layer");
  runCmd->add_flag("--quiet", run.quiet, "no progress line");

  weft::BenchOptions bench;
  CLI::App* benchCmd = app.add_subcommand("bench", "ms per step on square grids, GPU beside CPU, with copy bandwidth");
  benchCmd->add_option("--grids", bench.grids, "grid sizes (particles per side)")->delimiter(',');
  benchCmd->add_option("--integrators", bench.integrators, "comma-separated, from: " + integratorList())->delimiter(',');
  benchCmd->add_option("--tolerance", bench.tolerance, "implicit solves: relative residual to reach");
  benchCmd->add_option("--max-iterations", bench.maxIterations, "implicit solves: iteration cap per step");
  benchCmd->add_option("--chebyshev-rho", bench.chebyshevRho, "newton-chebyshev: spectral radius estimate (0: plain Jacobi)");
  benchCmd->add_option("--relaxation-rho", bench.relaxationRho, "verlet: Chebyshev spectral radius estimate (0: off)");
  benchCmd->add_option("--acceleration", bench.acceleration, "of the Jacobi solves: chebyshev, nesterov or none");
  benchCmd->add_option("--preconditioner", bench.preconditioner,
                       "implicit-cg, imex: block-jacobi (default) or two-level (the CPU backend's; its GPU rows are not run)");
  benchCmd->add_option("--momentum", bench.momentum, "nesterov: fixed momentum in [0, 1) (default: the (k-1)/(k+2) schedule)");
  benchCmd->add_option("--iterations", bench.iterations, "constraint iterations per step (verlet: Jacobi, xpbd: Gauss-Seidel sweeps)");
  benchCmd->add_option("--substeps", bench.substeps, "steps per measured frame");
  benchCmd->add_option("--frames", bench.frames, "measured frames per case");
  benchCmd->add_option("--backends", bench.backends, "gpu,cpu")->delimiter(',');
  benchCmd->add_option("--device", bench.device, "Vulkan device name (substring)");
  benchCmd->add_option("--shader-dir", bench.shaderDir, "compile shaders from this folder at start-up");
  benchCmd->add_flag("--spring-table", bench.springTable,
                     "read the grid's springs from the spring table, as for a mesh (the general path), "
                     "instead of finding them from the index");
  benchCmd->add_option("--json", bench.jsonPath, "also write the record of the run (settings, device, rows) as JSON");
  benchCmd->add_option("--csv", bench.csvPath, "also write the rows as CSV, the settings on every line");
  benchCmd->add_option("--plot", bench.plotPath, "also plot ms per step against particles to this SVG");
  benchCmd->add_flag("--quiet", bench.quiet, "no progress lines on stderr");
  benchCmd->add_option("--suite", bench.suite,
                       "targets: the performance targets' rows, each beside its target (docs/benchmarks.md); "
                       "contact: what contact costs, on and off (docs/contact.md); "
                       "colliders: what mesh colliders cost, with the face grid and without (docs/contact.md)");
  benchCmd->add_option("--row-seconds", bench.rowSeconds,
                       "--suite targets or contact: a measurement whose first frames project past this many seconds stops, "
                       "and its row reads 'not measured' (0: no bound; default 600)");
  benchCmd->add_flag("--quick", bench.quick, "with --suite: quarter-size grids and a few frames (a check, not the figures)");

  weft::ReplayOptions replay;
  CLI::App* replayCmd = app.add_subcommand("replay", "describe a recording and render one of its frames, no solver");
  replayCmd->add_option("recording", replay.path, "file written by weft run --record")->required();
  replayCmd->add_option("--frame", replay.frame, "frame to render (default: the last)");
  replayCmd->add_option("--png", replay.pngPath, "render that frame to this PNG");
  replayCmd->add_option("--scene", replay.scenePath,
                        "the scene recorded: draw the frame with its camera and its colliders where they were then");
  replayCmd->add_option("--device", replay.device, "Vulkan device name (substring)");

  weft::ViewOptions view;
  CLI::App* viewCmd = app.add_subcommand("view", "a window on a scene: live solver, mouse camera, grab the cloth");
  viewCmd->add_option("scene", view.scenePath, "scene file (JSON, see docs/scene-format.md); with --replay, optional");
  viewCmd->add_option("--backend", view.backend, "gpu (default) or cpu");
  viewCmd->add_option("--integrator", view.integrator, "one of: " + integratorList());
  viewCmd->add_option("--device", view.device, "Vulkan device name (substring); default $WEFT_DEVICE or the best");
  viewCmd->add_flag("--validate", view.validate, "enable the Vulkan validation layer");
  viewCmd->add_option("--frames", view.frames, "render this many frames, then exit");
  viewCmd->add_option("--screenshot", view.screenshotPath, "write the last frame to this PNG");
  viewCmd->add_flag("--wireframe", view.wireframe, "start in wireframe (same as --draw wireframe)");
  viewCmd->add_option("--draw", view.draw,
                      "start drawing the cloth shaded, as a wireframe, as springs, or with its contacts marked (W cycles)");
  viewCmd->add_option("--grid", view.grid, "simulate an N x N grid instead of the scene's (skips the calibration)");
  viewCmd->add_option("--compare", view.compare, "two integrators side by side, as A,B, each optionally with its substeps (explicit-euler:128,implicit-cg:1)");
  viewCmd->add_option("--replay", view.replayPath, "play this recording back (weft run --record) instead of simulating");
  viewCmd->add_option("--record", view.recordPath, "file the record button writes (default weft-view-K.weftrec)");
  viewCmd->add_flag("--record-now", view.recordFromStart, "start recording on the first frame");
  viewCmd->add_flag("--paused", view.paused, "open with the simulation paused (space starts it, N steps)");
  viewCmd->add_flag("!--no-panel", view.panel, "hide the panel (H toggles it)");
  viewCmd->add_option("--msaa", view.msaa, "samples per pixel: 1 (off), 2, 4 or 8, as the device allows (default 4, 1 on a CPU device)");

  CLI::App* devicesCmd = app.add_subcommand("devices", "list the Vulkan devices weft can use");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version print and succeed; anything else is bad input, status 1 like every
    // other, not CLI11's own numbers (104, 106, 109, ...) that no script could list.
    const int status = app.exit(error);
    return status == 0 ? 0 : weft::kExitBadInput;
  }
  try {
    if (runCmd->parsed()) return weft::runCommand(run);
    if (benchCmd->parsed()) return bench.suite.empty() ? weft::benchCommand(bench) : weft::benchTargetsSuite(bench);
    if (replayCmd->parsed()) return weft::replayCommand(replay);
    if (viewCmd->parsed()) return weft::viewCommand(view);
    if (devicesCmd->parsed()) {
      for (const auto& d : weft::engine::Context::listDevices()) std::printf("%s (%s)\n", d.name.c_str(), d.type.c_str());
      return 0;
    }
  } catch (const weft::InputError& error) {
    std::fprintf(stderr, "weft: %s\n", error.what());
    return weft::kExitBadInput;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "weft: internal error: %s\n", error.what());
    return 70;
  }
  return 0;
}
