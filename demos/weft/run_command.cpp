#include "demos/weft/run_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "demos/common/demo_scene.h"
#include "demos/render/cloth_renderer.h"
#include "demos/weft/interrupt.h"
#include "demos/weft/obj_writer.h"
#include "demos/weft/output_paths.h"
#include "demos/weft/run_report.h"
#include "demos/common/step_limit_text.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/gpu/gpu_solver.h"
#include "solver/model/grid_resize.h"
#include "solver/io/recording.h"
#include "solver/model/shown_text.h"
#include "solver/model/scene.h"
#include "solver/model/energy_bound.h"
#include "solver/backend/solver.h"

namespace weft {
namespace {


// A loop count from the command line, within the bounds the scene readers hold it to (solver/model/scene.h,
// demos/common/demo_scene.h).
int bounded(const char* flag, int value, int minimum, int maximum) {
  if (value < minimum || value > maximum)
    throw InputError(std::string(flag) + " must be from " + std::to_string(minimum) + " to " + std::to_string(maximum) +
                     " (got " + std::to_string(value) + ")");
  return value;
}

void applyOverrides(DemoScene& demo, const RunOptions& o) {
  Scene& scene = demo.scene;
  if (o.grid) {
    if (*o.grid < 0) {  // withGridSize takes an unsigned size and says the same for the others
      throw InputError("--grid: a grid size must be from 2 to " + std::to_string(kMaxGridSide) +
                       " particles per side (got " + std::to_string(*o.grid) + ")");
    }
    try {
      scene = withGridSize(scene, static_cast<uint32_t>(*o.grid));
    } catch (const InputError& e) {
      throw InputError(std::string("--grid: ") + e.what());
    }
  }
  if (o.integrator) scene.solver.integrator = parseIntegrator(*o.integrator);
  if (o.frames) demo.frames = bounded("--frames", *o.frames, 1, kMaxFrames);
  if (o.dt) {
    if (!(*o.dt > 0.f) || !std::isfinite(*o.dt)) throw InputError("--dt must be a positive number of seconds");
    scene.solver.dt = *o.dt;
  }
  if (o.substeps) scene.solver.substeps = bounded("--substeps", *o.substeps, 1, kMaxSubsteps);
  if (o.tolerance) {
    if (!(*o.tolerance > 0.f) || !std::isfinite(*o.tolerance)) throw InputError("--tolerance must be a positive number");
    scene.solver.tolerance = *o.tolerance;
  }
  if (o.maxIterations) scene.solver.maxIterations = bounded("--max-iterations", *o.maxIterations, 1, kMaxIterations);
  if (o.preconditioner) {
    try {
      scene.solver.preconditioner = parsePreconditionerName(*o.preconditioner);
    } catch (const InputError& e) {
      throw InputError(std::string("--preconditioner: ") + e.what());
    }
  }
  if (o.iterations) scene.solver.iterations = bounded("--iterations", *o.iterations, 0, kMaxIterations);
}

// Every output is tried before the run so that a typo or a read-only place costs nothing.
void checkOutputs(const RunOptions& o) {
  if (o.statsSteps != "ends" && o.statsSteps != "all")
    throw InputError("--stats-steps must be 'ends' or 'all' (got '" + o.statsSteps + "')");
  if (o.onExplosion != "stop" && o.onExplosion != "halve-dt")
    throw InputError("--on-explosion must be 'stop' or 'halve-dt' (got '" + excerpt(o.onExplosion) + "')");
  if (!o.pngPath.empty()) checkOutputFile(o.pngPath, "PNG");
  if (!o.draw.empty() && !drawModeNamed(o.draw))
    throw InputError("unknown --draw mode '" + excerpt(o.draw) + "' (known: " + kDrawModeNames + ")");
  if (!o.draw.empty() && o.pngPath.empty()) throw InputError("--draw says how the PNG is drawn: give --png too");
  if (!o.recordPath.empty()) checkOutputFile(o.recordPath, "recording");
  if (!o.statsPath.empty()) checkOutputFile(o.statsPath, "stats");
  if (!o.objDir.empty()) checkOutputFolder(o.objDir, frameObjName(1));
}

bool isFinite(const std::vector<glm::vec4>& values) {
  for (const glm::vec4& v : values)
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) return false;
  return true;
}

// Progress for long runs: a self-overwriting line on a terminal, nothing when piped.
class Progress {
 public:
  Progress(int total, bool quiet) : total_(total), enabled_(!quiet && isatty(STDERR_FILENO)) {}
  void update(int frame) {
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(200) && frame != total_) return;
    last_ = now;
    std::fprintf(stderr, "\rframe %d/%d", frame, total_);
    if (frame == total_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  int total_;
  bool enabled_;
  std::chrono::steady_clock::time_point last_{};
};

// The run's end after SIGINT or SIGTERM. An output not yet complete (the recording, the PNG, the
// stats) describes a run that did not finish: it is not written, and its writer's destructor removes
// its temporary file. Outputs already renamed into place (OBJ frames) are whole and stay.
int interrupted(int signal, int frame, int frames) {
  std::fprintf(stderr, "\nweft: interrupted by %s after frame %d of %d; outputs not yet complete were discarded\n",
               signalName(signal), frame, frames);
  return interruptedExitStatus(signal);
}

}  // namespace

int runCommand(const RunOptions& options) {
  InterruptGuard interrupts;
  DemoScene demo = loadDemoScene(options.scenePath);
  applyOverrides(demo, options);
  const Scene& scene = demo.scene;
  const int frames = demo.frames;
  Backend backend = options.backend ? parseBackend(*options.backend) : Backend::Gpu;
  checkOutputs(options);
  const DrawMode drawMode = options.draw.empty() ? DrawMode::Shaded : *drawModeNamed(options.draw);
  if (drawMode == DrawMode::Contacts && !scene.contact.enabled)
    throw InputError("--draw contacts marks what contact did, and this scene has no contact section");

  // A Vulkan device is needed for the GPU backend and for rendering the PNG on either backend.
  std::unique_ptr<engine::Context> context;
  std::unique_ptr<engine::ShaderLibrary> shaders;
  if (backend == Backend::Gpu || !options.pngPath.empty()) {
    context = std::make_unique<engine::Context>(
        engine::ContextOptions{.deviceName = options.device, .validation = options.validate});
    std::printf("weft: Vulkan device %s (%s)\n", context->deviceName().c_str(), context->deviceType().c_str());
    shaders = options.shaderDir.empty() ? std::make_unique<engine::ShaderLibrary>()
                                        : std::make_unique<engine::ShaderLibrary>(options.shaderDir);
  } else if (!options.device.empty()) {
    throw InputError("--device selects a Vulkan device, which the CPU backend without --png does not use");
  }

  const SolverSettings& settings = scene.solver;
  const SolverParams params = solverParams(scene);
  std::unique_ptr<Solver> solver = makeSolver(scene.cloth, params, backend, context.get(), shaders.get());
  // A tearing cloth adds particles as it tears: the retry from the last good state assumes a fixed
  // particle count (the recording carries each change, solver/io/recording.h).
  if (solver->tears() && options.onExplosion == "halve-dt")
    throw InputError("--on-explosion halve-dt cannot retry a tearing cloth (a tear cannot be undone)");
  if (backend == Backend::Cpu) std::printf("weft: CPU backend on %s\n", solver->deviceName().c_str());

  RunReport report;
  report.solves = SolveLog(options.statsSteps == "all");
  report.scene = std::filesystem::path(options.scenePath).filename().string();
  report.device = solver->deviceName();
  report.backend = backendName(backend);
  report.integrator = integratorName(settings.integrator);
  if (solvesWithCg(settings.integrator))
    report.preconditioner = preconditionerName(settings.preconditioner);
  report.contact.on = scene.contact.enabled;
  report.particles = scene.cloth.particleCount();
  report.gridWidth = scene.cloth.gridWidth;
  report.gridHeight = scene.cloth.gridHeight;
  report.springs = scene.cloth.springs.size();
  report.triangles = scene.cloth.triangles.size();
  report.substeps = settings.substeps;
  report.iterations = settings.iterations;
  report.frameDt = settings.dt;
  report.stepDt = settings.dt / settings.substeps;
  report.rest.window = std::max<size_t>(1, static_cast<size_t>(std::lround(1.0 / double(settings.dt))));
  // An explicit integrator's stable step on this cloth's springs, said before a run that exceeds it
  // (the bounds take 120 passes over the springs: only where a step limit can follow from them).
  StepLimit stepLimit = stepLimitFor(scene.cloth, settings.integrator, params.environment.airDrag, double(settings.dt),
                                     settings.substeps);
  report.stableStep = stepLimit.stableStep;
  if (const std::string warning = stepLimitWarning(stepLimit); !warning.empty())
    std::fprintf(stderr, "%s\n", warning.c_str());

  std::vector<glm::vec4> positions, velocities, lastGood, lastGoodVelocities;
  // Each particle's mass as the cloth is now: a tearing cloth's splits add particles and share masses.
  auto masses = [&]() -> const std::vector<float>& {
    return solver->tears() ? solver->tornModel()->masses : scene.cloth.masses;
  };
  solver->readState(lastGood, lastGoodVelocities);
  const EnergyBound energy(scene, lastGood, lastGoodVelocities);  // tells an explosion that stays finite
  std::unique_ptr<RecordingWriter> recording;
  if (!options.recordPath.empty()) {
    recording = std::make_unique<RecordingWriter>(options.recordPath, static_cast<uint32_t>(report.particles),
                                                  scene.cloth.triangles, settings.dt,
                                                  static_cast<uint32_t>(settings.substeps));
    recording->addFrame(lastGood);  // frame 0: the initial state
  }
  // A tearing cloth's frame carries its new particle count and triangles when a tear changed them.
  uint64_t recordedTopology = solver->topologyVersion();
  auto record = [&](const std::vector<glm::vec4>& frame) {
    const bool changed = solver->topologyVersion() != recordedTopology;
    recordedTopology = solver->topologyVersion();
    recording->addFrame(frame, changed ? &solver->tornModel()->triangles : nullptr);
  };
  Progress progress(frames, options.quiet);
  // The steps a frame takes: --on-explosion halve-dt doubles them for the frame that exploded and
  // keeps them for the rest of the run (a step past a stability limit stays past it).
  int substeps = settings.substeps;
  auto frameIsBad = [&](double time) {
    return !isFinite(positions) || !isFinite(velocities) || energy.exceeded(positions, velocities, time);
  };
  for (int frame = 1; frame <= frames; ++frame) {
    if (int signal = interrupts.signal()) return interrupted(signal, frame - 1, frames);
    auto start = std::chrono::steady_clock::now();
    try {
      solver->advance(settings.dt, substeps);
    } catch (const SolveError& error) {
      // The method cannot go on from here (the state is kept as the last frame left it): what ran
      // until now is written, as for a state turned non-finite.
      report.failure = error.what();
      report.frames = frame - 1;
      solver->readState(positions, velocities);
      report.final = summarizeState(positions, velocities, masses());
      std::fprintf(stderr, "\nweft: frame %d: %s\n", frame, error.what());
      if (recording) recording->finish();
      if (!options.statsPath.empty()) writeStatsJson(report, options.statsPath);
      std::printf("%s\n", summaryLine(report).c_str());
      return kExitNonFinite;
    }
    double wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    report.wallMsPerStep.push_back(wallMs / substeps);
    if (backend == Backend::Gpu) {
      double total = 0;
      for (const auto& [name, ms] : solver->lastPassTimes()) {
        total += ms;
        auto it = std::find_if(report.passMsPerStep.begin(), report.passMsPerStep.end(),
                               [&](auto& p) { return p.first == name; });
        if (it == report.passMsPerStep.end()) it = report.passMsPerStep.insert(report.passMsPerStep.end(), {name, {}});
        it->second.push_back(ms / substeps);
      }
      report.gpuMsPerStep.push_back(total / substeps);
    }
    solver->readState(positions, velocities);
    const double time = double(frame) * settings.dt;
    while (options.onExplosion == "halve-dt" && frameIsBad(time) && 2 * substeps <= kMaxSubsteps) {
      // Roll the frame back and take it again at half the step, as nonlinear-cg does its steps.
      substeps *= 2;
      ++report.halvings;
      if (!options.quiet)
        std::fprintf(stderr, "\nweft: frame %d exploded with integrator %s; retrying it at %d steps of %.3g s\n", frame,
                     report.integrator.c_str(), substeps, double(settings.dt) / substeps);
      solver->writeState(lastGood, lastGoodVelocities);
      try {
        solver->advance(settings.dt, substeps);
      } catch (const SolveError&) {
        continue;  // a smaller step is what a failing solve asks for too
      }
      solver->readState(positions, velocities);
    }
    report.substeps = substeps;
    report.stepDt = settings.dt / substeps;
    for (const SolveStats& s : solver->lastSolveStats()) report.solves.add(s);
    if (report.contact.on) {
      const ContactPassTimes t = contactPassTimes(solver->lastPassTimes());
      report.contact.add(solver->lastContactStats(), t.findMs, t.resolveMs, substeps);
    }
    report.frames = frame;
    const int64_t stepsBefore = report.steps;
    report.steps += substeps;  // up to 10^10: past int

    const bool nonFinite = !isFinite(positions) || !isFinite(velocities);
    if (nonFinite || energy.exceeded(positions, velocities, time)) {
      // Replay the frame one step at a time from the last good state to name the exact step.
      auto bad = [&](int step) {
        if (!isFinite(positions) || !isFinite(velocities)) return true;
        return !nonFinite && energy.exceeded(positions, velocities, (frame - 1) * double(settings.dt) +
                                                                        step * double(report.stepDt));
      };
      int64_t badStep = stepsBefore + substeps;
      // A frame that tore cannot be taken again from before its tear (the last good state has fewer
      // particles): the frame's last step is named instead.
      const bool replayable = lastGood.size() == positions.size();
      if (replayable) solver->writeState(lastGood, lastGoodVelocities);
      for (int s = 1; replayable && s <= substeps; ++s) {
        solver->advance(settings.dt / substeps, 1);
        solver->readState(positions, velocities);
        if (bad(s)) {
          badStep = stepsBefore + s;
          break;
        }
      }
      report.nonFinite = nonFinite;
      report.nonFiniteStep = nonFinite ? badStep : -1;
      report.steps = badStep;
      report.final = summarizeState(positions, velocities, masses());
      stepLimit.substeps = substeps;  // halve-dt may have taken more
      const std::string hint = stepLimitHint(stepLimit);
      if (nonFinite) {
        std::fprintf(stderr, "\nweft: the state became non-finite at step %lld (frame %d) with integrator %s; "
                     "try a smaller --dt, more --substeps or an implicit integrator%s\n",
                     static_cast<long long>(badStep), frame, report.integrator.c_str(), hint.c_str());
      } else {
        const double excess = energy.excess(positions, velocities);
        report.explosionStep = badStep;
        std::fprintf(stderr, "\nweft: the cloth exploded at step %lld (frame %d) with integrator %s: %.3g J of "
                     "kinetic energy beyond what gravity released, more than the %.3g J the scene can supply; "
                     "try a smaller --dt, more --substeps or an implicit integrator%s\n",
                     static_cast<long long>(badStep), frame, report.integrator.c_str(), excess,
                     energy.limit(badStep * double(report.stepDt)), hint.c_str());
      }
      if (recording) recording->finish();  // the frames up to the last good one: what led there
      if (!options.statsPath.empty()) writeStatsJson(report, options.statsPath);
      std::printf("%s\n", summaryLine(report).c_str());
      return kExitNonFinite;
    }
    report.rest.add(lastGood, positions);
    report.worstStretch.add(frame, structuralStretch(solver->tears() ? *solver->tornModel() : scene.cloth, positions));
    lastGood = positions;
    lastGoodVelocities = velocities;
    if (!options.objDir.empty()) writeClothObjs(options.objDir, frame, positions, scene);
    if (recording) record(positions);
    progress.update(frame);
  }
  report.final = summarizeState(positions, velocities, masses());
  report.stretch = structuralStretch(solver->tears() ? *solver->tornModel() : scene.cloth, positions);
  if (const ClothModel* torn = solver->tornModel()) {
    report.tears = static_cast<int64_t>(solver->tornCount());
    report.finalParticles = torn->particleCount();
    report.finalSprings = torn->springs.size();
    report.finalTriangles = torn->triangles.size();
  }
  if (int signal = interrupts.signal()) return interrupted(signal, frames, frames);
  if (scene.parts.size() > 1)
    for (const ClothPart& part : scene.parts)
      report.cloths.push_back({part.name, summarizeState(positions, velocities, masses(),
                                                         part.firstParticle, part.particleCount)});
  if (recording) recording->finish();

  if (!options.pngPath.empty()) {
    // A torn cloth is drawn with its triangles as they are now.
    ClothRenderer renderer(*context, *shaders, solver->tears() ? *solver->tornModel() : scene.cloth, kPngWidth,
                           kPngHeight);
    // The last frame's contact marks, when they are drawn.
    if (auto* gpu = dynamic_cast<GpuSolver*>(solver.get()))
      renderer.render(gpu->positionBuffer(), solver->kinematics().collidersNow(), demo.camera, drawMode,
                      gpu->contactMarkBuffer());  // the solver's own buffers
    else
      renderer.render(positions, solver->kinematics().collidersNow(), demo.camera, drawMode,
                      drawMode == DrawMode::Contacts ? solver->lastContactMarks() : std::vector<uint32_t>{});
    renderer.savePng(options.pngPath);
  }
  if (int signal = interrupts.signal()) return interrupted(signal, frames, frames);
  if (!options.statsPath.empty()) writeStatsJson(report, options.statsPath);
  std::printf("%s\n", summaryLine(report).c_str());
  if (context && context->validationMessageCount() > 0) {
    std::fprintf(stderr, "weft: the validation layer reported %zu message(s)\n", context->validationMessageCount());
    return 4;
  }
  return 0;
}

}  // namespace weft
