#version 450
// XPBD, one colour of one Gauss-Seidel iteration: each invocation projects one constraint (a
// spring or an elastic element, shaders/xpbd.h) and moves its nodes in place. No two constraints
// of a colour share a particle that moves (solver/integrators/xpbd/xpbd_colouring.h), so the
// writes never race and the result is the same on every device and on the CPU backend.
// Mirrors projectConstraint() in solver/integrators/xpbd/xpbd.cpp.
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
  XpbdConstraint c = constraints[k];
  vec4 lambda = xpbd.iteration == 0u ? vec4(0.0) : lambdas[k];
  if (c.node1 != WEFT_XPBD_ELEMENT) {
    XpbdSpringMove m = xpbdSpring(positionsOut[c.node0], positionsOut[c.node1], prevPositions[c.node0].xyz,
                                  prevPositions[c.node1].xyz, c.restLength, c.stiffness, c.damping, params.dt,
                                  lambda.x);
    positionsOut[c.node0].xyz += m.dx0;
    positionsOut[c.node1].xyz += m.dx1;
    lambda.x += m.dlambda;
  } else {
#ifndef WEFT_NO_ELEMENTS
    Element e = elements[c.node0];
    uvec4 n = e.nodes;
    XpbdElementMove m = xpbdElement(e, positionsOut[n.x], positionsOut[n.y], positionsOut[n.z], positionsOut[n.w],
                                    prevPositions[n.x].xyz, prevPositions[n.y].xyz, prevPositions[n.z].xyz,
                                    prevPositions[n.w].xyz, params.dt, lambda);
    // One node at a time, each adding to what the last wrote (unused slots repeat node 0 and move by
    // zero). Pinned nodes are not written: a tether's anchor is shared within a colour.
    for (uint s = 0u; s < 4u; ++s) {
      uint node = n[s];
      if (positionsOut[node].w > 0.0) positionsOut[node].xyz += m.dx[s];
    }
    lambda += m.dlambda;
#endif
  }
  if (xpbd.keepMultipliers != 0u) lambdas[k] = lambda;
}
