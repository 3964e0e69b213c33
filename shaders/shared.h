// One source of truth for everything that crosses the C++/GLSL boundary: structs, binding indices,
// push-constant blocks and workgroup sizes. Included by every shader and by the host code.
// Layouts are std430 on the GPU; the static_asserts at the end pin the C++ side to the same sizes.
#ifndef WEFT_SHARED_H
#define WEFT_SHARED_H

#ifdef __cplusplus
#include <cstdint>
#include <glm/glm.hpp>
namespace weft::gpu {
using uint = uint32_t;
using vec4 = glm::vec4;
using mat4 = glm::mat4;
using uvec4 = glm::uvec4;
#endif

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
#define WEFT_BIND_COLLIDERS 7       // Collider[C]
#define WEFT_BIND_COLLIDER_GRID 65  // ColliderGrid: the hash grid over the mesh colliders' faces
#define WEFT_BIND_COLLIDER_CELLS 66  // uint[]: its lists (ColliderGrid says what lies where)
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
// Strain limiting (strain_limit.comp), bound only when some material limits its springs.
#define WEFT_BIND_STRAIN_LIMITS 45   // StrainLimit[2S]: the same rows as SPRINGS, each end's allowed lengths
#define WEFT_BIND_STRAIN_EXCESS 46   // float[N]: each particle's summed |excess| over its springs this iteration
// Tearing (tear_detect.comp), bound only when some material tears.
#define WEFT_BIND_TEAR_LIMITS 52     // TearLimit[2S]: the same rows as SPRINGS, each end's breaking length
#define WEFT_BIND_TEAR_LIST 53       // uint[1 + S]: [0] how many springs broke, then their model indices
// Seed 004's bounded spring force: StrainLimit[2S], the same rows as SPRINGS, the lengths between
// which each spring's force follows its length. Bound for every force pass; a one-entry placeholder
// (shorter than the spring table) when no material bounds its forces: then no spring is bounded.
#define WEFT_BIND_SPRING_BOUNDS 47
// A regular grid's springs read from the particle's index (shaders/grid_stencil.h): GridStencil,
// declared only by the kernels' "+grid-stencil" variants, which then declare no spring table.
#define WEFT_BIND_GRID_STENCIL 72
#define WEFT_BIND_GRID_REST_LENGTHS 73  // float[N * WEFT_GRID_REST_SLOTS]: the springs each particle starts
#define WEFT_GRID_REST_SLOTS 6u         // rest lengths a grid keeps per particle (shaders/grid_stencil.h)
// XPBD (xpbd_project.comp): the cloth's constraints in colour order, each colour a run no two of
// whose constraints move the same particle, and each constraint's multipliers.
#define WEFT_BIND_XPBD_CONSTRAINTS 54  // XpbdConstraint[K]
#define WEFT_BIND_XPBD_LAMBDAS 55      // vec4[K]: the step's multipliers, one per condition (springs: x)
// Self- and cloth-cloth contact (contact_*.comp, solver/contact/contact.h), bound only when contact is on.
#define WEFT_BIND_CONTACT_START 56     // vec4[N]: positions at the step's start, crossing-free
#define WEFT_BIND_CONTACT_LISTED 74    // vec4[N]: the start positions the candidates were listed at (contactListHolds)
#define WEFT_BIND_CONTACT_TOPOLOGY 57  // uint[]: triangles, edges and their per-vertex rows (ContactParams' offsets)
#define WEFT_BIND_CONTACT_CELLS 58     // uint[H]: per hash bucket, a count, then after the scatter its end
#define WEFT_BIND_CONTACT_ENTRIES 59   // uint[N]: particle indices sorted by hash bucket
#define WEFT_BIND_CONTACT_SCALARS 60   // ContactScalars
#define WEFT_BIND_CONTACT_SPHERES 63   // vec4[T + E]: the step's bounding spheres of the triangles, then the edges
#define WEFT_BIND_CONTACT_MARKS 64     // uint[N]: what contact did to each vertex this frame, WEFT_CONTACT_MARK_* bits
// The search's candidate pairs (contact_search), each listed once, by its owner: each vertex's own
// ContactParams::candidateSlots, vertex–triangle pairs from the first slot up (the vertex itself, a
// triangle), edge–edge pairs from the last slot down (an edge it owns, a later vertex's edge). A pair's
// id is its slot in the buffer, owner * candidateSlots + slot.
#define WEFT_BIND_CONTACT_CANDIDATES 70       // uvec2[N * ContactParams::candidateSlots]
#define WEFT_BIND_CONTACT_CANDIDATE_COUNTS 71 // uvec4[N]: vertex–triangle pairs, edge–edge pairs it owns, the
                                              // lower bound of the dropped pairs it is a corner of (float bits;
                                              // the list's reach when none), 0
// The incidence table (contact_incidence), which hands each listed pair to its four corners for
// contact_resolve: two rows a vertex, one for its vertex–triangle pairs (the first N) and one for its
// edge–edge pairs (the next N), each a count, then after the scan its run's start, then after the
// scatter its end; and the runs of pair ids. Every pair has four corners and an owner has at most
// candidateSlots pairs, so the runs fit in 4 * N * candidateSlots. And a bit a slot: whether its pair
// lies within the radius this step by its boxes (contact_pairs' cull), so
// that each corner need not test it again.
#define WEFT_BIND_CONTACT_INCIDENCE_ROWS 75   // uint[2 * N]
#define WEFT_BIND_CONTACT_INCIDENCES 76       // uint[4 * N * ContactParams::candidateSlots]
#define WEFT_BIND_CONTACT_PAIR_LIVE 77        // uint[N * ContactParams::candidateSlots / 32]
// The live pairs of the step (contact_pairs), each evaluated once by its owner for its four corners to
// read rather than each evaluating it, and handed to those corners alone: contact_resolve walks a
// vertex's live pairs, not every pair listed for it (a pile lists hundreds a vertex, a dozen within
// the radius). Their states (ContactPairState, WEFT_CONTACT_PAIR_STATE_VEC4S vec4s each), in the
// order the owners' atomics took, each owner's first state's place, and the live incidence table:
// two rows a vertex as in the incidence table above (a count, then its run's start, then its end),
// and runs of (pair id, state's place). A step whose live pairs pass ContactParams::pairStateCapacity
// stores neither: its resolve walks the whole incidence table and evaluates each pair at each corner,
// the same arithmetic (ContactScalars::unstoredSteps counts those steps).
#define WEFT_BIND_CONTACT_PAIR_STATES 78       // vec4[WEFT_CONTACT_PAIR_STATE_VEC4S * pairStateCapacity]
#define WEFT_BIND_CONTACT_PAIR_STATE_BASES 79  // uint[N]
#define WEFT_BIND_CONTACT_LIVE_ROWS 80         // uint[2 * N]
#define WEFT_BIND_CONTACT_LIVE_INCIDENCES 81   // uvec2[4 * pairStateCapacity]
// The pairs an implicit solve holds as contact elements (WEFT_ELEMENT_CONTACT), bound with the
// element tables for every gather: each vertex's own WEFT_CONTACT_PAIR_SLOTS, and how many it uses.
#define WEFT_BIND_CONTACT_PAIRS 67        // Element[N * WEFT_CONTACT_PAIR_SLOTS], the vertex as node 0
#define WEFT_BIND_CONTACT_PAIR_COUNTS 68  // uint[N]
#define WEFT_BIND_HANDLE_VERTICES 61   // HandleVertex[K]: the particles that handles carry along paths
#define WEFT_BIND_HANDLE_POSES 62      // HandlePose[G]: each handle's pose at the end of this step

// ---- Iterative solves (implicit integrators): scalar state and reductions stay on the GPU. ----
#define WEFT_BIND_SOLVE_SCALARS 11  // SolveScalars: the running solve's scalars (alpha, beta, residuals)
#define WEFT_BIND_PARTIALS 12       // float[]: one partial sum per workgroup of the last reducing pass
#define WEFT_BIND_INDIRECT 13       // uint[6]: [0..2] VkDispatchIndirectCommand of the per-particle
                                    // passes, zero groups once converged; [3..5] the full-size one
#define WEFT_BIND_STEP_LOG 14       // StepLog[substeps]: iterations and residual of every step
// Baraff & Witkin's modified preconditioned CG on the velocity change: implicit-cg's linearised
// implicit Euler, and imex's damping-only half steps (SolveParams' times choose the system).
#define WEFT_BIND_CG_DV 15          // vec4[N]: the unknown, delta v
#define WEFT_BIND_CG_R 16           // vec4[N]: residual r
#define WEFT_BIND_CG_C 17           // vec4[N]: search direction c
#define WEFT_BIND_CG_Q 18           // vec4[N]: A c, then the preconditioned residual s
#define WEFT_BIND_CG_PRECONDITIONER 19  // vec4[3N]: inverse of each particle's 3x3 diagonal block
#define WEFT_BIND_CG_FILTER 20      // vec4[N]: xyz contact normal, w = WEFT_FILTER_* (the constraint)
#define WEFT_BIND_CG_BLOCKS 40      // vec4[2S]: each spring end's system block (springSystemBlock)
#define WEFT_BIND_CG_RHS 69         // vec4[N]: b, the step's right-hand side, unfiltered (the finish's friction)
// Implicit Euler as a minimisation, by Newton iterations whose linear systems are solved by
// Chebyshev-accelerated block Jacobi (newton_*.comp). The partials, indirect arguments and step
// log are the shared ones above.
#define WEFT_BIND_NEWTON_ITERATE 30  // vec4[N]: the Newton iterate x_k (xyz m, w inverse mass)
#define WEFT_BIND_NEWTON_RHS 31      // vec4[N]: b = -grad F(x_k), pinned rows zero
#define WEFT_BIND_NEWTON_DX 32       // vec4[N]: Jacobi iterate y_j of the running linear solve
#define WEFT_BIND_NEWTON_DX_PREV 33  // vec4[N]: y_(j-1) in, y_(j+1) out (each particle its own entry)
#define WEFT_BIND_NEWTON_SCALARS 34  // NewtonScalars
#define WEFT_BIND_NEWTON_DIAGONAL 35   // vec4[2N]: inverse of each particle's 3x3 diagonal block, packed
                                       // symmetric, and its mass term m/h^2 + c/h (0: pinned)
#define WEFT_BIND_NEWTON_COUPLINGS 36  // vec4[2S]: each spring entry's block as (u, beta), B = u u^T + beta I
// Implicit Euler by SimCloth3's non-linear CG on positions and velocities (seed 000). The state at
// the step's start is bound as WEFT_BIND_PREV_POSITIONS / WEFT_BIND_BASE_VELOCITIES, the iterate
// (p', v') as WEFT_BIND_POSITIONS / WEFT_BIND_VELOCITIES where a pass gathers forces from it.
#define WEFT_BIND_NLCG_SCALARS 21       // NonlinearCgScalars: the running solve's scalars and its log
#define WEFT_BIND_NLCG_PARTIALS 22      // float[4 * groups]: per-workgroup partials, WEFT_NLCG_PARTIAL_* slots
#define WEFT_BIND_NLCG_INDIRECT 23      // uint[12]: WEFT_NLCG_GROUPS_* dispatch arguments
#define WEFT_BIND_NLCG_POSITIONS 24     // vec4[N]: the iterate p', updated in place (w inverse mass)
#define WEFT_BIND_NLCG_VELOCITIES 25    // vec4[N]: the iterate v', updated in place
#define WEFT_BIND_NLCG_RESIDUAL_P 26    // vec4[N]: residual, position half (m)
#define WEFT_BIND_NLCG_RESIDUAL_V 27    // vec4[N]: residual, velocity half times the velocity scale (m)
#define WEFT_BIND_NLCG_DIRECTION_P 28   // vec4[N]: search direction, position half
#define WEFT_BIND_NLCG_DIRECTION_V 29   // vec4[N]: search direction, velocity half

// SolveParams.step.mode of the single-workgroup scalar pass (cg_scalars.comp).
#define WEFT_SOLVE_BEGIN 0   // delta0 = deltaNew = sum of partials; open the iteration
#define WEFT_SOLVE_ALPHA 1   // pAp = sum; alpha = deltaNew / pAp
#define WEFT_SOLVE_BETA 2    // deltaNew = sum; beta = deltaNew / deltaOld; converged?
#define WEFT_SOLVE_WARM 3    // sum = r.s from the last solve's answer: kept when below delta0 (cgScalarStep)

// SolveParams.step.mode of cg_warm.comp, the warm start of a solve (SolveParams.warmStart).
#define WEFT_CG_WARM_RESIDUAL 0  // q = filter(b - A dv0) of the guess cg_setup left in dv; partials r.s
#define WEFT_CG_WARM_CHOOSE 1    // the guess kept: r = q, c = filter(P q); else dv = 0 (b's own residual)

// NewtonParams.step.mode of the single-workgroup scalar pass (newton_scalars.comp).
#define WEFT_NEWTON_BEGIN 0  // after newton_gradient: sum = |b|^2; open a linear solve
#define WEFT_NEWTON_CHECK 1  // after a measuring sweep: sum = |r_j|^2 of the iterate it read; stop?
// Sweeps between convergence checks. A check costs a reduction inside the sweep and a
// one-workgroup pass (a dispatch, ~35 us on lavapipe, about an eighth of a 48x48 sweep); checking
// every 8th sweep overshoots by 3.5 sweeps on average and saves 7 of 8 of those costs.
#define WEFT_NEWTON_CHECK_INTERVAL 8
// NonlinearCgParams.step.mode of the single-workgroup scalar pass (nlcg_scalars.comp).
#define WEFT_NLCG_BEGIN 0    // maxt0 = max of the start residual; open the step; then as FRESH
#define WEFT_NLCG_FRESH 1    // a residual taken at the iterate: converged, diverged, or the next beta
#define WEFT_NLCG_SECANT 2   // t0 and the trial point's residual: alpha, and whether to confirm

// NonlinearCgScalars.status, also StepLog.converged of a nonlinear-cg step.
#define WEFT_NLCG_RUNNING 0u
#define WEFT_NLCG_CONVERGED 1u
#define WEFT_NLCG_DIVERGED 2u    // the host retries the step at half the time step

// Slots of the partials buffer: partials[slot * partialCount + workgroup].
#define WEFT_NLCG_PARTIAL_RR 0   // sum of r.r
#define WEFT_NLCG_PARTIAL_MAX 1  // max over entries of |r_i|^2
#define WEFT_NLCG_PARTIAL_RD 2   // sum of r.d (the residual pass: t1 at the trial point)
#define WEFT_NLCG_PARTIAL_T0 3   // sum of r.d (the direction pass: t0)
#define WEFT_NLCG_PARTIAL_MAX0 4  // max over entries of |r_i|^2 at the step's start (the start pass)
#define WEFT_NLCG_PARTIAL_SLOTS 5

// VkDispatchIndirectCommand offsets (in uints) in the indirect buffer; the scalar pass sets each
// to the full size or to zero groups.
#define WEFT_NLCG_GROUPS_ITERATE 0   // direction, trial residual, add: while running
#define WEFT_NLCG_GROUPS_CONFIRM 3   // the residual at the iterate: when the scalars ask for one
#define WEFT_NLCG_GROUPS_FINISH 6    // collide the result: once converged
#define WEFT_NLCG_GROUPS_FULL 9      // the full-size dispatch, written by the host

#define WEFT_FILTER_FREE 0.0        // three free directions
#define WEFT_FILTER_CONTACT 1.0     // the normal direction is constrained (resting on a collider)
#define WEFT_FILTER_PINNED 2.0      // all three constrained
#define WEFT_NO_COLLIDER 0xffffffffu  // firstRestingCollider: none holds the particle

// ---- Render bindings (set 0, push descriptors). ----
#define WEFT_BIND_RENDER_POSITIONS 0   // vec4[N] positions, pulled by the vertex shader
#define WEFT_BIND_RENDER_NORMALS 1     // vec4[N] normals written by normals.comp
#define WEFT_BIND_RENDER_TRIANGLES 2   // uint[3T] triangle corner indices
#define WEFT_BIND_RENDER_VERTEX_TRI_ROWS 3  // uint[N+1] CSR rows: triangles around each vertex
#define WEFT_BIND_RENDER_VERTEX_TRIS 4      // uint[...] triangle indices around each vertex
#define WEFT_BIND_RENDER_CONTACT_MARKS 5    // uint[N] WEFT_CONTACT_MARK_* bits per particle (contact_marks.vert)

// Collider kinds (Collider.kind).
#define WEFT_COLLIDER_PLANE 0   // shape = (unit normal xyz, offset d): the solid side is dot(n, x) < d
#define WEFT_COLLIDER_SPHERE 1  // shape = (center xyz, radius)
#define WEFT_COLLIDER_CAPSULE 2 // shape = (end a xyz, radius), shape2 = (end b xyz, 0): the points within radius of segment ab
#define WEFT_COLLIDER_BOX 3     // shape = (center xyz, 0), shape2 = (half extents xyz, 0), shape3 = rotation quaternion (x, y, z, w)
#define WEFT_COLLIDER_TRIANGLE 4  // one triangle of a mesh collider: shape = (corner a xyz, half thickness), shape2 = (corner b xyz, radius of the corners about their mean), shape3 = (corner c xyz, 0): the points within the half thickness of triangle abc

// Which collider kinds a kernel may meet: a specialization constant (constant_id
// WEFT_SPEC_COLLIDER_KINDS) of the kernels that collide, one bit per kind (WEFT_COLLIDER_KIND_BIT)
// plus WEFT_COLLIDER_GRID_BIT when the collider grid is in use. The solver sets the bits of the
// colliders it has (GpuState::specialization), so the driver drops the code of the others
// before it compiles: on a device that runs every branch under a mask (lavapipe), the box and mesh
// tests cost a plane-only cloth their whole price. Unspecialized, a kernel meets every kind.
#define WEFT_SPEC_COLLIDER_KINDS 0
#define WEFT_COLLIDER_KIND_BIT(kind) (1u << (kind))
#define WEFT_COLLIDER_GRID_BIT (1u << 5)
#define WEFT_ALL_COLLIDER_KINDS 0x3fu

// StepParams.mode values.
#define WEFT_MODE_EXPLICIT_EULER 0    // x' = x + v dt,  v' = v + a dt (seed 000)
#define WEFT_MODE_SYMPLECTIC_EULER 1  // v' = v + a dt,  x' = x + v' dt
#define WEFT_MODE_RELAX 0             // verlet_relax: an inner Jacobi iteration
#define WEFT_MODE_RELAX_FINAL 1       // verlet_relax flag: last iteration, also collides and derives v
#define WEFT_MODE_RELAX_NESTEROV 2    // verlet_relax flag: omega is Nesterov's momentum (see accelerate())
#define WEFT_STRAIN_MEASURE 0         // strain_limit: sum each particle's springs' excess over their limits
#define WEFT_STRAIN_CORRECT 1         // strain_limit: one Jacobi iteration of the corrections
#define WEFT_STRAIN_CORRECT_FINAL 2   // strain_limit: the last iteration, which also collides
#define WEFT_CONTACT_MEASURE 0        // contact_hash: the primitives' spheres and the longest edge at the step's start
#define WEFT_CONTACT_COUNT 1          // contact_hash: particles per hash bucket
#define WEFT_CONTACT_SCATTER 2        // contact_hash: each particle into its bucket's run
#define WEFT_CONTACT_SORT 3           // contact_hash: each bucket's run into particle order
#define WEFT_CONTACT_DRIFT 4          // contact_hash: each particle's move since the candidates were listed
#define WEFT_CONTACT_INCIDENCE_SCAN 5     // contact_scan: the incidence counts into starts
#define WEFT_CONTACT_INCIDENCE_SCATTER 6  // contact_incidence: each listed pair into its corners' runs
#define WEFT_CONTACT_PAIR_CULL 7          // contact_pairs, every step: each listed pair's cull and state, once
#define WEFT_CONTACT_LIVE_SCAN 8          // contact_scan, every step: the live incidence counts into starts
#define WEFT_CONTACT_LIVE_SCATTER 9       // contact_pairs, every step: each live pair into its corners' live runs
#define WEFT_CONTACT_PAIR_SLOTS 8u    // contact elements a vertex keeps for the next implicit solve: its nearest pairs
// Candidate pairs a vertex's search lists as their owner (both kinds together), at most; fewer where a
// device's largest storage buffer cannot hold them for every vertex (contactCandidateSlots), never
// fewer than the second. Beyond them a pair is not evaluated: it pushes nothing, and only a lower
// bound on its distance limits its corners' moves, which keeps the guarantee. A vertex owns about a
// quarter of the pairs it is a corner of on average, but the owner of an edge–edge pair is its lower
// edge's: a vertex numbered before the layers piled on it owns most of their pairs with its edges
// (the pile at rest: 440 pairs a vertex as a corner, 110 owned, 433 owned at the most).
#define WEFT_CONTACT_CANDIDATE_SLOTS 512u
#define WEFT_CONTACT_MIN_CANDIDATE_SLOTS 32u  // and a power of two: an owner's live bits are whole words
// The live pairs a step stores (WEFT_BIND_CONTACT_PAIR_STATES): room for this many a vertex. The pile
// at rest has about 9 a vertex (those within the radius); a step with more evaluates each pair at
// each corner instead, so a crowded step is slower, never wrong.
#define WEFT_CONTACT_PAIR_STATES_PER_VERTEX 16u
#define WEFT_CONTACT_PAIR_STATE_VEC4S 5u  // a ContactPairState's 17 floats, packed (contact_pairs.comp)
// A live run's entry keeps the corner (0..3) in the low bits of its state's place (liveEntry), which
// leaves the place 32 - WEFT_CONTACT_LIVE_CORNER_BITS bits (contactPairStateCapacity).
#define WEFT_CONTACT_LIVE_CORNER_BITS 2u
// What contact did to a vertex in any step of the frame (ContactMarks, drawn by the viewer's contact
// overlay): bits, or-ed over the frame's steps and cleared at its start.
#define WEFT_CONTACT_MARK_NEAR 1u     // a primitive it is a corner of came within the radius of a foreign one
#define WEFT_CONTACT_MARK_PUSHED 2u   // a pair nearer than the thickness pushed its target
#define WEFT_CONTACT_MARK_LIMITED 4u  // its move was cut short by its bound
#define WEFT_CONTACT_MARK_HELD 8u     // nearer than the hold distance: it did not move (WEFT_CONTACT_HOLD_FRACTION)
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

// A spring end's allowed length range (Provot's deformation constraint), in a table of its own beside
// the spring table rather than in SpringEntry: SpringEntry's 16 bytes are full, and every force gather
// of every scene reads them, while only scenes whose material asks for a limit need these 8 bytes
// (none are allocated otherwise). Absolute lengths, not fractions, so the kernel needs no rest length.
// maxLength 0: not limited (bend springs, and springs of cloths whose material has no limit).
struct StrainLimit {
  float minLength;  // m, (1 - compression) L
  float maxLength;  // m, (1 + stretch) L
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

// A spring end's breaking length (a tearing material's springs), beside the spring table for the same
// reason as StrainLimit. The model's spring index lets the detection name the spring that broke.
// maxLength 0: the spring does not tear.
struct TearLimit {
  float maxLength;  // m, (1 + tear strain) L
  uint spring;      // index into ClothModel::springs
};

struct Collider {
  vec4 shape;       // see WEFT_COLLIDER_*
  vec4 shape2;      // the capsule's second end, the box's half extents, a triangle's second corner
  vec4 shape3;      // the box's rotation (unit quaternion, w last), a triangle's third corner
  uint kind;        // WEFT_COLLIDER_*
  float friction;   // Coulomb coefficient of sliding, applied to the tangential velocity on contact
  float margin;     // m kept between the cloth and the surface
  float staticFriction;  // Coulomb coefficient of sticking, at least friction
  // A moving collider's rigid motion over this step (solver/model/kinematics.h): the surface at x moves
  // with velocity.xyz + cross(spin.xyz, x - pivot.xyz). All zero for one that stays put.
  vec4 velocity;    // xyz m/s: the pivot's velocity
  vec4 spin;        // xyz rad/s: angular velocity
  vec4 pivot;       // xyz m: the point the spin turns about, where it is at the step's end
};

// A hash grid over the faces of mesh colliders, so a particle tests the faces near it rather than
// every face (solver/model/collider_grid.h builds it on the host, once for colliders that stay put and once
// a frame for those that move). Its lists, one uint array at WEFT_BIND_COLLIDER_CELLS:
//   [0, alwaysCount)                 colliders every particle tests, ascending: all but the gridded faces
//   [alwaysCount, + tableSize)       each bucket's end in the entries (its start: the bucket before's end)
//   [alwaysCount + tableSize, ...)   the entries: per bucket, ascending collider indices
// A face is entered in every cell within faceShellReach + allowance of its corners' box at any step
// of the frame (faceShellReach: the distance from the face past which colliderDepth and collideFrom
// leave a particle and its step alone), so the faces a particle's cell does not list leave it alone
// while it moves less than the allowance over a step: colliderGridHeld checks that afterwards, and a
// particle that moved more tests every collider instead. Either way the result is the same.
struct ColliderGrid {
  uint tableSize;    // buckets, a power of two; 0: no grid, every particle tests every collider
  uint alwaysCount;
  float cellSize;    // m
  float allowance;   // m: what a particle's step, the surface's and the pushes may add up to (colliderGridHeld)
  vec4 reference;    // xyz m: a point the faces' spin is measured from; w m: the farthest pivot from it
  float maxSpeed;    // m/s: the fastest face's velocity (its pivot's)
  float maxSpin;     // rad/s: the fastest face's angular velocity
  uint pad0;
  uint pad1;
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

// The scalar state of an iterative solve, in a device buffer: passes read alpha and beta from
// here, so no iteration needs the host.
struct SolveScalars {
  float deltaNew;    // r.s of this iteration
  float deltaOld;    // r.s of the last one
  float delta0;      // r.s at the start: the solve stops once deltaNew <= tolerance^2 delta0
  float alpha;       // step length along the direction
  float beta;        // weight of the old direction in the new one
  float pAp;         // c.(A c), the reduction alpha divides by
  uint iterations;   // iterations done in this step
  uint converged;    // 1 once stopped (later iterations do nothing): converged, capped or stalled
  float deltaLeast;  // the smallest r.s so far: a solve whose r.s climbs far above it has stalled (cg.h)
};

// What one step's solve did, logged on the GPU and read once per frame (implicit-cg) or once per
// step (nonlinear-cg, whose host decides from it whether to retry the step).
struct StepLog {
  uint iterations;
  float residual;    // implicit-cg: sqrt(deltaNew / delta0); nonlinear-cg: sqrt(max_i |r_i|^2) (m)
  uint converged;    // 1 converged; nonlinear-cg: WEFT_NLCG_RUNNING / CONVERGED / DIVERGED
  float dt;          // s, the step actually taken (adaptive integrators)
};

// Push constants of an iterative-solve pass: the step's parameters plus the solve's own.
// The CG passes (cg_*.comp) solve one linearised velocity update, weighted by three times:
//   (M - a df/dv - a l df/dx) dv = a (f0 + l df/dx v0),   v' = v0 + dv,   x' = x0 + d v'
// with a = forceTime, l = stiffnessTime, d = driftTime. implicit-cg: a = l = d = h (linearised
// implicit Euler). imex: a = h/2 and l = 0 (elastic forces explicit, damping implicit), d = h on
// the first half step and 0 on the second. One set of kernels for both; the host chooses the times.
struct SolveParams {
  StepParams step;
  float tolerance;      // relative: stop when |r|_P <= tolerance |r0|_P
  uint maxIterations;
  uint partialCount;    // workgroups that wrote partial sums (single-workgroup passes sum these)
  uint substep;         // index into the step log
  float forceTime;      // s: a, the time the forces act over (the damping Jacobian's weight)
  float stiffnessTime;  // s: l, how far ahead the elastic forces are taken implicitly (0: explicitly)
  float driftTime;      // s: d, how far the finish pass moves positions with the new velocity
  uint warmStart;       // 1: start from the last solve's answer (filtered) where it leaves a smaller residual
};

// The scalar state of a Newton step's linear solves, in a device buffer (newton_scalars.comp and
// newtonScalarStep() in shaders/newton.h).
struct NewtonScalars {
  float rhsNorm2First;  // |b|^2 of the step's first Newton iteration: every solve aims at tolerance times its root
  float residualNorm2;  // |r|^2 of the running solve's last measured iterate
  uint iterations;      // index j of that iterate (the answer once the solve stops)
  uint stopped;         // 1 once the running solve stopped (tolerance reached or the cap)
  uint stepIterations;  // Jacobi iterations of the whole step, summed over its Newton iterations
  float worstResidual;  // largest relative residual a solve of this step stopped at
  uint stepConverged;   // 1 while every solve of the step reached the tolerance
  uint pad;
};

// Push constants of the Newton passes: an iterative solve's parameters plus the sweep's own.
struct NewtonParams {
  StepParams step;
  float tolerance;       // relative: a solve stops when |r| <= tolerance |b_first|
  uint maxIterations;    // Jacobi iterations per linear solve (per Newton iteration)
  uint partialCount;     // workgroups that wrote partial sums
  uint substep;          // index into the step log
  float omega;           // this sweep's acceleration weight (accelerate())
  uint measure;          // 1: the sweep writes partial sums of |r|^2 for a check; 0: it skips the reduction
  uint newtonIteration;  // 0 opens the step's log
  uint nesterov;         // 1: omega is Nesterov's momentum; 0: Chebyshev's weight
};

// The scalar state of a nonlinear-cg step, in a device buffer (names as in seed 000, except its
// line-search step k, here alpha: k is the velocity scale). The log at the end is what the host
// reads back after each step.
struct NonlinearCgScalars {
  float t;           // r.r of the current residual
  float oldt;        // t when the last direction was chosen
  float t0;          // r.d before the trial move
  float t1;          // r.d at the trial point x + d
  float alpha;       // secant step along d: -t0 / (t1 - t0)
  float beta;        // weight of the old direction: t / oldt (0 on the first iteration)
  float maxt;        // max_i |r_i|^2 of the current residual (m^2)
  float maxt0;       // the same at the step's start: the divergence reference
  uint iterations;   // line searches done
  uint status;       // WEFT_NLCG_RUNNING / CONVERGED / DIVERGED
  uint confirm;      // 1: the next confirmation pass evaluates the residual at the iterate
  float limit;       // the step's convergence test: every |r_i|^2 below it (nlcgBegin)
  StepLog log;       // iterations, sqrt(maxt) (m), status, dt
};

// Push constants of the nonlinear-cg passes.
struct NonlinearCgParams {
  StepParams step;       // step.mode: WEFT_NLCG_* in the scalar pass
  float threshold;       // seed 000's precision: converged when every |r_i|^2 < threshold (m^2),
                         // the tolerance squared
  float velocityScale;   // k (s): velocity residuals are scaled by it, velocity moves divided by it
  uint maxIterations;
  uint partialCount;     // workgroups of a per-particle pass (partials per slot)
  float relative;        // 0, or every |r_i| also below this fraction of the step's explicit move
  uint pad0;
  uint pad1;
  uint pad2;
};

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

// One XPBD constraint: a spring (node1 its other end) or an elastic element (node1 ==
// WEFT_XPBD_ELEMENT, node0 its index in the element table). Stiffness and damping are the spring's
// (N/m, N s/m); an element's are its own, read from the element table. A tether laid out as
// addTethers lays it out (`form` WEFT_XPBD_TETHER) carries its element's particle, pin, limit,
// stiffness and damping ratio here too, so that its projection reads nothing else: the element
// read through the constraint was a cache miss a tether on the CPU backend.
#define WEFT_XPBD_ELEMENT 0xffffffffu
#define WEFT_XPBD_TETHER 1u
struct XpbdConstraint {
  uint node0;
  uint node1;
  float restLength;  // m; a tether's limit (its element's rest.x)
  float stiffness;   // N/m; 0: the spring does nothing
  float damping;     // N s/m, along the spring; a tether's element's damping (a ratio to its stiffness)
  uint tetherParticle;  // a tether's particle (its element's nodes.x)
  uint tetherAnchor;    // and the pinned particle it hangs from (nodes.y)
  uint form;            // WEFT_XPBD_TETHER for a tether carried in full, else 0
};

// Push constants of xpbd_project.comp: the step's parameters and the colour's run.
struct XpbdParams {
  StepParams step;
  uint first;       // the colour's first constraint
  uint count;       // constraints in the colour
  uint iteration;   // 0: the multipliers start from zero (nothing is read)
  uint keepMultipliers;  // 1: another sweep follows and reads them; 0: the last sweep writes none
};

// Push constants of the contact passes (contact_hash.comp, contact_scan.comp, contact_resolve.comp).
// The topology buffer holds, at these offsets (in uints): triangles (3 per, sorted by their smallest
// corner), edges (2 per, smaller index first, sorted), and four CSR rows of N + 1 starts each: the
// triangles around each vertex, the edges around each vertex, and the runs of triangles and edges
// whose smallest corner is that vertex (each pair of primitives is visited once per vertex).
struct ContactParams {
  float radius;         // m: pairs nearer than this limit how far their corners may move
  float thickness;      // m: pairs nearer than this are pushed apart
  float dt;             // s: the step, for the velocity that goes with a move
  uint particleCount;
  uint tableSize;       // hash buckets, a power of two
  uint mode;            // WEFT_CONTACT_*
  uint triangleCount;
  uint edgeCount;
  uint trianglesAt;     // offsets into the topology buffer, in uints
  uint edgesAt;
  uint triangleRowsAt;  // N + 1 starts into the triangle lists that follow
  uint triangleListAt;  // 3T triangle indices
  uint edgeRowsAt;      // N + 1 starts into the edge lists that follow
  uint edgeListAt;      // 2E edge indices
  uint ownedTriangleRowsAt;  // N + 1 starts into the sorted triangles
  uint ownedEdgeRowsAt;      // N + 1 starts into the sorted edges
  float staticFriction;      // Coulomb coefficients between cloth and cloth
  float kineticFriction;
  uint frictionAt;           // 0: every particle uses the two above; else N pairs (static, kinetic) as
                             // float bits, a negative static meaning the two above (contactPairFriction)
  uint collectPairs;         // 1: contact_resolve keeps each vertex's nearest pairs as contact elements
  uint candidateSlots;       // each vertex's slots for candidate pairs (contactCandidateSlots)
  uint colliderCount;        // the step's colliders, which a vertex resting on one grips (colliderGripAll)
  uint pairStateCapacity;    // the live pairs' states the device can store (WEFT_BIND_CONTACT_PAIR_STATES)
};

// What the contact passes keep on the device: the step's measure, and the frame's statistics.
// Distances are non-negative floats kept as their bits, so atomicMin/atomicMax order them.
struct ContactScalars {
  uint maxEdgeBits;       // the step's longest edge at its start (m), which sizes the hash cells
  uint driftLow[3];       // the box of the vertices' moves since the candidates were listed: its low and
  uint driftHigh[3];      // high corner (m), as orderedFloatBits (contact.h)
  uint minDistanceBits;   // the frame's smallest distance between primitives sharing no vertex (m)
  uint contactVertices;   // the frame's sum over steps of the vertices pushed apart
  uint limitedVertices;   // the frame's sum over steps of the vertices whose move was cut short
  uint nearVertices;      // the frame's sum over steps of the vertices with a pair within the radius (contacts found)
  uint crowdedVertices;   // the frame's sum over steps of the vertices owning more candidate pairs than their
                          // slots (ContactParams::candidateSlots): those past them pushed nothing
  uint searchSteps;       // the frame's steps that searched; the others evaluated an earlier step's list
                          // (contactListHolds)
  uint pairStates;        // the step's live pairs, counted as their owners store their states (contact_pairs)
  uint unstoredSteps;     // the frame's steps whose live pairs passed ContactParams::pairStateCapacity
};

// Push constants of normals.comp.
struct NormalsParams {
  uint vertexCount;
  uint pad0;
  uint pad1;
  uint pad2;
};

#ifdef __cplusplus
static_assert(sizeof(SpringEntry) == 16);
static_assert(sizeof(Element) == 64);
static_assert(sizeof(Collider) == 112);
static_assert(sizeof(ColliderGrid) == 48);
static_assert(sizeof(HandleVertex) == 32);
static_assert(sizeof(HandlePose) == 48);
static_assert(sizeof(HandleParams) == 16);
static_assert(sizeof(SpringLink) == 8);
static_assert(sizeof(TearLimit) == 8);
static_assert(sizeof(StrainLimit) == 8);
static_assert(sizeof(GridStencil) == 96);
static_assert(sizeof(StepParams) == 80);
static_assert(sizeof(XpbdConstraint) == 32);
static_assert(sizeof(XpbdParams) == 96);
static_assert(sizeof(ContactParams) == 92);
static_assert(sizeof(ContactScalars) == 60);
static_assert(sizeof(RenderParams) == 128);
static_assert(sizeof(SolveScalars) == 36);
static_assert(sizeof(StepLog) == 16);
static_assert(sizeof(SolveParams) == 112);
static_assert(sizeof(NormalsParams) == 16);
static_assert(sizeof(NewtonScalars) == 32);
static_assert(sizeof(NewtonParams) == 112);
static_assert(sizeof(NonlinearCgScalars) == 64);
static_assert(sizeof(NonlinearCgParams) == 112);
}  // namespace weft::gpu
#endif

#endif  // WEFT_SHARED_H
