#pragma once
// The inertial prediction that Verlet and xpbd both start a step with (verlet_predict.comp):
// prevPositions = x, positionsOut = x + dt (v + a_ext dt), velocitiesOut = v + a_ext dt, a_ext
// being gravity, air drag and the elements' force-only terms.
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

// The pass for particle i.
void verletPredictParticle(uint32_t i, CpuState& s, const gpu::StepParams& p);
// The pass over particles [begin, end), in vector lanes where the cloth allows them
// (verlet_predict_lanes.h), the same bits as verletPredictParticle on each.
void verletPredictRange(size_t begin, size_t end, CpuState& s, const gpu::StepParams& p);
// Its GPU twin: records verlet_predict.comp (`predict`, the state's variant of it) over the state's
// buffers, then a barrier.
void recordVerletPredict(GpuRecorder& r, const engine::ComputeProgram& predict, const gpu::StepParams& params);

}  // namespace weft::integrators
