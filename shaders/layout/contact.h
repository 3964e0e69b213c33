// Self- and cloth-cloth contact (contact_*.comp, solver/contact/): its bindings, modes, limits and
// push constants.
// One module of shaders/shared.h, which includes shaders/interop.h before it: include shared.h, not
// this file. std430 on the device; the static_asserts pin the C++ side to the same sizes.
#ifndef WEFT_LAYOUT_CONTACT_H
#define WEFT_LAYOUT_CONTACT_H

WEFT_GPU_BEGIN

// StepParams.mode of the contact passes.
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

#ifdef __cplusplus
static_assert(sizeof(ContactParams) == 92);
static_assert(sizeof(ContactScalars) == 60);
#endif

WEFT_GPU_END

#endif  // WEFT_LAYOUT_CONTACT_H
