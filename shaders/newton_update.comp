#version 450
// Newton-Chebyshev, last pass of a Newton iteration: x_(k+1) = x_k + y, with y the stopped
// solve's answer (newtonAnswer(): even iterates in the DX buffer, odd ones in DX_PREV, as bound
// for the solve's first sweep). Mirrors newtonUpdateParticle() in solver/integrators/newton_chebyshev.cpp.
#include "newton_bindings.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (i >= params.particleCount) return;
  bool even = (newtonAnswer(scalars) & 1u) == 0u;
  vec3 y = even ? dx[i].xyz : dxPrev[i].xyz;
  iterate[i].xyz += y;
  velocitiesOut[i].xyz += y / params.dt;  // v_k = (x_k - x0) / h, carried
}
