#pragma once
// What `weft bench` measures with, shared by its sweep (bench_command.cpp) and its target suite
// (bench_targets.cpp): the benchmark cloth, each device's copy bandwidth (the roofline), the
// per-pass table of a GPU row, and timing a solver over frames.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "demos/weft/bench_record.h"
#include "engine/context.h"
#include "engine/record_stats.h"
#include "engine/shader_library.h"
#include "solver/model/cloth_model.h"
#include "solver/backend/solver.h"

namespace weft {

// A square grid of 1 cm cells and 0.1 g particles whatever its size, pinned at its top corners: every
// size is the same physical problem (a finer grid is not a stiffer one). The force-based explicit
// integrators get springs soft enough to stay stable at the benchmark's step (omega h < 0.5); the
// others keep the default cloth material.
ClothModel benchGrid(int n, Integrator integrator);

// GB/s of a vec4 copy of n elements on the device (GPU timestamps, median of 9).
double gpuCopyBandwidth(engine::Context& context, const engine::ShaderLibrary& shaders, uint32_t n);
// GB/s of the same copy by the CPU backend's thread pool (wall clock, median of 9).
double cpuCopyBandwidth(uint32_t n);

// Per step, each timed pass: mean GPU ms (timestamps) and what RecordStats counted for it, with its
// rate against row.copyGBps (set that first).
void fillPasses(BenchRow& row, const engine::RecordStats& stats, const PassTimes& gpuTotals, double steps);

// `frames` frames of `substeps` steps each, after `warmFrames` untimed ones (pipelines, caches).
struct FrameTimes {
  double wallMsPerFrame = 0;  // median
  // The mean: a workload whose frames differ by design (contact searches in some steps and keeps
  // the list in the others) is judged by it, as its total time over its frames.
  double wallMsMean = 0;
  double gpuMsPerFrame = 0;   // median of the frames' summed pass times (GPU backend; else 0)
  engine::RecordStats recorded;  // what the timed frames recorded (GPU backend)
  PassTimes passTotals;          // GPU ms per pass summed over the timed frames
  std::vector<double> solveIterations;  // implicit integrators: each timed step's
  double worstResidual = 0;
  std::vector<glm::vec4> positions, velocities;  // the state after the last frame
  // With a bound: true when the frames done so far, at their pace, would have taken past it, and
  // the rest were not run (the figures above then cover only the frames done).
  bool stopped = false;
  double projectedSeconds = 0;  // when stopped: the warm and timed frames' projected time, s
};
// `afterFrame`, if given, is called after each timed frame, outside its time (a frame's
// measurement that reads the state back). `boundSeconds` > 0: after each frame, warm or timed, the
// frames stop when the time so far, scaled to all of them, comes past it (a workload that would run
// for a quarter of an hour is reported as not measured in the time its first frames take).
FrameTimes timeFrames(Solver& solver, float frameDt, int substeps, int frames, int warmFrames,
                      const std::function<void(Solver&)>& afterFrame = {}, double boundSeconds = 0);

// A suite's bound on each measurement: --row-seconds, or kDefaultRowSeconds without it. InputError
// for a negative or non-finite one.
double suiteRowSeconds(const BenchOptions& options);
// What a measurement that timeFrames stopped at `boundSeconds` reads in its row: "not measured: its
// first frames project X s, past --row-seconds S".
std::string notMeasuredPastBound(const FrameTimes& times, double boundSeconds);

}  // namespace weft
