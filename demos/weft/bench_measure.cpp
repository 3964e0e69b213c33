#include "demos/weft/bench_measure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "demos/weft/run_report.h"
#include "engine/buffer.h"
#include "engine/commands.h"
#include "engine/error.h"
#include "engine/gpu_timer.h"
#include "engine/program.h"
#include "shaders/shared.h"
#include "solver/integrators/integrator_unit.h"
#include "solver/cpu/thread_pool.h"

namespace weft {

using Clock = std::chrono::steady_clock;

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

FrameTimes timeFrames(Solver& solver, float frameDt, int substeps, int frames, int warmFrames,
                      const std::function<void(Solver&)>& afterFrame, double boundSeconds) {
  FrameTimes result;
  const auto begin = Clock::now();
  // After `done` of the warm and timed frames: stop when all of them would take past the bound.
  auto pastBound = [&](int done) {
    if (!(boundSeconds > 0)) return false;
    const double projected = std::chrono::duration<double>(Clock::now() - begin).count() * (warmFrames + frames) / done;
    if (projected <= boundSeconds) return false;
    result.stopped = true;
    result.projectedSeconds = projected;
    return true;
  };
  for (int warm = 0; warm < warmFrames; ++warm) {
    solver.advance(frameDt, substeps);
    if (pastBound(warm + 1)) return result;
  }
  std::vector<double> wall, gpu;
  for (int f = 0; f < frames; ++f) {
    const auto start = Clock::now();
    {
      engine::ScopedRecordStats counting(result.recorded);
      solver.advance(frameDt, substeps);
    }
    wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    double total = 0;
    for (const auto& [name, ms] : solver.lastPassTimes()) {
      total += ms;
      auto it = std::find_if(result.passTotals.begin(), result.passTotals.end(), [&](auto& t) { return t.first == name; });
      if (it == result.passTotals.end()) result.passTotals.emplace_back(name, ms);
      else it->second += ms;
    }
    gpu.push_back(total);
    for (const SolveStats& stats : solver.lastSolveStats()) {
      result.solveIterations.push_back(stats.iterations);
      result.worstResidual = std::max(result.worstResidual, double(stats.residual));
    }
    if (afterFrame) afterFrame(solver);
    if (f + 1 < frames && pastBound(warmFrames + f + 1)) break;
  }
  result.wallMsPerFrame = median(wall);
  for (double ms : wall) result.wallMsMean += ms / static_cast<double>(wall.size());
  result.gpuMsPerFrame = median(gpu);
  solver.readState(result.positions, result.velocities);
  return result;
}

double suiteRowSeconds(const BenchOptions& options) {
  const double bound = options.rowSeconds.value_or(kDefaultRowSeconds);
  if (!(bound >= 0) || !std::isfinite(bound)) {
    char text[96];
    std::snprintf(text, sizeof text, "--row-seconds must be 0 (no bound) or a number of seconds, not %g", bound);
    throw InputError(text);
  }
  return bound;
}

std::string notMeasuredPastBound(const FrameTimes& times, double boundSeconds) {
  char text[160];
  std::snprintf(text, sizeof text, "not measured: its first frames project %.3g s, past --row-seconds %g",
                times.projectedSeconds, boundSeconds);
  return text;
}

}  // namespace weft
