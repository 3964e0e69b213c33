// Helpers shared by the compute kernels.
#ifndef WEFT_COMMON_GLSL
#define WEFT_COMMON_GLSL

// Flattened thread index. Large problems are dispatched as a 2-D grid of workgroups because
// maxComputeWorkGroupCount is 65535 per dimension (lavapipe); see engine/program.cpp.
uint globalIndex() {
  return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
}

#endif
