#pragma once
// Implicit CG's setup over the springs (the CPU twin of cg_setup.comp's spring loop): each free
// particle's force, diagonal block and stiffness product summed over its spring ends, and each
// end's system block written, row by row (cgSpringSums) and several rows at once in the lanes of
// the CPU backend's vector kernels (lane_kernel.h: eight with AVX2, four with SSE2). The setup was a
// fifth of implicit-cg's step at 128^2 (one thread), all of it scalar: a dozen springs a particle,
// each a square root, four divisions and three 3 x 3 blocks. Each lane does the scalar function's
// operations in its order, so the lanes give its bits. The elements' terms, the filter and the
// preconditioner follow in cg_solve.cpp, row by row.
#include <cstdint>

#include "shaders/physics.h"
#include "shaders/shared.h"
#include "solver/cpu/simd/lane_kernel.h"

namespace weft::integrators {

// What the setup's spring loop reads and writes.
struct CgSetupInput {
  const uint32_t* rows;             // SpringTable::rows: N + 1 row starts
  const gpu::SpringEntry* entries;  // SpringTable::entries
  const gpu::StrainLimit* bounds;   // SpringTable::forceBounds, or null where no spring bounds its force
  const glm::vec4* positions;       // w: the inverse mass, 0 pinned
  const glm::vec4* velocities;
  glm::vec4* springBlocks;          // out: each spring end's system block (springSystemBlock)
  glm::vec4 gravity, wind;          // StepParams'
  float forceTime, stiffnessTime;   // CgSystem's a and l
};

// A free particle's sums over its springs, begun with its mass, gravity and drag.
struct CgSpringSums {
  glm::vec3 force{0.f};      // m g + drag + the springs' forces
  glm::mat3 block{0.f};      // (m + a drag) I + each spring's systemBlockMatrix
  glm::vec3 stiffness{0.f};  // each spring's stiffness block times (v_i - v_j); 0 where l is 0
};

// Free particle i's sums, writing its spring ends' blocks.
inline CgSpringSums cgSpringSums(const CgSetupInput& in, uint32_t i) {
  const glm::vec4 xi = in.positions[i];
  const glm::vec3 vi = gpu::xyz(in.velocities[i]);
  const float a = in.forceTime, l = in.stiffnessTime;
  const float mass = 1.f / xi.w;
  const float drag = in.wind.w;
  CgSpringSums sums;
  sums.block = (mass + a * drag) * glm::mat3(1.f);
  sums.force = mass * gpu::xyz(in.gravity) + gpu::dragForce(vi, in.wind);
  for (uint32_t k = in.rows[i]; k < in.rows[i + 1]; ++k) {
    const gpu::SpringEntry& e = in.entries[k];
    const glm::vec3 xj = gpu::xyz(in.positions[e.other]), vj = gpu::xyz(in.velocities[e.other]);
    const gpu::StrainLimit bound = in.bounds ? in.bounds[k] : gpu::StrainLimit{0.f, 0.f};
    sums.force += gpu::springForce(gpu::xyz(xi), vi, xj, vj, e, bound);
    const glm::vec4 spring = gpu::springSystemBlock(gpu::xyz(xi), xj, e, bound, a, l);
    in.springBlocks[k] = spring;
    sums.block += gpu::systemBlockMatrix(spring);
    if (l != 0.f) sums.stiffness += gpu::springStiffnessBlock(gpu::xyz(xi), xj, e, bound) * (vi - vj);
  }
  return sums;
}

// A group's sums from the lanes: lane l's force and stiffness in force[l] and stiffness[l] (xyz),
// its block's columns in block[c][l] (xyz).
struct CgSetupGroup {
  glm::vec4 force[8], stiffness[8], block[3][8];
  CgSpringSums sums(int l) const {
    return {gpu::xyz(force[l]), glm::mat3(gpu::xyz(block[0][l]), gpu::xyz(block[1][l]), gpu::xyz(block[2][l])),
            gpu::xyz(stiffness[l])};
  }
};

// cgSpringSums of rows first .. first + width - 1 into out, each row whatever its number of spring
// ends; a pinned row's sums are left undefined and its ends' blocks unwritten, as the setup skips
// it. Only for springs whose force is not bounded (a null bounds).
using CgSetupLanes = void (*)(const CgSetupInput& in, uint32_t first, CgSetupGroup& out);
using CgSetupKernel = LaneKernel<CgSetupLanes>;

// The widest kernel this processor and build run (none: run null).
CgSetupKernel cgSetupLanes();
// Each width's kernel, null where the build has none (AVX2: call it only where the processor has it).
CgSetupLanes cgSetupLanesSse();
CgSetupLanes cgSetupLanesAvx2();

}  // namespace weft::integrators
