#pragma once
// The backends' side of the kinematics (solver/model/kinematics.h): before each step, the colliders are
// set to where they are at the step's end, and every particle a handle carries is placed where its
// handle's pose takes it. The CPU loop and the GPU pass (handle_move.comp) side by side. The solvers
// of both backends call them before each step they ask of an integrator unit, after contact has
// taken the step's start (so contact bounds a handle's move like any other).
#include "solver/backend/backend_state.h"
#include "solver/model/kinematics.h"

namespace weft {

void applyKinematicStepCpu(CpuState& state, const Kinematics& kinematics, const KinematicStep& step);

// The handle table and the kernel (once; not while recording).
void prepareKinematicsGpu(GpuState& state, const Kinematics& kinematics);
// Uploads the step's colliders and handle poses inside `recorder`'s command buffer (outside a render
// pass), then moves the handles' particles; barriers on either side.
void recordKinematicStep(GpuRecorder& recorder, const KinematicStep& step);
// The collider grid's buffers made (or grown) and filled (uploads and waits: not while recording).
void uploadColliderGrid(GpuState& state, const ColliderGridData& grid);
// Room in the grid's buffers for the grid `plan` brings, if any: grown when `mayGrow` (waits for the
// device: only where no command buffer recorded earlier is waiting to be submitted), else, when it
// does not fit, the grid turned off for the frame.
void reserveColliderGrid(GpuState& state, std::vector<KinematicStep>& plan, bool mayGrow);

}  // namespace weft
