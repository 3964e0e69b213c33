// The renderer's bindings and push constants (cloth.vert, solid.vert, normals.comp), a set of their own.
// One module of shaders/shared.h, which includes shaders/interop.h before it: include shared.h, not
// this file. std430 on the device; the static_asserts pin the C++ side to the same sizes.
#ifndef WEFT_LAYOUT_RENDER_H
#define WEFT_LAYOUT_RENDER_H

WEFT_GPU_BEGIN

// ---- Render bindings (set 0, push descriptors). ----
#define WEFT_BIND_RENDER_POSITIONS 0   // vec4[N] positions, pulled by the vertex shader
#define WEFT_BIND_RENDER_NORMALS 1     // vec4[N] normals written by normals.comp
#define WEFT_BIND_RENDER_TRIANGLES 2   // uint[3T] triangle corner indices
#define WEFT_BIND_RENDER_VERTEX_TRI_ROWS 3  // uint[N+1] CSR rows: triangles around each vertex
#define WEFT_BIND_RENDER_VERTEX_TRIS 4      // uint[...] triangle indices around each vertex
#define WEFT_BIND_RENDER_CONTACT_MARKS 5    // uint[N] WEFT_CONTACT_MARK_* bits per particle (contact_marks.vert)

// Push constants of the shaded draw.
struct RenderParams {
  mat4 viewProjection;
  vec4 color;        // rgb base colour, a unused
  vec4 lightDir;     // xyz unit vector towards the light
  vec4 transform;    // xyz translation, w uniform scale (colliders drawn from a unit mesh)
  vec4 shape;        // solid.vert: xyz plane normal, w = WEFT_SOLID_* kind; particles.vert and contact_marks.vert: xy half size (NDC); contact_marks.vert: z the mark drawn
};

// Procedural solids drawn by solid.vert (no vertex buffers).
#define WEFT_SOLID_SPHERE 0        // unit sphere, WEFT_SPHERE_SEGMENTS x WEFT_SPHERE_RINGS quads
#define WEFT_SOLID_PLANE 1         // square of half-size transform.w, checkered
#define WEFT_SOLID_CAPSULE 2       // the unit sphere's halves moved apart along shape.xyz (half the axis)
#define WEFT_SOLID_BOX 3           // the cube [-1, 1]^3; viewProjection carries the box's own frame and size
#define WEFT_SOLID_TRIANGLE 4      // the triangle (0,0,0) (1,0,0) (0,1,0); viewProjection carries it to a mesh face, shape.xyz its normal
#define WEFT_SPHERE_SEGMENTS 48
#define WEFT_SPHERE_RINGS 24

// Push constants of normals.comp.
struct NormalsParams {
  uint vertexCount;
  uint pad0;
  uint pad1;
  uint pad2;
};

#ifdef __cplusplus
static_assert(sizeof(RenderParams) == 128);
static_assert(sizeof(NormalsParams) == 16);
#endif

WEFT_GPU_END

#endif  // WEFT_LAYOUT_RENDER_H
