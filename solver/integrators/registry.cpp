// The one list of integrator units. Adding an integrator: its folder, its id in scene.h's
// Integrator and name table, and a line here.
#include <stdexcept>
#include <string>

#include "solver/integrators/euler/euler.h"
#include "solver/integrators/imex/imex.h"
#include "solver/integrators/implicit_cg/implicit_cg.h"
#include "solver/integrators/integrator_unit.h"
#include "solver/integrators/newton_chebyshev/newton_chebyshev.h"
#include "solver/integrators/nonlinear_cg/nonlinear_cg.h"
#include "solver/integrators/rk4/rk4.h"
#include "solver/integrators/verlet/verlet.h"
#include "solver/integrators/xpbd/xpbd.h"

namespace weft::integrators {

const IntegratorUnit& integratorUnit(Integrator integrator) {
  static const IntegratorUnit* const units[kIntegratorCount] = {
      &eulerUnit(Integrator::ExplicitEuler), &eulerUnit(Integrator::SymplecticEuler),
      &verletUnit(),                         &rk4Unit(),
      &implicitCgUnit(),                     &nonlinearCgUnit(),
      &newtonChebyshevUnit(),                &imexUnit(),
      &xpbdUnit(),
  };
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
