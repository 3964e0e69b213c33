#pragma once
// What an integrator step works on, per backend. The CPU state is std::vectors in exactly the GPU
// layout (struct of arrays of vec4), so each integrator's CPU loop and GPU passes read alike.
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include "engine/buffer.h"
#include "engine/gpu_timer.h"
#include "engine/program.h"
#include "shaders/shared.h"
#include "solver/solver.h"
#include "solver/elements.h"
#include "solver/spring_table.h"

namespace weft {

class ThreadPool;

// elementRefs: the element table's incidence entries (0 lets every element gather skip its rows).
gpu::StepParams makeStepParams(const SolverParams& params, float dt, uint32_t particleCount, uint32_t colliderCount,
                               uint32_t elementRefs);

// ---- CPU ----
struct CpuState {
  std::vector<glm::vec4> positions, velocities;        // current state
  std::vector<glm::vec4> positionsOut, velocitiesOut;  // written by a pass, then swapped in
  std::vector<glm::vec4> prevPositions;                // Verlet: positions at the step's start
  std::vector<std::vector<glm::vec4>> scratch;         // per-integrator temporaries (RK4 stages)
  std::vector<glm::mat3> blocks;                       // implicit CG: inverse diagonal blocks
  std::vector<glm::vec4> springBlocks;                 // implicit CG: each spring end's system block
  std::vector<SolveStats> solveStats;                  // implicit integrators: one per step
  float adaptiveDt = 0.f;  // adaptive integrators: the next step to try, s (0: the requested one)
  SpringTable springs;
  ElementTable elements;
  std::vector<gpu::Collider> colliders;

  void swapPositions() { std::swap(positions, positionsOut); }
  void swapVelocities() { std::swap(velocities, velocitiesOut); }
};

// ---- GPU ----
struct GpuPrograms {
  engine::ComputeProgram eulerStep;
  engine::ComputeProgram verletPredict;
  engine::ComputeProgram verletRelax;
  engine::ComputeProgram rk4Stage;
  engine::ComputeProgram cgSetup, cgScalars, cgProduct, cgUpdate, cgDirection, cgFinish;
  engine::ComputeProgram newtonPredict, newtonGradient, newtonScalars, newtonSweep, newtonUpdate, newtonFinish;
  engine::ComputeProgram nlcgStart, nlcgScalars, nlcgResidual, nlcgDirection, nlcgAdd, nlcgFinish;
};

// Ping-pong pairs: passes that gather neighbours read one buffer and write the other.
struct GpuState {
  engine::Buffer positions[2], velocities[2];
  int currentPositions = 0, currentVelocities = 0;
  engine::Buffer prevPositions, springRows, springs, springLinks, colliders;
  engine::Buffer elements, elementRows, elementRefs;  // the element table and its incidence rows
  uint32_t elementRefCount = 0;                       // incidence entries (0: a cloth of springs only)
  std::vector<engine::Buffer> scratch;  // per-integrator temporaries, vec4[N] each, made on first use
  // Iterative solves: scalars, partial sums, indirect arguments, the per-step log, CG's blocks.
  engine::Buffer solveScalars, partials, indirect, stepLog, preconditioner, springBlocks;
  // Newton-Chebyshev: its scalars, inverse diagonal blocks (2 vec4 per particle) and spring
  // couplings (a vec4 per spring entry), made on first use.
  engine::Buffer newtonScalars, newtonDiagonal, newtonCouplings;
  uint32_t stepLogCapacity = 0;
  // Non-linear CG: its scalars (ending with the step's log), partials, indirect arguments, and the
  // host-visible copy of the log read after every step.
  engine::Buffer nlcgScalars, nlcgPartials, nlcgIndirect, nlcgReadback;
  float adaptiveDt = 0.f;           // the next step to try, s (0: the requested one)
  uint32_t nlcgLastIterations = 0;  // of the last step: sizes the next step's recording
  uint32_t particleCount = 0, colliderCount = 0;
  const engine::Context* context = nullptr;

  // Makes sure `count` scratch buffers exist. Called while recording, before any is used.
  void ensureScratch(size_t count);
  // Makes sure the iterative-solve buffers exist with room for `steps` log entries; the indirect
  // arguments' full-size entry is filled for `program`'s workgroup layout. Not while recording.
  void ensureSolveBuffers(uint32_t steps, const engine::ComputeProgram& program);
  void ensureNewtonBuffers();
  // Makes sure the non-linear CG buffers exist, the full-size indirect entry laid out for
  // `program`'s workgroups. Not while recording.
  void ensureNlcgBuffers(const engine::ComputeProgram& program);

  const engine::Buffer& positionsIn() const { return positions[currentPositions]; }
  const engine::Buffer& positionsOut() const { return positions[1 - currentPositions]; }
  const engine::Buffer& velocitiesIn() const { return velocities[currentVelocities]; }
  const engine::Buffer& velocitiesOut() const { return velocities[1 - currentVelocities]; }
  void swapPositions() { currentPositions = 1 - currentPositions; }
  void swapVelocities() { currentVelocities = 1 - currentVelocities; }
};

// Everything a pass sequence needs to record itself into a command buffer it is given.
struct GpuRecorder {
  VkCommandBuffer cmd;
  GpuState& state;
  const GpuPrograms& programs;
  engine::GpuTimer* timer;  // null: no timestamps
};

}  // namespace weft
