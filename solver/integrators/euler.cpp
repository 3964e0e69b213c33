#include "solver/integrators/euler.h"

#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/integrators/cpu_forces.h"
#include "solver/thread_pool.h"

namespace weft::integrators {

using gpu::xyz;

// The CPU twin of euler_step.comp, line for line.
static void eulerStepParticle(uint32_t i, const CpuState& s, CpuState& out, const gpu::StepParams& p) {
  glm::vec4 xi = s.positions[i];
  glm::vec3 x = xyz(xi);
  glm::vec3 v = xyz(s.velocities[i]);
  if (xi.w == 0.f) {  // pinned: never moves
    out.positionsOut[i] = xi;
    out.velocitiesOut[i] = glm::vec4(0.f);
    return;
  }
  glm::vec3 a = particleAcceleration(i, xi, v, s.positions, s.velocities, s.springs, s.elements, p);
  float dt = p.dt;
  if (p.mode == WEFT_MODE_EXPLICIT_EULER) {  // seed 000: position advances with the old velocity
    x += v * dt;
    v += a * dt;
  } else {
    v += a * dt;
    x += v * dt;
  }
  for (const gpu::Collider& c : s.colliders) gpu::collide(x, v, c);
  out.positionsOut[i] = glm::vec4(x, xi.w);
  out.velocitiesOut[i] = glm::vec4(v, 0.f);
}

void eulerStepCpu(CpuState& state, const gpu::StepParams& params, ThreadPool& pool) {
  pool.parallelFor(state.positions.size(), [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) eulerStepParticle(static_cast<uint32_t>(i), state, state, params);
  });
  state.swapPositions();
  state.swapVelocities();
}

void recordEulerStep(GpuRecorder& r, const gpu::StepParams& params) {
  GpuState& s = r.state;
  engine::timed(r.timer, r.cmd, "euler_step", [&] {
    r.programs.eulerStep.dispatch(r.cmd, s.particleCount,
                                  {{WEFT_BIND_POSITIONS, &s.positionsIn()},
                                   {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
                                   {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                                   {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()},
                                   {WEFT_BIND_SPRING_ROWS, &s.springRows},
                                   {WEFT_BIND_SPRINGS, &s.springs},
                                   {WEFT_BIND_ELEMENTS, &s.elements},
                                   {WEFT_BIND_ELEMENT_ROWS, &s.elementRows},
                                   {WEFT_BIND_ELEMENT_REFS, &s.elementRefs},
                                   {WEFT_BIND_COLLIDERS, &s.colliders}},
                                  params);
  });
  engine::barrier::computeToCompute(r.cmd);
  s.swapPositions();
  s.swapVelocities();
}

}  // namespace weft::integrators
