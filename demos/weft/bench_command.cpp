#include "demos/weft/bench_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

#include "demos/weft/bench_measure.h"
#include "demos/weft/bench_plot.h"
#include "demos/weft/bench_record.h"
#include "demos/weft/output_paths.h"
#include "demos/weft/run_report.h"
#include "engine/buffer.h"
#include "engine/commands.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/gpu_timer.h"
#include "engine/program.h"
#include "engine/record_stats.h"
#include "engine/shader_library.h"
#include "shaders/shared.h"
#include "solver/integrators/integrator_unit.h"
#include "solver/backend/solver.h"
#include "solver/model/stretch.h"
#include "solver/cpu/thread_pool.h"

namespace weft {
namespace {

using Clock = std::chrono::steady_clock;

void printPassTable(const BenchRow& row) {
  std::printf("\n%d² %s %s: %.0f dispatches, %.0f barriers, %.2f MB bound per step\n\n", row.grid,
              row.integrator.c_str(), row.backend.c_str(), *row.dispatchesPerStep, *row.barriersPerStep,
              *row.boundBytesPerStep * 1e-6);
  std::printf("| pass | ms/step | MB/step | GB/s | of copy |\n|---|---|---|---|---|\n");
  for (const BenchPass& p : row.passes)
    std::printf("| %s | %.4f | %.3f | %.2f | %.0f%% |\n", p.name.c_str(), p.msPerStep, p.bytesPerStep * 1e-6, p.gbps,
                100.0 * p.ofCopy);
}

// "[k/N] 256² verlet gpu" on stderr, with the time so far and a rough estimate of what is left.
void progress(size_t k, size_t n, int grid, const char* integrator, const std::string& backend, double elapsed) {
  char eta[48] = "";
  if (k > 1) std::snprintf(eta, sizeof eta, ", ~%.0f s left", elapsed / double(k - 1) * double(n - k + 1));
  std::fprintf(stderr, "weft bench: [%zu/%zu] %d² %s %s ... (%.1f s elapsed%s)\n", k, n, grid, integrator,
               backend.c_str(), elapsed, eta);
  std::fflush(stderr);
}

}  // namespace

int benchCommand(const BenchOptions& options) {
  std::vector<Integrator> integrators;
  for (const std::string& name : options.integrators) integrators.push_back(parseIntegrator(name));
  const Acceleration acceleration = options.acceleration == "nesterov" ? Acceleration::Nesterov
                                    : options.acceleration == "none"   ? Acceleration::None
                                    : options.acceleration == "chebyshev"
                                        ? Acceleration::Chebyshev
                                        : throw InputError("unknown acceleration '" + options.acceleration +
                                                           "' (known: chebyshev, nesterov, none)");
  Preconditioner preconditioner = Preconditioner::BlockJacobi;
  try {
    preconditioner = parsePreconditionerName(options.preconditioner);
  } catch (const InputError& e) {
    throw InputError(std::string("--preconditioner: ") + e.what());
  }
  if (options.rowSeconds) throw InputError("--row-seconds bounds the targets and contact suites' rows; the sweep times every row whole");
  // Outputs are tried before the first case: a bad path costs one sentence, not the bench's time.
  if (!options.jsonPath.empty()) checkOutputFile(options.jsonPath, "JSON");
  if (!options.csvPath.empty()) checkOutputFile(options.csvPath, "CSV");
  if (!options.plotPath.empty()) checkOutputFile(options.plotPath, "plot");
  std::unique_ptr<engine::Context> context;
  std::unique_ptr<engine::ShaderLibrary> shaders;
  bool wantGpu = std::find(options.backends.begin(), options.backends.end(), "gpu") != options.backends.end();
  for (const auto& b : options.backends) parseBackend(b);
  if (wantGpu) {
    context = std::make_unique<engine::Context>(engine::ContextOptions{.deviceName = options.device});
    shaders = options.shaderDir.empty() ? std::make_unique<engine::ShaderLibrary>()
                                        : std::make_unique<engine::ShaderLibrary>(options.shaderDir);
    std::printf("weft bench: Vulkan device %s (%s)\n", context->deviceName().c_str(), context->deviceType().c_str());
  }
  const BenchEnvironment environment = benchEnvironment(context.get());
  std::printf("weft bench: %d constraint iterations (verlet), tolerance %g (implicit, %s), %d substeps per frame, "
              "median of %d frames, %s acceleration\n\n",
              options.iterations, options.tolerance, preconditionerName(preconditioner), options.substeps, options.frames,
              options.acceleration.c_str());
  std::printf("| grid | particles | integrator | backend | ms/step (wall) | ms/step (GPU) | M particle-steps/s | "
              "solve iterations | max residual | stretch %% mean / max | copy GB/s |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);

  std::vector<BenchRow> rows;
  const size_t cases = options.grids.size() * integrators.size() * options.backends.size();
  size_t caseIndex = 0;
  const auto benchStart = Clock::now();
  for (int n : options.grids) {
    if (n < 2) throw InputError("bench grid sizes must be at least 2 (got " + std::to_string(n) + ")");
    for (Integrator integrator : integrators) {
    ClothModel model = benchGrid(n, integrator);
    if (options.springTable) model.gridWidth = model.gridHeight = 0;  // not known as a grid: its table is read
    SolverParams params;
    params.integrator = integrator;
    params.iterations = options.iterations;
    params.tolerance = options.tolerance;
    params.maxIterations = options.maxIterations;
    if (options.chebyshevRho >= 0.f) params.chebyshevRho = options.chebyshevRho;
    params.relaxationRho = options.relaxationRho;
    params.acceleration = acceleration;
    params.preconditioner = preconditioner;
    params.momentum = options.momentum < 0.f ? kMomentumSchedule : options.momentum;
    ColliderDesc ground;
    params.colliders = {ground};
    const uint32_t particles = static_cast<uint32_t>(model.particleCount());
    for (const std::string& backendName : options.backends) {
      if (!options.quiet)
        progress(++caseIndex, cases, n, integratorName(integrator), backendName,
                 std::chrono::duration<double>(Clock::now() - benchStart).count());
      Backend backend = parseBackend(backendName);
      BenchRow row;
      row.grid = n;
      row.particles = particles;
      row.integrator = integratorName(integrator);
      row.backend = backendName;
      std::unique_ptr<Solver> solver;
      try {
        solver = makeSolver(model, params, backend, context.get(), shaders.get());
      } catch (const InputError& error) {
        // A state this backend cannot hold (solver/backend/memory_budget.h) ends its row, not the bench:
        // the other backend, and smaller grids, are still measured.
        std::printf("| %d² | %u | %s | %s | not run: %s |\n", n, particles, integratorName(integrator),
                    backendName.c_str(), error.what());
        std::fflush(stdout);
        row.notRun = error.what();
        rows.push_back(row);
        continue;
      }
      const FrameTimes timed = timeFrames(*solver, 1.f / 60.f, options.substeps, options.frames, 2);
      const std::vector<double>& iterations = timed.solveIterations;
      const double worstResidual = timed.worstResidual;
      const double wallMs = timed.wallMsPerFrame / options.substeps, gpuMs = timed.gpuMsPerFrame / options.substeps;
      double rate = particles / ((backend == Backend::Gpu ? gpuMs : wallMs) * 1e-3) * 1e-6;
      double copy = backend == Backend::Gpu ? gpuCopyBandwidth(*context, *shaders, particles) : cpuCopyBandwidth(particles);
      const StretchStats stretch = structuralStretch(model, timed.positions);
      char gpuText[32] = "-", iterText[32] = "-", residualText[32] = "-", stretchText[48] = "-";
      if (stretch.springs > 0)
        std::snprintf(stretchText, sizeof stretchText, "%.2f / %.1f", 100.0 * stretch.mean, 100.0 * stretch.max);
      if (backend == Backend::Gpu) std::snprintf(gpuText, sizeof gpuText, "%.3f", gpuMs);
      if (!iterations.empty()) {
        std::snprintf(iterText, sizeof iterText, "%.0f", median(iterations));
        std::snprintf(residualText, sizeof residualText, "%.2g", worstResidual);
      }
      std::printf("| %d² | %u | %s | %s | %.3f | %s | %.2f | %s | %s | %s | %.1f |\n", n, particles,
                  integratorName(integrator), backendName.c_str(), wallMs, gpuText, rate, iterText, residualText,
                  stretchText, copy);
      std::fflush(stdout);
      row.device = solver->deviceName();
      row.wallMsPerStep = wallMs;
      if (backend == Backend::Gpu) row.gpuMsPerStep = gpuMs;
      row.particleStepsPerSecond = rate * 1e6;
      row.copyGBps = copy;
      if (stretch.springs > 0) {
        row.stretchMean = stretch.mean;
        row.stretchMax = stretch.max;
      }
      if (!iterations.empty()) {
        row.medianSolveIterations = median(iterations);
        row.maxResidual = worstResidual;
      }
      if (backend == Backend::Gpu && options.frames > 0)
        fillPasses(row, timed.recorded, timed.passTotals, double(options.frames) * options.substeps);
      rows.push_back(row);
    }
    }
  }
  for (const BenchRow& row : rows)
    if (row.dispatchesPerStep) printPassTable(row);
  if (!options.jsonPath.empty())
    writeWholeFile(options.jsonPath, benchJson(options, environment, rows).dump(2) + "\n", "JSON");
  if (!options.csvPath.empty()) writeWholeFile(options.csvPath, benchCsv(options, environment, rows), "CSV");
  if (!options.plotPath.empty()) writeWholeFile(options.plotPath, benchPlotSvg(rows), "plot");
  return 0;
}

}  // namespace weft
