#pragma once
// What a run measured, and how it is written: the one-line summary and the --stats JSON.
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "demos/weft/solve_log.h"
#include "solver/backend/solver.h"
#include "solver/model/stretch.h"

namespace weft {

struct StateSummary {
  double kineticEnergy = 0;  // J, pinned particles excluded
  glm::vec3 min{0.f}, max{0.f};
  bool finite = true;
};
// `masses` in kg per particle; velocities xyz in m/s.
// Particles [first, first + count) only when count > 0 (one cloth of several).
StateSummary summarizeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities,
                            const std::vector<float>& masses, size_t first = 0, size_t count = 0);

// Contact over a run (solver/contact/contact.h): summed over its steps, the smallest distance over them,
// and the contact pass's time per step, one sample per frame: the whole, and its two parts, finding
// the pairs and resolving them (kContactFindPass, kContactResolvePass).
struct ContactReport {
  bool on = false;
  uint64_t contactVertices = 0, limitedVertices = 0, nearVertices = 0, crowdedVertices = 0, searchSteps = 0;
  uint64_t unstoredSteps = 0;  // GPU: steps whose live pairs passed the device's room for their states
  double minDistance = 0;  // m; meaningful once a frame was added
  int framesAdded = 0;
  std::vector<double> msPerStep, findMsPerStep, resolveMsPerStep;
  void add(const ContactStats& stats, double findMs, double resolveMs, int substeps);
};

// How far the cloth still moves as the run ends: the largest move of any free particle (pinned ones,
// which a handle may carry, are left out) in each of the run's last frames, over its last second of
// simulated time (`window` frames, at least one). A cloth at rest moves less than 1e-5 m a frame
// (docs/contact.md); one that shakes or creeps shows it here. A frame in which the cloth tore (its
// particles renumbered) is not counted.
struct RestReport {
  size_t window = 1;
  std::deque<double> moves;     // m: the last frames' largest moves, oldest first
  std::deque<uint32_t> movers;  // the particle that made each
  void add(const std::vector<glm::vec4>& before, const std::vector<glm::vec4>& after);
  double median() const;
  double percentile90() const;  // nearest rank
  size_t largest() const;       // the index in `moves` of the largest (the latest of equals)
};

struct RunReport {
  std::string scene, device, backend, integrator;
  std::string preconditioner;  // implicit-cg, imex: their CG solves' (scene.h); empty for the others
  std::vector<std::pair<std::string, StateSummary>> cloths;  // each cloth's final state, when several
  size_t particles = 0, springs = 0, triangles = 0;
  uint32_t gridWidth = 0, gridHeight = 0;  // particles per row and rows of a grid cloth; 0 for a mesh
  int frames = 0, substeps = 0, iterations = 0;
  int64_t steps = 0;  // frames x substeps reaches 10^10 within the bounds (solver/model/scene.h, demos/common/demo_scene.h)
  double frameDt = 0, stepDt = 0;
  // s: the integrator's stable step on the cloth's springs (solver/model/stability.h); infinite where
  // its forces set no limit
  double stableStep = 0;
  std::vector<double> wallMsPerStep;                          // one sample per frame
  std::vector<double> gpuMsPerStep;                           // one sample per frame (GPU backend)
  std::vector<std::pair<std::string, std::vector<double>>> passMsPerStep;  // per pass, per frame
  SolveLog solves;  // implicit integrators: one per step the solver took
  StateSummary final;
  StretchStats stretch;  // the structural springs' at the end (solver/model/stretch.h)
  WorstStretch worstStretch;  // theirs over every frame the run ended well
  ContactReport contact;
  RestReport rest;
  bool nonFinite = false;
  int64_t nonFiniteStep = -1;
  int64_t explosionStep = -1;  // the step whose energy passed what the scene can supply (EnergyBound)
  int halvings = 0;  // --on-explosion halve-dt: frames rolled back and retried at half the step
  std::string failure;  // why the integrator could not take a step (SolveError); empty if it could
  // A tearing cloth (solver/model/tearing.h): its particles, springs and triangles at the end, and its tears
  // (particles split and springs removed). tears < 0: the cloth does not tear.
  int64_t tears = -1;
  size_t finalParticles = 0, finalSprings = 0, finalTriangles = 0;
};

double median(std::vector<double> values);
std::string summaryLine(const RunReport& report);
// Writes the stats JSON to path.tmp and renames it over `path`: never a half-written file. Its size
// does not grow with the run unless the solve log keeps every step (SolveLog::keepsAll).
void writeStatsJson(const RunReport& report, const std::string& path);

}  // namespace weft
