#include "demos/weft/bench_command.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "demos/weft/run_report.h"
#include "engine/buffer.h"
#include "engine/commands.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/gpu_timer.h"
#include "engine/program.h"
#include "engine/shader_library.h"
#include "shaders/shared.h"
#include "solver/integrators/integrator_unit.h"
#include "solver/solver.h"
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
  std::printf("weft bench: %d constraint iterations (verlet), tolerance %g (implicit), %d substeps per frame, "
              "median of %d frames, %s acceleration\n\n",
              options.iterations, options.tolerance, options.substeps, options.frames, options.acceleration.c_str());
  std::printf("| grid | particles | integrator | backend | ms/step (wall) | ms/step (GPU) | M particle-steps/s | "
              "solve iterations | max residual | copy GB/s |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");

  nlohmann::ordered_json results = nlohmann::ordered_json::array();
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
      Backend backend = parseBackend(backendName);
      std::unique_ptr<Solver> solver;
      try {
        solver = makeSolver(model, params, backend, context.get(), shaders.get());
      } catch (const InputError& error) {
        // A state this backend cannot hold (solver/memory_budget.h) ends its row, not the bench:
        // the other backend, and smaller grids, are still measured.
        std::printf("| %d² | %u | %s | %s | not run: %s |\n", n, particles, integratorName(integrator),
                    backendName.c_str(), error.what());
        std::fflush(stdout);
        results.push_back({{"grid", n}, {"particles", particles}, {"backend", backendName},
                           {"integrator", integratorName(integrator)}, {"notRun", error.what()}});
        continue;
      }
      const float frameDt = 1.f / 60.f;
      for (int warm = 0; warm < 2; ++warm) solver->advance(frameDt, options.substeps);  // pipelines, caches
      std::vector<double> wall, gpu, iterations;
      double worstResidual = 0;
      for (int f = 0; f < options.frames; ++f) {
        auto start = Clock::now();
        solver->advance(frameDt, options.substeps);
        wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count() / options.substeps);
        if (backend == Backend::Gpu) {
          double total = 0;
          for (const auto& [name, ms] : solver->lastPassTimes()) total += ms;
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
      char gpuText[32] = "-", iterText[32] = "-", residualText[32] = "-";
      if (backend == Backend::Gpu) std::snprintf(gpuText, sizeof gpuText, "%.3f", gpuMs);
      if (!iterations.empty()) {
        std::snprintf(iterText, sizeof iterText, "%.0f", median(iterations));
        std::snprintf(residualText, sizeof residualText, "%.2g", worstResidual);
      }
      std::printf("| %d² | %u | %s | %s | %.3f | %s | %.2f | %s | %s | %.1f |\n", n, particles,
                  integratorName(integrator), backendName.c_str(), wallMs, gpuText, rate, iterText, residualText, copy);
      std::fflush(stdout);
      results.push_back({{"grid", n}, {"particles", particles}, {"backend", backendName},
                         {"device", solver->deviceName()}, {"integrator", integratorName(integrator)},
                         {"iterations", options.iterations}, {"wallMsPerStep", wallMs},
                         {"gpuMsPerStep", backend == Backend::Gpu ? nlohmann::ordered_json(gpuMs) : nullptr},
                         {"particleStepsPerSecond", rate * 1e6}, {"copyGBps", copy},
                         {"medianSolveIterations", iterations.empty() ? nlohmann::ordered_json(nullptr)
                                                                      : nlohmann::ordered_json(median(iterations))},
                         {"maxResidual", iterations.empty() ? nlohmann::ordered_json(nullptr)
                                                            : nlohmann::ordered_json(worstResidual)}});
    }
    }
  }
  if (!options.jsonPath.empty()) {
    std::ofstream out(options.jsonPath);
    if (!out) throw InputError("cannot write '" + options.jsonPath + "'");
    out << results.dump(2) << "\n";
  }
  return 0;
}

}  // namespace weft
