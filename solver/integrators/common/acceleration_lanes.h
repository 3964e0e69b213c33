#pragma once
// particleAcceleration (cpu_forces.h) on consecutive particles in vector lanes: eight with AVX2,
// four with SSE2 (lane_kernel.h). The force gather is most of the step of every integrator that
// takes forces explicitly (symplectic and explicit Euler, RK4's stages, nonlinear CG's residuals:
// 40 to 80 % at 128^2, one thread): a dozen springs a particle, each a square root and three
// divisions that the scalar loop waits on one after another. Each lane does the scalar function's
// operations in its order, so the bits are the same. Only for a cloth of springs alone (no elements,
// no contact pairs: their forces are then +0) whose springs bound no force; the rest, and a range's
// last particles that fill no group, take the scalar function.
#include <cstdint>
#include <vector>

#include "solver/cpu/cpu_forces.h"
#include "solver/cpu/simd/lane_kernel.h"

namespace weft::integrators {

// What the gather reads.
struct AccelerationInput {
  const uint32_t* rows;             // SpringTable::rows: N + 1 row starts
  const gpu::SpringEntry* entries;  // SpringTable::entries
  const glm::vec4* positions;       // w: the inverse mass
  const glm::vec4* velocities;
  glm::vec4 gravity, wind;          // StepParams'
};

// particleAcceleration of particles [first, first + the kernel's width) into out (xyz; w 0), each
// particle at its own position and velocity in the input's arrays.
using AccelerationLanes = void (*)(const AccelerationInput& in, uint32_t first, glm::vec4* out);
using AccelerationKernel = LaneKernel<AccelerationLanes>;

// The widest kernel this build and processor run (none: run null).
AccelerationKernel accelerationLanes();
// Each width's kernel, null where the build has none.
AccelerationLanes accelerationLanesSse();
AccelerationLanes accelerationLanesAvx2();

// A range's accelerations asked particle by particle in increasing order, as a step's loop over its
// range asks them: at(i) is particleAcceleration(i, x[i], v[i], x, v, ...), computed a group of
// the lanes' width at a time where the cloth allows and the group fits before `end`.
class AccelerationGroups {
 public:
  AccelerationGroups(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& v, const SpringTable& springs,
                     const ElementTable& elements, const gpu::StepParams& p, size_t end)
      : x_(x), v_(v), springs_(springs), elements_(elements), p_(p), end_(end) {
    if (elements.springsOnly() && springs.forceBounds.empty()) kernel_ = accelerationLanes();
  }

  glm::vec3 at(uint32_t i) {
    const auto width = static_cast<uint32_t>(kernel_.width);
    if (have_ && i >= first_ && i < first_ + width) return gpu::xyz(group_[i - first_]);
    if (kernel_.run && size_t(i) + width <= end_) {
      const AccelerationInput in{springs_.rows.data(), springs_.entries.data(), x_.data(), v_.data(), p_.gravity, p_.wind};
      kernel_.run(in, i, group_);
      first_ = i;
      have_ = true;
      return gpu::xyz(group_[0]);
    }
    return particleAcceleration(i, x_[i], gpu::xyz(v_[i]), x_, v_, springs_, elements_, p_);
  }

 private:
  const std::vector<glm::vec4>&x_, &v_;
  const SpringTable& springs_;
  const ElementTable& elements_;
  const gpu::StepParams& p_;
  size_t end_;
  AccelerationKernel kernel_{};
  glm::vec4 group_[8];
  uint32_t first_ = 0;
  bool have_ = false;
};

}  // namespace weft::integrators
