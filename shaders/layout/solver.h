// The solver's own bindings and push constants: particle state, springs, elements, the grid stencil, and
// every pass's StepParams, with the workgroup size and the element kinds.
// One module of shaders/shared.h, which includes shaders/interop.h before it: include shared.h, not
// this file. std430 on the device; the static_asserts pin the C++ side to the same sizes.
#ifndef WEFT_LAYOUT_SOLVER_H
#define WEFT_LAYOUT_SOLVER_H

WEFT_GPU_BEGIN

// StepParams.mode values.
#define WEFT_MODE_EXPLICIT_EULER 0    // x' = x + v dt,  v' = v + a dt (seed 000)
#define WEFT_MODE_SYMPLECTIC_EULER 1  // v' = v + a dt,  x' = x + v' dt
#define WEFT_MODE_RELAX 0             // verlet_relax: an inner Jacobi iteration
#define WEFT_MODE_RELAX_FINAL 1       // verlet_relax flag: last iteration, also collides and derives v
#define WEFT_MODE_RELAX_NESTEROV 2    // verlet_relax flag: omega is Nesterov's momentum (see accelerate())
// rk4_stage: StepParams.mode is the stage, 0..3; the last one combines the slopes and collides.

// Element kinds (Element.kind). Each is written once in shaders/elements/ and registered in
// shaders/elements.h; docs/force-models.md gives the formulas and sources.
#define WEFT_ELEMENT_MEMBRANE 0u  // Baraff-Witkin stretch (warp, weft) and shear of a triangle
#define WEFT_ELEMENT_HINGE 1u     // bending by the dihedral (face) angle across an interior edge
#define WEFT_ELEMENT_TETHER 2u    // long-range attachment: a one-sided distance limit to a pinned particle
#define WEFT_ELEMENT_AERO 3u      // per-triangle aerodynamic drag and lift against the wind
#define WEFT_ELEMENT_PLANE_BEND 4u  // bending by each wing tip's distance from the opposite face's plane
#define WEFT_ELEMENT_TRISPRING 5u   // a triangle's three edges as springs of an isotropic membrane
#define WEFT_ELEMENT_QUADRATIC_BEND 6u  // Bergou et al. 2006's isometric bending: energy quadratic in x
#define WEFT_ELEMENT_COROTATIONAL 7u    // linear elasticity of a triangle in the frame rotating with it
#define WEFT_ELEMENT_CONTACT 8u   // a contact pair's one-sided distance, made by contact each step (elements/contact_pair.h)
#define WEFT_ELEMENT_KIND_COUNT 9u
// Which element kinds a kernel may gather: a specialization constant (constant_id
// WEFT_SPEC_ELEMENT_KINDS) of the solver's kernels, one bit per kind (WEFT_ELEMENT_KIND_BIT). The
// solver sets the bits of the kinds its cloth holds (GpuState::elementKinds), so the driver drops the
// others' code: lavapipe runs every branch of elementConditions under a mask, and a cloth of tethers
// paid for the corotational triangle's polar decomposition at every gathered element.
// Unspecialized, a kernel gathers every kind.
#define WEFT_SPEC_ELEMENT_KINDS 1
#define WEFT_ELEMENT_KIND_BIT(kind) (1u << (kind))
#define WEFT_ALL_ELEMENT_KINDS ((1u << WEFT_ELEMENT_KIND_COUNT) - 1u)
#define WEFT_MAX_CONDITIONS 3     // conditions C(x) one element may hold

// Threads per workgroup of every 1-D compute pass. 256 is the measured sweet spot on lavapipe
// (8-wide groups run ~5x slower) and a multiple of every NVIDIA/AMD subgroup size.
#define WEFT_WORKGROUP_SIZE 256

// ---- Solver bindings (set 0, push descriptors). Every solver kernel uses a subset. ----
#define WEFT_BIND_POSITIONS 0       // vec4[N]: xyz position (m), w inverse mass (1/kg), read
#define WEFT_BIND_VELOCITIES 1      // vec4[N]: xyz velocity (m/s), read
#define WEFT_BIND_POSITIONS_OUT 2   // vec4[N]: positions written by the pass
#define WEFT_BIND_VELOCITIES_OUT 3  // vec4[N]: velocities written by the pass
#define WEFT_BIND_PREV_POSITIONS 4  // vec4[N]: positions at the start of the step (Verlet, RK4)
#define WEFT_BIND_SPRING_ROWS 5     // uint[N+1]: CSR row starts into the spring entries
#define WEFT_BIND_SPRINGS 6         // SpringEntry[2*S]: each spring stored once per endpoint

#define WEFT_BIND_SPRING_LINKS 41   // SpringLink[2*S]: the same rows as SPRINGS, 8 bytes per entry
#define WEFT_BIND_BASE_VELOCITIES 8  // vec4[N]: velocities at the step's start (RK4)
#define WEFT_BIND_ACCUM_POSITIONS 9  // vec4[N]: RK4's weighted sum of position slopes
#define WEFT_BIND_ACCUM_VELOCITIES 10  // vec4[N]: RK4's weighted sum of velocity slopes
// Elements (membranes, hinges, tethers, aerodynamic triangles): one table of every kind, and a
// CSR incidence row per particle naming (element, local slot) so each particle gathers its own.
#define WEFT_BIND_ELEMENTS 42        // Element[E]
#define WEFT_BIND_ELEMENT_ROWS 43    // uint[N+1]: row starts into the incidence entries
#define WEFT_BIND_ELEMENT_REFS 44    // uint[...]: element index << 2 | the particle's slot (0..3)
// Nesterov-accelerated Jacobi (verlet_relax, newton_sweep): each particle's last un-extrapolated
// Jacobi iterate x_k, read and written only at its own entry.
#define WEFT_BIND_LAST_JACOBI 37     // vec4[N]

// Seed 004's bounded spring force: StrainLimit[2S], the same rows as SPRINGS, the lengths between
// which each spring's force follows its length. Bound for every force pass; a one-entry placeholder
// (shorter than the spring table) when no material bounds its forces: then no spring is bounded.
#define WEFT_BIND_SPRING_BOUNDS 47
// A regular grid's springs read from the particle's index (shaders/grid_stencil.h): GridStencil,
// declared only by the kernels' "+grid-stencil" variants, which then declare no spring table.
#define WEFT_BIND_GRID_STENCIL 72
#define WEFT_BIND_GRID_REST_LENGTHS 73  // float[N * WEFT_GRID_REST_SLOTS]: the springs each particle starts
#define WEFT_GRID_REST_SLOTS 6u         // rest lengths a grid keeps per particle (shaders/grid_stencil.h)

// One element: up to four particles and its rest state. What rest, shape and the stiffnesses
// mean is the kind's (see its header). Unused nodes repeat the first.
struct Element {
  uvec4 nodes;      // particle indices
  vec4 rest;        // kind-specific rest state
  vec4 shape;       // kind-specific rest shape
  uint kind;        // WEFT_ELEMENT_*
  float stiffness0; // kind-specific; every condition's energy is stiffness/2 C^2
  float stiffness1;
  float damping;    // s: stiffness-proportional damping, each condition damped by damping * stiffness
};

// One spring as seen from one of its endpoints (gather layout: a particle sums its own row).
struct SpringEntry {
  uint other;         // index of the particle at the far end
  float restLength;   // m
  float stiffness;    // N/m
  float damping;      // N s/m, along the spring axis
};

// The half of a SpringEntry that distance constraints need: Verlet's relaxation reads this,
// 8 bytes per spring end instead of 16, which nearly halves that pass's memory traffic.
struct SpringLink {
  uint other;
  float restLength;  // m
};

// A regular grid's springs as seed 004 builds them (buildGrid): the twelve around each particle
// (structural, shear, bend) found from its index, each family's stiffness and damping one value, and
// the rest lengths six per particle beside it (WEFT_BIND_GRID_REST_LENGTHS, shaders/grid_stencil.h).
// buildSpringTable makes one only when it gives every particle exactly its row of the table, entry
// for entry and in the same order, so a kernel that reads it sums the same forces in the same order
// as one that reads the table: the same numbers from 24 bytes a particle instead of ~200.
struct GridStencil {
  uint width;   // particles per row; 0: the cloth is not read as a grid
  uint height;  // rows
  uint pad0, pad1;
  // Each family's (stiffness in N/m, damping in N s/m, 0, 0), in grid_stencil.h's family order:
  // structural along a row, structural along a column, shear, bend along a row, bend along a column.
  vec4 families[5];
};

// Push constants of every solver pass (64 bytes: half of the 128 every device guarantees).
struct StepParams {
  vec4 gravity;              // xyz m/s^2
  vec4 wind;                 // xyz wind velocity (m/s); w air drag coefficient (kg/s)
  float dt;                  // s, the substep
  uint particleCount;
  uint colliderCount;
  float constraintStiffness; // Verlet: fraction of the distance error removed per iteration, (0, 1]
  float relaxation;          // Verlet: Jacobi over-relaxation of the averaged correction, [1, 2)
  uint mode;                 // WEFT_MODE_*
  float omega;               // Verlet: this relaxation iteration's acceleration weight (accelerate())
  uint elementRefs;           // incidence entries of the element table; 0: the element gathers are skipped
  uint contactPairs;          // WEFT_CONTACT_PAIR_SLOTS when the gathers add each vertex's contact pairs, else 0
  uint pad0;
  uint pad1;
  uint pad2;
};

#ifdef __cplusplus
static_assert(sizeof(SpringEntry) == 16);
static_assert(sizeof(Element) == 64);
static_assert(sizeof(SpringLink) == 8);
static_assert(sizeof(GridStencil) == 96);
static_assert(sizeof(StepParams) == 80);
#endif

WEFT_GPU_END

#endif  // WEFT_LAYOUT_SOLVER_H
