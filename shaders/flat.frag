#version 450
// One flat colour, unlit: the spring and particle overlays read as diagrams, not surfaces.
#include "shared.h"

layout(push_constant) uniform Push { RenderParams params; };
layout(location = 0) out vec4 outColor;

void main() { outColor = vec4(params.color.rgb, 1.0); }
