// Handles: pinned particles carried along a path (solver/model/kinematics.h). Included by physics.h, so
// shared by GLSL and C++ like the rest of the physics.
#ifndef WEFT_HANDLES_H
#define WEFT_HANDLES_H

// Where a handle's pose takes a particle's rest position.
WEFT_FN vec3 handleTarget(HandlePose pose, vec3 rest) {
  vec4 r = vec4(rest.x, rest.y, rest.z, 1.0f);
  return vec3(dot(pose.row0, r), dot(pose.row1, r), dot(pose.row2, r));
}

#endif
