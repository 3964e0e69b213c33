#include "demos/weft/bench_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

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
#include "solver/solver.h"
#include "solver/stretch.h"
#include "solver/thread_pool.h"

namespace weft {
namespace {

using Clock = std::chrono::steady_clock;

// A square grid of 1 cm cells and 0.1 g particles whatever its size, so that every size is the
// same physical problem (a finer grid is not a stiffer one). The force-based explicit integrators
// get springs soft enough to stay stable at the benchmark's step (omega h < 0.5); the others keep
// the default cloth material.
ClothModel benchGrid(int n, Integrator integrator) {
  GridSpec grid;
  grid.width = grid.height = static_cast<uint32_t>(n);
  grid.sizeX = grid.sizeY = 0.01f * static_cast<float>(n - 1);
  grid.origin = glm::vec3(-0.5f * grid.sizeX, 1.5f, 0.f);
  grid.totalMass = 1e-4f * static_cast<float>(n) * static_cast<float>(n);
  Material material = integrators::integratorUnit(integrator).explicitForces() ? Material{0.1f, 0.025f, 0.005f, 1e-4f} : Material{};
  ClothModel model = buildGrid(grid, material);
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  return model;
}

// GB/s of a vec4 copy of n elements on the device (GPU timestamps, median of 9).
double gpuCopyBandwidth(engine::Context& context, const engine::ShaderLibrary& shaders, uint32_t n) {
  engine::ComputeProgram copy(context, shaders, "copy.comp");
  engine::Buffer src(context, n * 16ull, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, "bench.src");
  engine::Buffer dst(context, n * 16ull, engine::kStorageUsage, engine::MemoryUsage::DeviceLocal, "bench.dst");
  engine::GpuTimer timer(context, 16);
  gpu::StepParams params{};
  params.particleCount = n;
  std::vector<double> samples;
  for (int k = 0; k < 10; ++k) {
    engine::submitAndWait(context, [&](VkCommandBuffer cmd) {
      timer.reset(cmd);
      engine::timed(&timer, cmd, "copy", [&] {
        copy.dispatch(cmd, n, {{WEFT_BIND_POSITIONS, &src}, {WEFT_BIND_POSITIONS_OUT, &dst}}, params);
      });
    });
    auto times = timer.read();
    if (k > 0 && !times.empty()) samples.push_back(2.0 * 16.0 * n / (times[0].second * 1e-3) * 1e-9);
  }
  return median(samples);
}

// GB/s of the same copy by the CPU backend's thread pool (wall clock, median of 9).
double cpuCopyBandwidth(uint32_t n) {
  ThreadPool pool;
  std::vector<glm::vec4> src(n, glm::vec4(1.f)), dst(n);
  std::vector<double> samples;
  for (int k = 0; k < 10; ++k) {
    auto start = Clock::now();
    pool.parallelFor(n, [&](size_t b, size_t e) { std::memcpy(&dst[b], &src[b], (e - b) * sizeof(glm::vec4)); });
    double s = std::chrono::duration<double>(Clock::now() - start).count();
    if (k > 0) samples.push_back(2.0 * 16.0 * n / s * 1e-9);
  }
  return median(samples);
}

// Per step, each timed pass: mean GPU ms (timestamps) and what RecordStats counted for it.
void fillPasses(BenchRow& row, const engine::RecordStats& stats, const PassTimes& gpuTotals, double steps) {
  const engine::PassRecordStats total = stats.total();
  row.dispatchesPerStep = double(total.dispatches) / steps;
  row.barriersPerStep = double(total.barriers) / steps;
  row.boundBytesPerStep = double(total.boundBytes) / steps;
  row.boundBufferBytes = stats.distinctBoundBytes();
  for (const engine::PassRecordStats& p : stats.passes()) {
    if (p.dispatches == 0) continue;  // barriers between passes: in the row's totals only
    BenchPass pass;
    pass.name = p.name.empty() ? "(untimed)" : p.name;
    auto it = std::find_if(gpuTotals.begin(), gpuTotals.end(), [&](const auto& t) { return t.first == p.name; });
    pass.msPerStep = it == gpuTotals.end() ? 0.0 : it->second / steps;
    pass.dispatchesPerStep = double(p.dispatches) / steps;
    pass.bytesPerStep = double(p.boundBytes) / steps;
    pass.gbps = pass.msPerStep > 0 ? pass.bytesPerStep / (pass.msPerStep * 1e-3) * 1e-9 : 0.0;
    pass.ofCopy = row.copyGBps > 0 ? pass.gbps / row.copyGBps : 0.0;
    row.passes.push_back(pass);
  }
}

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
  std::printf("weft bench: %d constraint iterations (verlet), tolerance %g (implicit), %d substeps per frame, "
              "median of %d frames, %s acceleration\n\n",
              options.iterations, options.tolerance, options.substeps, options.frames, options.acceleration.c_str());
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
    SolverParams params;
    params.integrator = integrator;
    params.iterations = options.iterations;
    params.tolerance = options.tolerance;
    params.maxIterations = options.maxIterations;
    if (options.chebyshevRho >= 0.f) params.chebyshevRho = options.chebyshevRho;
    params.relaxationRho = options.relaxationRho;
    params.acceleration = acceleration;
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
        // A state this backend cannot hold (solver/memory_budget.h) ends its row, not the bench:
        // the other backend, and smaller grids, are still measured.
        std::printf("| %d² | %u | %s | %s | not run: %s |\n", n, particles, integratorName(integrator),
                    backendName.c_str(), error.what());
        std::fflush(stdout);
        row.notRun = error.what();
        rows.push_back(row);
        continue;
      }
      const float frameDt = 1.f / 60.f;
      for (int warm = 0; warm < 2; ++warm) solver->advance(frameDt, options.substeps);  // pipelines, caches
      std::vector<double> wall, gpu, iterations;
      double worstResidual = 0;
      engine::RecordStats recorded;  // what the measured frames recorded (GPU backend)
      PassTimes passTotals;          // GPU ms per pass over the measured frames
      for (int f = 0; f < options.frames; ++f) {
        auto start = Clock::now();
        {
          engine::ScopedRecordStats counting(recorded);
          solver->advance(frameDt, options.substeps);
        }
        wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count() / options.substeps);
        if (backend == Backend::Gpu) {
          double total = 0;
          for (const auto& [name, ms] : solver->lastPassTimes()) {
            total += ms;
            auto it = std::find_if(passTotals.begin(), passTotals.end(), [&](auto& t) { return t.first == name; });
            if (it == passTotals.end()) passTotals.emplace_back(name, ms);
            else it->second += ms;
          }
          gpu.push_back(total / options.substeps);
        }
        for (const SolveStats& s : solver->lastSolveStats()) {
          iterations.push_back(s.iterations);
          worstResidual = std::max(worstResidual, double(s.residual));
        }
      }
      double wallMs = median(wall), gpuMs = median(gpu);
      double rate = particles / ((backend == Backend::Gpu ? gpuMs : wallMs) * 1e-3) * 1e-6;
      double copy = backend == Backend::Gpu ? gpuCopyBandwidth(*context, *shaders, particles) : cpuCopyBandwidth(particles);
      std::vector<glm::vec4> positions, velocities;
      solver->readState(positions, velocities);
      const StretchStats stretch = structuralStretch(model, positions);
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
        fillPasses(row, recorded, passTotals, double(options.frames) * options.substeps);
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
