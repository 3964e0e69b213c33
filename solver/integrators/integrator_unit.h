#pragma once
// An integrator as one unit: its CPU loop, its GPU pass sequence and the kernels and buffers that
// sequence needs, behind one small interface. The solvers of both backends ask the registry
// (integratorUnit) for the unit a SolverParams names and never branch on the integrator
// themselves, so adding an integrator is a folder under solver/integrators/ and a line in
// WEFT_INTEGRATORS (solver/model/scene.h).
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "solver/backend/backend_state.h"
#include "solver/backend/memory_budget.h"
#include "solver/model/stability.h"

namespace weft::integrators {

// What a unit that submits its own work (GpuUnit::advance) may use of the GPU solver.
struct GpuFrame {
  GpuState& state;
  engine::GpuTimer* timer;  // reset by each submitTimed; null: no timestamps
  // Records into a fresh command buffer, submits it, waits, and adds its timestamps to the frame's
  // pass times.
  std::function<void(const std::function<void(VkCommandBuffer)>&)> submitTimed;
};

class IntegratorUnit {
 public:
  virtual ~IntegratorUnit() = default;
  virtual Integrator id() const = 0;

  // true: elastic forces are evaluated at known states, so steps are stable only while omega h
  // stays below a limit (explicit and symplectic Euler, RK4).
  virtual bool explicitForces() const { return false; }

  // The longest step (s) for which this method keeps every mode within `bounds` bounded: its
  // stability region met by the modes' frequencies and damping rates (solver/model/stability.h).
  // Infinite where the forces set no step limit (implicit solves, projections).
  virtual double stableStep(const ModeBounds&) const { return std::numeric_limits<double>::infinity(); }

  // true: the unit's solve takes contact pairs as elements (forces and Jacobian blocks,
  // shaders/elements/contact_pair.h) when contact is on; the contact pass after it still holds
  // the guarantee. The others meet contact only in that pass.
  virtual bool contactForces() const { return false; }

  // What prepareGpu makes and advanceCpu grows for a cloth of this size, beyond the shared state:
  // the solvers check it against the device and the host before allocating anything. Stated
  // next to the buffers it counts, so the two change together.
  virtual UnitMemory memory(const StateSize&) const { return {}; }
  // The state was written (Solver::writeState): the unit drops what it carries from one step to the
  // next (implicit-cg's warm start), so the solver continues as one made from that state would.
  virtual void stateWritten(CpuState&) const {}
  virtual void stateWritten(GpuState&) const {}

  // ---- CPU ----
  // Advances `state` by frameDt in `substeps` steps of step.dt (adaptive units choose their own
  // steps within that frame); returns one SolveStats per step for the implicit ones, else nothing.
  virtual std::vector<SolveStats> advanceCpu(CpuState& state, const SolverParams& params, const gpu::StepParams& step,
                                             float frameDt, int substeps, ThreadPool& pool) const = 0;

  // ---- GPU ----
  // false: the unit decides on the host after each step (nonlinear-cg's retries), so a frame of it
  // cannot be recorded into a command buffer its caller submits.
  virtual bool recordsFrames() const { return true; }
  // true: advance() lets the unit submit its own work (advanceGpu) rather than recording the frame
  // into one command buffer; implicit-cg does so to stop at the first chunk after convergence.
  virtual bool submitsOwnFrames() const { return !recordsFrames(); }
  // Timestamped regions one step records at most (sizes the solver's timer).
  virtual uint32_t timedPassesPerStep(const SolverParams& params) const = 0;
  // Makes the unit's kernels and buffers exist, with room for `substeps` steps: uploads and may
  // wait for the device, so never while a command buffer of the caller is being recorded into.
  virtual void prepareGpu(GpuState& state, const SolverParams& params, int substeps) const = 0;
  // Records one step (prepareGpu first). `substep` indexes the frame's step log.
  virtual void recordStep(GpuRecorder& recorder, const SolverParams& params, const gpu::StepParams& step,
                          uint32_t substep) const = 0;
  // A whole frame for units with submitsOwnFrames(); returns its SolveStats.
  virtual std::vector<SolveStats> advanceGpu(GpuFrame& frame, const SolverParams& params, const gpu::StepParams& step,
                                             float frameDt, int substeps) const;
  // The SolveStats a recorded frame of `substeps` steps logged on the device (empty by default).
  virtual std::vector<SolveStats> readFrameStats(GpuState& state, int substeps) const;
};

// The unit of every integrator the scene format names; integratorUnit(id).id() == id.
const IntegratorUnit& integratorUnit(Integrator integrator);

// Each integrator's folder defines this for its own ids (a unit may serve several, as Euler's
// explicit and symplectic variants): registry.cpp finds every unit of WEFT_INTEGRATORS through it.
template <Integrator I>
const IntegratorUnit& integratorUnitFor();

}  // namespace weft::integrators
