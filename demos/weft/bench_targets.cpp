#include "demos/weft/bench_targets.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>

#include <nlohmann/json.hpp>

#include "demos/weft/bench_colliders.h"
#include "demos/weft/bench_contact.h"
#include "demos/weft/bench_measure.h"
#include "demos/weft/bench_record.h"
#include "demos/weft/output_paths.h"
#include "demos/weft/run_report.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/model/elements.h"
#include "solver/backend/solver.h"
#include "solver/model/stretch.h"

namespace weft {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

// One printed line of the suite.
struct TargetRow {
  std::string work;     // what was measured, with its size
  std::string backend;  // "gpu", "cpu", or "gpu / cpu" for a ratio
  std::string measured;
  std::string target;
  std::optional<bool> met;  // none: reported, or not run
  Json values = Json::object();
};

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char text[128];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

// The cloth of the holding rows: demos/scenes/hanging_xpbd.json at n^2 (1 m, 0.3 kg, two corners,
// 2000 / 500 / 50 N/m springs without spring damping, tethers to both corners at their rest length
// (long-range attachments, no slack), a ground plane), in xpbd's small steps of one iteration: 28
// substeps a frame, or 5 n / 32 past 179^2 (a sweep carries a correction a few springs, so a finer
// cloth needs more). Measured on the CPU backend, the second's worst frame (mean / largest spring):
// at 128^2, 28 substeps 0.62 % / 7.6 %, 26 0.69 % / 8.6 %, 24 0.79 % / 9.7 %, 20 1.01 % / 11.7 %; at
// 256^2, 40 substeps 0.61 % / 6.3 %, 32 0.88 % / 9.1 %. With the tethers' slack at 1 % instead, 128^2
// needed 32 substeps (0.72 % / 7.6 %; 24: 1.04 %) and 256^2 64 (0.55 % / 5.3 %). With tethers to the
// nearest corner only, 16 substeps left a 26 % edge.
struct HoldingCloth {
  ClothModel model;
  SolverParams params;
  int substeps = 28;
};
HoldingCloth holdingCloth(int n) {
  GridSpec grid;
  grid.width = grid.height = static_cast<uint32_t>(n);
  grid.origin = glm::vec3(-0.5f, 1.5f, 0.f);
  grid.totalMass = 0.3f;
  HoldingCloth cloth;
  cloth.model = buildGrid(grid, Material{2000.f, 500.f, 50.f, 0.f});
  pinParticles(cloth.model, gridCorners(cloth.model, CornerPreset::Two));
  addTethers(cloth.model, TetherSpec{1e5f, 0.f, 2});
  cloth.params.integrator = Integrator::Xpbd;
  cloth.params.iterations = 1;
  cloth.substeps = std::max(28, 5 * n / 32);
  cloth.params.environment.airDrag = 2e-5f;
  ColliderDesc ground;
  ground.friction = 0.5f;
  cloth.params.colliders = {ground};
  return cloth;
}

// hanging.json's cloth at n^2 without its tethers (0.5 N s/m spring damping, 2e-4 kg/s
// air drag): the implicit-cg row's.
ClothModel hangingCloth(int n, SolverParams& params) {
  GridSpec grid;
  grid.width = grid.height = static_cast<uint32_t>(n);
  grid.origin = glm::vec3(-0.5f, 1.5f, 0.f);
  grid.totalMass = 0.3f;
  ClothModel model = buildGrid(grid, Material{2000.f, 500.f, 50.f, 0.5f});
  pinParticles(model, gridCorners(model, CornerPreset::Two));
  params.environment.airDrag = 2e-4f;
  ColliderDesc ground;
  ground.friction = 0.5f;
  params.colliders = {ground};
  return model;
}

class Suite {
 public:
  explicit Suite(const BenchOptions& options) : options_(options), bound_(suiteRowSeconds(options)) {
    scale_ = options.quick ? 4 : 1;
    speedFrames_ = options.quick ? 3 : std::max(options.frames, 1);
    holdFrames_ = options.quick ? 6 : 60;
    context_ = std::make_unique<engine::Context>(engine::ContextOptions{.deviceName = options.device});
    shaders_ = options.shaderDir.empty() ? std::make_unique<engine::ShaderLibrary>()
                                         : std::make_unique<engine::ShaderLibrary>(options.shaderDir);
  }

  int run() {
    const BenchEnvironment environment = benchEnvironment(context_.get());
    // The xpbd lanes: the holding rows' CPU figures depend on the processor's width.
    std::printf("weft bench --suite targets%s: Vulkan device %s (%s), CPU backend %u threads, xpbd %d lanes wide\n\n",
                options_.quick ? " --quick (quarter-size grids, a few frames: not the targets' figures)" : "",
                context_->deviceName().c_str(), context_->deviceType().c_str(), environment.cpuThreads,
                environment.cpuXpbdLanes);
    explicitRows();
    holdingRows(128);
    holdingRows(256);
    implicitRow();
    bandwidthRow();
    ratioRow();
    realGpuRow();
    print();
    if (!options_.jsonPath.empty()) {
      Json j = environmentJson(environment);
      j["suite"] = "targets";
      j["quick"] = options_.quick;
      j["rowSeconds"] = bound_;
      Json list = Json::array();
      for (const TargetRow& r : rows_)
        list.push_back({{"work", r.work},
                        {"backend", r.backend},
                        {"measured", r.measured},
                        {"target", r.target},
                        {"met", r.met ? Json(*r.met) : Json(nullptr)},
                        {"values", r.values}});
      j["rows"] = list;
      writeWholeFile(options_.jsonPath, j.dump(2) + "\n", "JSON");
    }
    return 0;
  }

 private:
  int grid(int n) const { return std::max(16, n / scale_); }

  std::unique_ptr<Solver> solver(const ClothModel& model, const SolverParams& params, Backend backend) {
    return makeSolver(model, params, backend, context_.get(), shaders_.get());
  }

  // Whether timeFrames stopped `t` at the bound: the row, its work and target set, then reads why,
  // with no verdict, and is added.
  bool stoppedAtBound(const FrameTimes& t, TargetRow& row) {
    if (!t.stopped) return false;
    row.measured = notMeasuredPastBound(t, bound_);
    row.values["notMeasured"] = row.measured;
    rows_.push_back(row);
    return true;
  }

  void step(const std::string& what) {
    ++done_;
    if (options_.quiet) return;
    std::fprintf(stderr, "weft bench: [%d/%d] %s ... (%.1f s elapsed)\n", done_, kSteps, what.c_str(),
                 std::chrono::duration<double>(Clock::now() - start_).count());
    std::fflush(stderr);
  }

  // Explicit mass-spring (symplectic Euler on the benchmark cloth, 4 substeps a frame): throughput
  // at 250^2, and ms per substep at 60^2.
  void explicitRows() {
    const int big = grid(250), small = grid(60);
    for (int n : {big, small}) {
      for (Backend backend : {Backend::Gpu, Backend::Cpu}) {
        step(format("explicit mass-spring %.0f² ", n) + (backend == Backend::Gpu ? "gpu" : "cpu"));
        const ClothModel model = benchGrid(n, Integrator::SymplecticEuler);
        SolverParams params;
        params.integrator = Integrator::SymplecticEuler;
        auto s = solver(model, params, backend);
        const FrameTimes t = timeFrames(*s, 1.f / 60.f, 4, speedFrames_, 2, {}, bound_);
        const bool gpu = backend == Backend::Gpu;
        TargetRow row;
        row.backend = backendName(backend);
        row.work = n == big ? format("explicit mass-spring, %.0f², M particle-substeps/s", n)
                            : format("explicit mass-spring, %.0f², ms/substep", n);
        row.target = !gpu ? "(reported)" : n == big ? "≥ 75" : "≤ 0.07";
        row.values = {{"grid", n}};
        if (n == big) bigExplicit_ = n;
        if (stoppedAtBound(t, row)) continue;
        const double msPerSubstep = (gpu ? t.gpuMsPerFrame : t.wallMsPerFrame) / 4.0;
        if (n == big) (gpu ? gpuExplicitBig_ : cpuExplicitBig_) = msPerSubstep;
        row.values["msPerSubstep"] = msPerSubstep;
        if (n == big) {
          const double rate = double(model.particleCount()) / (msPerSubstep * 1e-3) * 1e-6;
          row.measured = format("%.1f", rate);
          row.values["mParticleSubstepsPerSecond"] = rate;
          if (gpu) row.met = rate >= 75.0;
        } else {
          row.measured = format("%.3f", msPerSubstep);
          if (gpu) row.met = msPerSubstep <= 0.07;
        }
        rows_.push_back(row);
      }
    }
  }

  // The cloth that holds: one second at 60 fps from the horizontal, ms per frame (wall clock, what
  // a frame's budget sees) and the structural stretch of the second's worst frame (the largest
  // mean and the largest spring, each over every frame: the cloth stretches most as it swings
  // taut, about frame 8), which the target judges; the stretch after the last frame beside it.
  void holdingRows(int full) {
    const int n = grid(full);
    for (Backend backend : {Backend::Cpu, Backend::Gpu}) {
      step(format("%.0f² cloth from two corners, 1 s ", n) + backendName(backend));
      const HoldingCloth cloth = holdingCloth(n);
      auto s = solver(cloth.model, cloth.params, backend);
      WorstStretch worst;
      int frame = 0;
      std::vector<glm::vec4> x, v;
      const FrameTimes t = timeFrames(*s, 1.f / 60.f, cloth.substeps, holdFrames_, 0, [&](Solver& solver) {
        solver.readState(x, v);
        worst.add(++frame, structuralStretch(cloth.model, x));
      }, bound_);
      TargetRow row;
      row.work = format("%.0f², two corners, 1 s at 60 fps (xpbd %.0f × 1): ms/frame, worst frame's stretch mean / max",
                        n, cloth.substeps);
      row.backend = backendName(backend);
      const double budget = backend == Backend::Cpu ? 5.0 : 15.0;
      row.target = full == 128 ? format("≤ %.0f ms, ≤ 1 %% / ≤ 10 %%", budget) : "holds (≤ 1 % / ≤ 10 %); ms reported";
      row.values = {{"grid", n}, {"substeps", cloth.substeps}, {"iterations", cloth.params.iterations}};
      if (full != 128) bigXpbd_ = n;
      if (stoppedAtBound(t, row)) continue;
      const StretchStats stretch = structuralStretch(cloth.model, t.positions);
      const bool holds = worst.mean <= 0.01 && worst.max <= 0.10;
      row.measured = format("%.1f ms, %.2f %% / %.1f %%", t.wallMsPerFrame, 100 * worst.mean, 100 * worst.max) +
                     format(" (last frame %.2f %% / %.1f %%)", 100 * stretch.mean, 100 * stretch.max);
      row.values.update(Json{{"msPerFrame", t.wallMsPerFrame},
                             {"worstStretchMean", worst.mean},
                             {"worstStretchMax", worst.max},
                             {"stretchMean", stretch.mean},
                             {"stretchMax", stretch.max}});
      if (full == 128) {
        row.met = holds && t.wallMsPerFrame <= budget;
      } else {
        row.met = holds;
        // The ratio row's xpbd figure: ms per step at the largest holding size.
        (backend == Backend::Gpu ? gpuXpbdMs_ : cpuXpbdMs_) = t.wallMsPerFrame / cloth.substeps;
      }
      rows_.push_back(row);
    }
  }

  // implicit-cg on hanging.json's cloth at 128^2, 5 substeps, tolerance 1e-3, CPU backend: with
  // each preconditioner (the two-level one is the CPU backend's alone, cg_coarse.h).
  void implicitRow() {
    const int n = grid(128);
    for (Preconditioner preconditioner : {Preconditioner::BlockJacobi, Preconditioner::TwoLevel}) {
      step(format("implicit-cg %.0f² cpu ", n) + preconditionerName(preconditioner));
      SolverParams params;
      params.integrator = Integrator::ImplicitCg;
      params.tolerance = 1e-3f;
      params.preconditioner = preconditioner;
      const ClothModel model = hangingCloth(n, params);
      auto s = solver(model, params, Backend::Cpu);
      const FrameTimes t = timeFrames(*s, 1.f / 60.f, 5, speedFrames_, 2, {}, bound_);
      TargetRow row;
      row.work = format("implicit-cg, %.0f², 5 substeps, tolerance 1e-3, ", n) + preconditionerName(preconditioner) +
                 ": ms/frame";
      row.backend = "cpu";
      row.target = "≤ 14";
      row.values = {{"grid", n}, {"preconditioner", preconditionerName(preconditioner)}};
      if (stoppedAtBound(t, row)) continue;
      row.measured = format("%.1f", t.wallMsPerFrame);
      row.met = t.wallMsPerFrame <= 14.0;
      row.values["msPerFrame"] = t.wallMsPerFrame;
      if (!t.solveIterations.empty()) row.values["medianIterations"] = median(t.solveIterations);
      rows_.push_back(row);
    }
  }

  // The slowest pass of each per-particle gather method at 256^2 on the device (Verlet's relaxation,
  // the explicit step), against the device's copy rate at that size. Bound bytes are an upper bound
  // of what such a pass moves (it reads each bound buffer about once). Not xpbd's: each colour's
  // dispatch binds whole buffers and touches a colour's share of them, so its bound bytes overstate
  // what it moves by about the colour count (docs/integrators.md).
  void bandwidthRow() {
    const int n = grid(256);
    for (Integrator integrator : {Integrator::Verlet, Integrator::SymplecticEuler}) {
      step(format("passes against copy %.0f² ", n) + integratorName(integrator));
      const ClothModel model = benchGrid(n, integrator);
      SolverParams params;
      params.integrator = integrator;
      params.iterations = integrator == Integrator::Verlet ? 10 : 1;
      auto s = solver(model, params, Backend::Gpu);
      const FrameTimes t = timeFrames(*s, 1.f / 60.f, 4, speedFrames_, 2, {}, bound_);
      TargetRow row;
      row.work = format("%.0f², slowest pass's rate against the copy's", n) + " (" + integratorName(integrator) + ")";
      row.backend = "gpu";
      row.target = "≥ 50 %";
      row.values = {{"grid", n}};
      if (stoppedAtBound(t, row)) continue;
      BenchRow bench;
      bench.copyGBps = gpuCopyBandwidth(*context_, *shaders_, static_cast<uint32_t>(model.particleCount()));
      fillPasses(bench, t.recorded, t.passTotals, double(speedFrames_) * 4);
      // The pass that takes the most time is the one that decides whether the method is at the roofline.
      auto slowest = std::max_element(bench.passes.begin(), bench.passes.end(),
                                      [](const BenchPass& a, const BenchPass& b) { return a.msPerStep < b.msPerStep; });
      if (slowest == bench.passes.end()) {
        row.measured = "not run: no timed pass";
      } else {
        row.measured = slowest->name + format(": %.2f of %.2f GB/s, %.0f %%", slowest->gbps, bench.copyGBps,
                                              100 * slowest->ofCopy);
        row.met = slowest->ofCopy >= 0.5;
        row.values.update(Json{{"pass", slowest->name}, {"GBps", slowest->gbps}, {"copyGBps", bench.copyGBps},
                               {"ofCopy", slowest->ofCopy}});
      }
      rows_.push_back(row);
    }
  }

  // The device against the CPU backend at the largest sizes measured above.
  void ratioRow() {
    step("device against CPU");
    for (const auto& [what, gpu, cpu, n] :
         {std::tuple{"explicit mass-spring", gpuExplicitBig_, cpuExplicitBig_, bigExplicit_},
          std::tuple{"xpbd small steps", gpuXpbdMs_, cpuXpbdMs_, bigXpbd_}}) {
      TargetRow row;
      row.work = format("device ms / CPU ms at %.0f², ", n) + what;
      row.backend = "gpu / cpu";
      row.target = "≤ 1";
      row.values = {{"grid", n}};
      if (!(gpu > 0 && cpu > 0)) {  // a side was stopped at the bound
        row.measured = "not measured: the rows it divides were not both measured";
        row.values["notMeasured"] = row.measured;
        rows_.push_back(row);
        continue;
      }
      const double ratio = gpu / cpu;
      row.measured = format("%.2f (%.3f / %.3f ms per step)", ratio, gpu, cpu);
      row.met = ratio <= 1.0;
      row.values.update(Json{{"ratio", ratio}, {"gpuMsPerStep", gpu}, {"cpuMsPerStep", cpu}});
      rows_.push_back(row);
    }
  }

  // A real GPU: 1024^2 xpbd at 40 iterations a step. Not run on a CPU device (lavapipe).
  void realGpuRow() {
    step("real GPU row");
    TargetRow row;
    row.work = "1024² × 40 iterations (xpbd): ms/step, particle-iterations/s";
    row.backend = "gpu";
    row.target = "≤ 16.7 ms; ≥ 1e10";
    if (context_->deviceType() == "CPU") {
      row.measured = "not run: the device is not a GPU";
    } else {
      const int n = grid(1024);
      const ClothModel model = benchGrid(n, Integrator::Xpbd);
      SolverParams params;
      params.integrator = Integrator::Xpbd;
      params.iterations = 40;
      auto s = solver(model, params, Backend::Gpu);
      const FrameTimes t = timeFrames(*s, 1.f / 60.f, 1, speedFrames_, 2, {}, bound_);
      if (stoppedAtBound(t, row)) return;
      const double rate = double(model.particleCount()) * 40 / (t.gpuMsPerFrame * 1e-3);
      row.measured = format("%.2f ms, %.3g", t.gpuMsPerFrame, rate);
      row.met = t.gpuMsPerFrame <= 16.7 && rate >= 1e10;
      row.values = {{"grid", n}, {"msPerStep", t.gpuMsPerFrame}, {"particleIterationsPerSecond", rate}};
    }
    rows_.push_back(row);
  }

  void print() const {
    std::printf("| work | backend | measured | target | met |\n|---|---|---|---|---|\n");
    for (const TargetRow& r : rows_)
      std::printf("| %s | %s | %s | %s | %s |\n", r.work.c_str(), r.backend.c_str(), r.measured.c_str(), r.target.c_str(),
                  r.met ? (*r.met ? "yes" : "no") : "-");
    std::fflush(stdout);
  }

  static constexpr int kSteps = 13;  // step() calls in run()
  const BenchOptions& options_;
  double bound_;  // --row-seconds: a measurement projected past it is not measured
  int scale_ = 1, speedFrames_ = 15, holdFrames_ = 60, done_ = 0;
  Clock::time_point start_ = Clock::now();
  std::unique_ptr<engine::Context> context_;
  std::unique_ptr<engine::ShaderLibrary> shaders_;
  std::vector<TargetRow> rows_;
  double gpuExplicitBig_ = 0, cpuExplicitBig_ = 0;  // ms per substep at the throughput row's size
  double gpuXpbdMs_ = 0, cpuXpbdMs_ = 0;  // wall ms per step of the largest holding rows
  int bigExplicit_ = 0, bigXpbd_ = 0;
};

}  // namespace

int benchTargetsSuite(const BenchOptions& options) {
  if (options.suite == "contact") return benchContactSuite(options);
  if (options.suite != "targets" && options.suite != "colliders")
    throw InputError("unknown bench suite '" + options.suite + "' (known: targets, contact, colliders)");
  if (options.suite == "colliders") {
    if (options.rowSeconds)
      throw InputError("--row-seconds bounds the targets and contact suites' rows; the colliders suite times every row whole");
    return benchCollidersSuite(options);
  }
  if (!options.csvPath.empty() || !options.plotPath.empty())
    throw InputError("--csv and --plot record the sweep; the targets suite writes --json only");
  if (options.springTable) throw InputError("--spring-table sets the sweep's cloths; the suites run their own");
  if (!options.jsonPath.empty()) checkOutputFile(options.jsonPath, "JSON");
  return Suite(options).run();
}

}  // namespace weft
