// The passes beside the integrators: handles (handle_move.comp), the strain limit (strain_limit.comp)
// and tearing (tear_detect.comp).
// One module of shaders/shared.h, which includes shaders/interop.h before it: include shared.h, not
// this file. std430 on the device; the static_asserts pin the C++ side to the same sizes.
#ifndef WEFT_LAYOUT_PASSES_H
#define WEFT_LAYOUT_PASSES_H

WEFT_GPU_BEGIN

// StepParams.mode of strain_limit.comp.
#define WEFT_STRAIN_MEASURE 0         // strain_limit: sum each particle's springs' excess over their limits
#define WEFT_STRAIN_CORRECT 1         // strain_limit: one Jacobi iteration of the corrections
#define WEFT_STRAIN_CORRECT_FINAL 2   // strain_limit: the last iteration, which also collides

// Strain limiting (strain_limit.comp), bound only when some material limits its springs.
#define WEFT_BIND_STRAIN_LIMITS 45   // StrainLimit[2S]: the same rows as SPRINGS, each end's allowed lengths
#define WEFT_BIND_STRAIN_EXCESS 46   // float[N]: each particle's summed |excess| over its springs this iteration
// Tearing (tear_detect.comp), bound only when some material tears.
#define WEFT_BIND_TEAR_LIMITS 52     // TearLimit[2S]: the same rows as SPRINGS, each end's breaking length
#define WEFT_BIND_TEAR_LIST 53       // uint[1 + S]: [0] how many springs broke, then their model indices

#define WEFT_BIND_HANDLE_VERTICES 61   // HandleVertex[K]: the particles that handles carry along paths
#define WEFT_BIND_HANDLE_POSES 62      // HandlePose[G]: each handle's pose at the end of this step

// A spring end's allowed length range (Provot's deformation constraint), in a table of its own beside
// the spring table rather than in SpringEntry: SpringEntry's 16 bytes are full, and every force gather
// of every scene reads them, while only scenes whose material asks for a limit need these 8 bytes
// (none are allocated otherwise). Absolute lengths, not fractions, so the kernel needs no rest length.
// maxLength 0: not limited (bend springs, and springs of cloths whose material has no limit).
struct StrainLimit {
  float minLength;  // m, (1 - compression) L
  float maxLength;  // m, (1 + stretch) L
};

// A spring end's breaking length (a tearing material's springs), beside the spring table for the same
// reason as StrainLimit. The model's spring index lets the detection name the spring that broke.
// maxLength 0: the spring does not tear.
struct TearLimit {
  float maxLength;  // m, (1 + tear strain) L
  uint spring;      // index into ClothModel::springs
};

// A particle carried by a handle (solver/model/kinematics.h): it is pinned, and before each step it is
// placed where its handle's pose takes its rest position.
struct HandleVertex {
  vec4 rest;        // xyz m: where the particle was when the solver was made
  uint particle;
  uint handle;      // index into the step's HandlePose[]
  uint pad0;
  uint pad1;
};

// A rigid pose as three rows of a 3 x 4 matrix: x' = (dot(row0, (x, 1)), dot(row1, ..), dot(row2, ..)).
struct HandlePose {
  vec4 row0;
  vec4 row1;
  vec4 row2;
};

// Push constants of handle_move.comp.
struct HandleParams {
  uint vertexCount;
  uint pad0;
  uint pad1;
  uint pad2;
};

#ifdef __cplusplus
static_assert(sizeof(HandleVertex) == 32);
static_assert(sizeof(HandlePose) == 48);
static_assert(sizeof(HandleParams) == 16);
static_assert(sizeof(TearLimit) == 8);
static_assert(sizeof(StrainLimit) == 8);
#endif

WEFT_GPU_END

#endif  // WEFT_LAYOUT_PASSES_H
