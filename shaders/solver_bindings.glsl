// Buffer declarations shared by the solver kernels. A kernel includes this and uses what it needs;
// bindings it never touches are dropped by the compiler and so are not reflected or pushed.
#ifndef WEFT_SOLVER_BINDINGS_GLSL
#define WEFT_SOLVER_BINDINGS_GLSL

#include "shared.h"

layout(push_constant) uniform StepPush { StepParams params; };

layout(std430, binding = WEFT_BIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = WEFT_BIND_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = WEFT_BIND_POSITIONS_OUT) writeonly buffer PositionsOut { vec4 positionsOut[]; };
layout(std430, binding = WEFT_BIND_VELOCITIES_OUT) writeonly buffer VelocitiesOut { vec4 velocitiesOut[]; };
layout(std430, binding = WEFT_BIND_PREV_POSITIONS) buffer PrevPositions { vec4 prevPositions[]; };
layout(std430, binding = WEFT_BIND_SPRING_ROWS) readonly buffer SpringRows { uint springRows[]; };
layout(std430, binding = WEFT_BIND_SPRINGS) readonly buffer Springs { SpringEntry springs[]; };
layout(std430, binding = WEFT_BIND_COLLIDERS) readonly buffer Colliders { Collider colliders[]; };

void collideAll(inout vec3 x, inout vec3 v) {
  for (uint c = 0; c < params.colliderCount; ++c) collide(x, v, colliders[c]);
}

#endif
