#version 450
// Verlet, one Jacobi iteration of distance-constraint relaxation (seed 003's correction), gathered:
// each particle averages the corrections of its own springs and applies them times the
// over-relaxation factor. Each pass adds its correction to the step's velocity (v = (x - x_prev) / dt
// without the cancellation); the last one also collides. Chebyshev or Nesterov acceleration per
// the pass's omega and mode (accelerate() in physics.h).
// Mirrors verletRelaxParticle() in solver/integrators/verlet.cpp.
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  vec4 xi = positions[i];
  vec3 x = xi.xyz;
  if (xi.w > 0.0) {
    vec3 sum = vec3(0.0);
    uint count = 0;
#ifdef WEFT_GRID_STENCIL
    // The same springs in the same order as the table's row, found from the index (GridStencil).
    uint column = i % gridStencil.width, row = i / gridStencil.width;
    for (uint k = 0u; k < WEFT_GRID_STENCIL_SPRINGS; ++k) {
      SpringEntry e;
      if (!gridSpring(i, column, row, k, e)) continue;
      vec4 xj = positions[e.other];
      sum += distanceCorrection(x, xi.w, xj.xyz, xj.w, e.restLength, params.constraintStiffness);
      ++count;
    }
#else
    for (uint s = springRows[i]; s < springRows[i + 1]; ++s) {
      SpringLink link = springLinks[s];
      vec4 xj = positions[link.other];
      sum += distanceCorrection(x, xi.w, xj.xyz, xj.w, link.restLength, params.constraintStiffness);
      ++count;
    }
#endif
    vec3 direct = vec3(0.0);
    sum += elementProjections(i, params.dt, count, direct);
    if (count > 0) x += sum * (params.relaxation / float(count));
    x += direct;
    // Acceleration: Chebyshev blends with the iterate before last, which positionsOut still holds
    // for this particle; Nesterov extrapolates from its last Jacobi iterate and keeps this one.
    bool nesterov = (params.mode & WEFT_MODE_RELAX_NESTEROV) != 0u;
    vec3 beforeLast = nesterov ? x : positionsOut[i].xyz;
    vec3 last = nesterov ? lastJacobi[i].xyz : x;
    if (nesterov) lastJacobi[i] = vec4(x, 0.0);
    x = accelerate(x, beforeLast, last, params.omega, nesterov);
    vec3 v = carryCorrection(velocitiesOut[i].xyz, x, xi.xyz, params.dt);
    if ((params.mode & WEFT_MODE_RELAX_FINAL) != 0u) collideAll(x, v, params.dt);
    velocitiesOut[i] = vec4(v, 0.0);
  }
  positionsOut[i] = vec4(x, xi.w);
}
