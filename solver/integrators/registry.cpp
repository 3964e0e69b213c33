// The registry of integrator units. It lists no integrator itself: it expands the model's list
// (WEFT_INTEGRATORS, solver/model/scene.h), and each integrator's folder defines
// integratorUnitFor<Integrator::Id>() for its own ids. Adding an integrator touches neither this
// file nor the backends (docs/extending.md).
#include <stdexcept>
#include <string>

#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

#define WEFT_DECLARE_UNIT(id, name) \
  template <>                       \
  const IntegratorUnit& integratorUnitFor<Integrator::id>();
WEFT_INTEGRATORS(WEFT_DECLARE_UNIT)
#undef WEFT_DECLARE_UNIT

const IntegratorUnit& integratorUnit(Integrator integrator) {
#define WEFT_UNIT_ENTRY(id, name) &integratorUnitFor<Integrator::id>(),
  static const IntegratorUnit* const units[kIntegratorCount] = {WEFT_INTEGRATORS(WEFT_UNIT_ENTRY)};
#undef WEFT_UNIT_ENTRY
  const auto i = static_cast<size_t>(integrator);
  if (i >= kIntegratorCount || units[i]->id() != integrator)
    throw std::logic_error("no integrator unit for id " + std::to_string(i));
  return *units[i];
}

std::vector<SolveStats> IntegratorUnit::advanceGpu(GpuFrame& frame, const SolverParams& params,
                                                   const gpu::StepParams& step, float, int substeps) const {
  frame.submitTimed([&](VkCommandBuffer cmd) {
    GpuRecorder recorder{cmd, frame.state, frame.timer};
    for (int s = 0; s < substeps; ++s) recordStep(recorder, params, step, static_cast<uint32_t>(s));
  });
  return readFrameStats(frame.state, substeps);
}

std::vector<SolveStats> IntegratorUnit::readFrameStats(GpuState&, int) const { return {}; }

}  // namespace weft::integrators
