#version 450
// XPBD, one colour's tethers in one Gauss-Seidel iteration: each invocation projects one tether
// (xpbdTether, shaders/xpbd.h), moving its particle and, if it is not pinned, its anchor in place.
// The colour's springs and other elements are xpbd_project.comp's dispatches beside this one; no
// two constraints of a colour move one particle, so they need no barrier between them.
// Mirrors projectTether() in solver/integrators/xpbd/xpbd_tether.h, less the two zero moves of
// slots 2 and 3 (they only turn a -0 coordinate to +0).
#define WEFT_XPBD_SOLVE
#include "shared.h"
#include "physics.h"
#include "common.glsl"
#include "solver_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;
layout(std430, binding = WEFT_BIND_XPBD_CONSTRAINTS) readonly buffer Constraints { XpbdConstraint constraints[]; };
layout(std430, binding = WEFT_BIND_XPBD_LAMBDAS) buffer Lambdas { vec4 lambdas[]; };

void main() {
  uint t = globalIndex();
  if (t >= xpbd.count) return;
  uint k = xpbd.first + t;
  XpbdConstraint c = constraints[k];  // the tether carried in full (form WEFT_XPBD_TETHER)
  vec4 lambda = xpbd.iteration == 0u ? vec4(0.0) : lambdas[k];
  uint i = c.tetherParticle, anchor = c.tetherAnchor;
  // An undamped tether takes no rate (xpbdTether): its start positions are not read.
  bool damped = c.damping != 0.0;
  vec3 start0 = damped ? prevPositions[i].xyz : vec3(0.0), start1 = damped ? prevPositions[anchor].xyz : vec3(0.0);
  XpbdTetherMove m = xpbdTether(c.restLength, c.stiffness, c.damping, positionsOut[i], positionsOut[anchor], start0,
                                start1, params.dt, lambda.x);
  if (positionsOut[i].w > 0.0) positionsOut[i].xyz += m.dx0;
  if (positionsOut[anchor].w > 0.0) positionsOut[anchor].xyz += m.dx1;
  lambda.x += m.dlambda;
  if (xpbd.keepMultipliers != 0u) lambdas[k] = lambda;
}
