#include "solver/passes/strain_limit.h"

#include <cmath>

#include "engine/commands.h"
#include "shaders/physics.h"
#include "solver/cpu/cpu_forces.h"
#include "solver/cpu/thread_pool.h"

namespace weft {

using gpu::xyz;

namespace {

// The CPU twins of strain_limit.comp's two modes, line for line.
float strainLimitMeasure(uint32_t i, const CpuState& s) {
  const glm::vec4 xi = s.positions[i];
  float sum = 0.f;
  if (xi.w > 0.f)
    for (uint32_t e = s.springs.rows[i]; e < s.springs.rows[i + 1]; ++e)
      sum += std::abs(gpu::strainExcess(glm::length(xyz(xi) - xyz(s.positions[s.springs.links[e].other])),
                                        s.springs.strainLimits[e]));
  return sum;
}

// The correction alone: the final iteration's collision, a projection (dt 0, not a step of v dt),
// is stepThenCollideBlocks'.
void strainLimitCorrect(uint32_t i, CpuState& s, const gpu::StepParams& p) {
  const glm::vec4 xi = s.positions[i];
  const glm::vec4 vi = s.velocities[i];
  glm::vec3 x = xyz(xi);
  glm::vec3 v = xyz(vi);
  const float sumI = s.strainExcessSums[i];
  if (xi.w > 0.f && sumI > 0.f) {
    glm::vec3 sum(0.f);
    for (uint32_t e = s.springs.rows[i]; e < s.springs.rows[i + 1]; ++e) {
      const uint32_t j = s.springs.links[e].other;
      const glm::vec4 xj = s.positions[j];
      sum += gpu::strainCorrection(x, xi.w, xyz(xj), xj.w, s.springs.strainLimits[e], sumI, s.strainExcessSums[j]);
    }
    x += sum;
    v = gpu::carryCorrection(v, x, xyz(xi), p.dt);
  }
  s.positionsOut[i] = glm::vec4(x, xi.w);
  s.velocitiesOut[i] = glm::vec4(v, vi.w);
}

}  // namespace

void limitStrainCpu(CpuState& state, const gpu::StepParams& step, int iterations, ThreadPool& pool) {
  state.strainExcessSums.resize(state.positions.size());
  for (int k = 0; k < iterations; ++k) {
    const bool final = k + 1 == iterations;
    pool.parallelFor(state.positions.size(), [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) state.strainExcessSums[i] = strainLimitMeasure(static_cast<uint32_t>(i), state);
    });
    pool.parallelFor(state.positions.size(), [&](size_t begin, size_t end) {
      auto correct = [&](uint32_t i) { strainLimitCorrect(i, state, step); };
      if (final)
        integrators::stepThenCollideBlocks(begin, end, state.positionsOut, state.velocitiesOut, state.colliders,
                                           state.colliderGrid, 0.f, correct);
      else
        for (size_t i = begin; i < end; ++i) correct(static_cast<uint32_t>(i));
    });
    state.swapPositions();
    state.swapVelocities();
  }
}

void prepareStrainLimitGpu(GpuState& state) {
  if (!state.strainLimitPrograms)
    state.strainLimitPrograms = std::make_unique<LastPassCollides>(state.lastPassCollides("strain_limit.comp"));
}

void recordStrainLimit(GpuRecorder& r, const gpu::StepParams& step, int iterations) {
  GpuState& s = r.state;
  engine::timed(r.timer, r.cmd, "strain_limit", [&] {
    for (int k = 0; k < iterations; ++k) {
      // One kernel serves both modes, so both dispatches bind every buffer it declares.
      const std::vector<engine::BufferBinding> bindings =
          s.withTables({{WEFT_BIND_POSITIONS, &s.positionsIn()},
                        {WEFT_BIND_VELOCITIES, &s.velocitiesIn()},
                        {WEFT_BIND_POSITIONS_OUT, &s.positionsOut()},
                        {WEFT_BIND_VELOCITIES_OUT, &s.velocitiesOut()},
                        {WEFT_BIND_STRAIN_LIMITS, &s.strainLimits},
                        {WEFT_BIND_STRAIN_EXCESS, &s.strainExcessSums}});
      gpu::StepParams params = step;
      params.mode = WEFT_STRAIN_MEASURE;
      s.strainLimitPrograms->inner.dispatch(r.cmd, s.particleCount, bindings, params);
      engine::barrier::computeToCompute(r.vk(), r.cmd);  // every neighbour's sum, before the corrections
      params.mode = k + 1 == iterations ? WEFT_STRAIN_CORRECT_FINAL : WEFT_STRAIN_CORRECT;
      s.strainLimitPrograms->pass(params.mode == WEFT_STRAIN_CORRECT_FINAL).dispatch(r.cmd, s.particleCount, bindings, params);
      engine::barrier::computeToCompute(r.vk(), r.cmd);
      s.swapPositions();
      s.swapVelocities();
    }
  });
}

}  // namespace weft
