#include "solver/integrators/common/verlet_predict.h"

#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/cpu/cpu_elements.h"
#include "solver/integrators/common/verlet_predict_lanes.h"

namespace weft::integrators {

using gpu::xyz;

// CPU twin of verlet_predict.comp.
void verletPredictParticle(uint32_t i, CpuState& s, const gpu::StepParams& p) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 v = xyz(s.velocities[i]);
  s.prevPositions[i] = xi;
  if (xi.w == 0.f) {
    s.positionsOut[i] = xi;
    s.velocitiesOut[i] = glm::vec4(0.f);
    return;
  }
  glm::vec3 a = xyz(p.gravity) + xi.w * (gpu::dragForce(v, p.wind) + elementForces(i, s.positions, s.velocities, s.elements, p.wind, false));
  float dt = p.dt;
  glm::vec3 vNext = v + a * dt;
  s.positionsOut[i] = glm::vec4(xyz(xi) + vNext * dt, xi.w);
  s.velocitiesOut[i] = glm::vec4(vNext, 0.f);
}

void verletPredictRange(size_t begin, size_t end, CpuState& s, const gpu::StepParams& p) {
  size_t i = begin;
  const VerletPredictKernel lanes = verletPredictLanes();
  if (lanes.run && (s.elements.kinds & WEFT_FORCE_ONLY_KINDS) == 0u) {  // elementForces is then +0
    const VerletPredictInput in{s.positions.data(),    s.velocities.data(), s.prevPositions.data(),
                                s.positionsOut.data(), s.velocitiesOut.data(), p.gravity,
                                p.wind,                p.dt};
    for (; i + size_t(lanes.width) <= end; i += size_t(lanes.width)) lanes.run(in, static_cast<uint32_t>(i));
  }
  for (; i < end; ++i) verletPredictParticle(static_cast<uint32_t>(i), s, p);
}

void recordVerletPredict(GpuRecorder& r, const engine::ComputeProgram& predict, const gpu::StepParams& params) {
  GpuState& s = r.state;
  predict.dispatch(r.cmd, s.particleCount,
                   s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                 {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
                                 {WEFT_BIND_PREV_POSITIONS, &s.prevPositions},
                                 {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                 {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()}}),
                   params);
  engine::barrier::computeToCompute(r.vk(), r.cmd);
}

}  // namespace weft::integrators
