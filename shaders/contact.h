// Contact between primitives of the cloth that share no corner (self-contact, and cloth against
// cloth, since several cloths are one model), written once for contact_*.comp and solver/contact/contact.cpp.
// Pure functions of values. docs/contact.md gives the argument; in short:
//  - the guarantee: at the step's start no edge crosses a triangle. A corner moves by at most
//    WEFT_CONTACT_BOUND_FRACTION times the smallest distance between primitives it belongs to (or the
//    radius, for primitives farther apart than that). Every point of a primitive moves by a convex
//    combination of its corners' moves, so two primitives d apart close by less than d all along the
//    straight moves: no vertex ever reaches a triangle, no edge an edge, so no edge crosses a triangle.
//  - the offset: pairs within the radius whose targets come nearer than the thickness are pushed
//    apart (a Jacobi average of the pushes that would bring each back to the thickness), so the
//    distances the bound divides stay near the thickness rather than shrinking step by step.
// Included by physics.h.
#ifndef WEFT_CONTACT_H
#define WEFT_CONTACT_H

// A corner may move this fraction of its nearest foreign primitive's distance in a step: below
// 1/2, with the rest kept as a margin for float rounding in the distances.
#define WEFT_CONTACT_BOUND_FRACTION 0.45f
#define WEFT_CONTACT_HOLD_FRACTION 0.02f  // of the thickness: nearer than this, a corner does not move (contactBound)
// Hash cells past this many cells from the origin are folded onto the last one (no int overflow;
// only more candidates in one bucket, never fewer).
#define WEFT_CONTACT_MAX_CELL 1.0e8f

#include "contact_geometry.h"

// Contact pairs as elements of the next implicit solve (elements/contact_pair.h). The condition acts
// from this multiple of the thickness (at most the radius), so the solve meets a pair before the
// contact pass would have to push it, and a layer it holds up rests a quarter of the thickness above
// where the pass alone would leave it; its stiffness is this multiple of the pair's effective
// mass (1 / sum g^2 w) over the step squared, stiff enough that one step takes up most of a
// penetration, which an implicit step bears at any multiple; and its damping is this many steps
// (stiffness-proportional), about critical for that stiffness, so a pair does not bounce apart.
#define WEFT_CONTACT_FORCE_REACH 1.25f
#define WEFT_CONTACT_FORCE_STIFFNESS 1.0f
#define WEFT_CONTACT_FORCE_DAMPING 2.0f

// Which of its pairs within the radius a vertex keeps for the next solve, when it has more than
// WEFT_CONTACT_PAIR_SLOTS: the lowest contactKeepRank. A sheet lying flat on another has dozens of
// pairs at nearly one distance (24 vertex-triangle and 62 edge-edge pairs a vertex, two 12 x 12
// sheets stacked at 4.7 mm): kept by their exact distances, which 8 those were changed from step to
// step with the sheet's smallest motions, and so did the support under each vertex, and the upper
// sheet bounced by 1 mm a frame, never settling. The rank takes the distance in steps of
// WEFT_CONTACT_KEEP_STEP of the thickness, so that pairs within a step of each other are ordered by
// a fixed hash of their corners and the choice holds still while the sheets barely move; and it
// counts an edge-edge pair WEFT_CONTACT_KEEP_EDGE_BIAS of the thickness farther than it is, so that
// a flat layer's support is its vertex-triangle pairs, whose corners carry the weight where it
// lies, rather than whichever crossings of its edges came first. An edge-edge pair nearer by more
// than that, as where edges cross at an angle in a fold, still comes first.
#define WEFT_CONTACT_KEEP_STEP 0.05f
#define WEFT_CONTACT_KEEP_EDGE_BIAS 0.25f

WEFT_FN float contactKeepRank(float d, bool edges, uvec4 nodes, float thickness) {
  float biased = d + (edges ? WEFT_CONTACT_KEEP_EDGE_BIAS * thickness : 0.0f);
  uint hash = (nodes.x * 73856093u) ^ (nodes.y * 19349663u) ^ (nodes.z * 83492791u) ^ (nodes.w * 2654435761u);
  return floor(biased / (WEFT_CONTACT_KEEP_STEP * thickness)) + float(hash & 1023u) * (1.0f / 1024.0f);
}

WEFT_FN float contactForceReach(float thickness, float radius) {
  float reach = WEFT_CONTACT_FORCE_REACH * thickness;
  return reach < radius ? reach : radius;
}

// What the solve's own contact forces (reach.y > 0: the integrator held contact pairs) did to a
// vertex this step, summed over its pairs inside their reach (contactForceReach): their presses,
// each the normal move its force gave the vertex (WEFT_CONTACT_FORCE_STIFFNESS times how far inside
// the reach the pair ended, times the vertex's share), weighted by each pair's static and kinetic
// coefficients; and the tangential move that would undo each pair's slip at the vertex, averaged by
// its part in the pair. Coulomb's law is then applied at the vertex (contactGripMove): the presses
// of its pairs add up to the weight they carry, while each pair's slip is the vertex's own. Without
// it, a layer the solve holds up is never pushed by this pass and would slide as on ice.
struct ContactGrip {
  vec4 undo;   // xyz: sum of |g| times the move undoing each pair's tangential slip; w: sum of |g|
  vec3 press;  // xy: sum of mu_s and mu_k times each pair's press (m); z: the pairs pressed
};
WEFT_FN ContactGrip noGrip() {
  ContactGrip grip;
  grip.undo = vec4(0.0f);
  grip.press = vec3(0.0f);
  return grip;
}
// The vertex's friction move from its grip: its slip undone within mu_s times its presses
// (sticking), else shortened by mu_k times them (sliding). The solve held at most
// WEFT_CONTACT_PAIR_SLOTS of the vertex's pairs, and the presses of a layer at rest are alike, so
// the sum is scaled to that many: otherwise a vertex with a dozen pairs in reach (a sheet lying flat
// on another: its edges cross many edges at one height) would grip with half as much again.
WEFT_FN vec3 contactGripMove(ContactGrip grip) {
  if (!(grip.undo.w > 0.0f)) return vec3(0.0f);
  float slots = float(WEFT_CONTACT_PAIR_SLOTS);
  float held = grip.press.z > slots ? slots / grip.press.z : 1.0f;
  vec3 undo = xyz(grip.undo) / grip.undo.w;
  float len = length(undo);
  if (len <= held * grip.press.x) return undo;
  float keep = held * grip.press.y / len;
  return undo * (keep < 1.0f ? keep : 1.0f);
}

// A vertex's sums over its pairs' shares (contact_resolve), in fixed point: 64-bit two's complement
// counts of 2^-40 (of a metre, for the pushes), in two words (x low, y high). Their sums are exact,
// so they come out the same in whatever order the pairs are met: the device hands each vertex its
// pairs in the order its atomics happened to take (contact_incidence), and sorting every vertex's
// pairs into one order cost more than the rest of contact together (a heap sort a vertex: 31 of 46 ms
// a step on the pile's first second on lavapipe). 2^-40 m is far below a float position's rounding
// at a metre (2^-23 m); the range is +-2^23 m.
WEFT_FN uvec2 fixedOf(float x) {
  // The magnitude's whole units of 2^-8 and its part below one (exact: whole <= a < whole + 1),
  // then the two's complement for a negative x.
  float a = clamp(abs(x) * 256.0f, 0.0f, 1073741824.0f);
  float whole = floor(a);
  uvec2 s = uvec2(uint((a - whole) * 4294967296.0f), uint(whole));
  if (x < 0.0f) s = uvec2(~s.x + 1u, ~s.y + (s.x == 0u ? 1u : 0u));
  return s;
}
WEFT_FN uvec2 fixedAdd(uvec2 a, uvec2 b) {
  uint low = a.x + b.x;
  return uvec2(low, a.y + b.y + (low < a.x ? 1u : 0u));
}
WEFT_FN float fixedValue(uvec2 s) {
  bool negative = (s.y & 0x80000000u) != 0u;
  if (negative) s = uvec2(~s.x + 1u, ~s.y + (s.x == 0u ? 1u : 0u));  // the magnitude
  float a = float(s.y) * (1.0f / 256.0f) + float(s.x) * (1.0f / 1099511627776.0f);
  return negative ? -a : a;
}

struct ContactSums {
  uvec2 push[3];
  uvec2 weights;
  uvec2 undo[4];   // ContactGrip's
  uvec2 press[3];
};
WEFT_FN ContactSums noSums() {
  ContactSums s;
  for (int k = 0; k < 3; ++k) {
    s.push[k] = uvec2(0u);
    s.press[k] = uvec2(0u);
  }
  for (int k = 0; k < 4; ++k) s.undo[k] = uvec2(0u);
  s.weights = uvec2(0u);
  return s;
}
// Whether a corner's share (contactShare's, its grip made from noGrip()) adds anything to a sum:
// contactShare pushes only a corner it weights (weight |g| > 0), and grips only with |g| > 0 in
// grip.undo.w, so a share with neither is +0 in every term. Most pairs within the radius are not
// pressed: a pile's layers lie a few thicknesses apart.
WEFT_FN bool shareAddsSomething(float weight, ContactGrip grip) { return weight != 0.0f || grip.undo.w != 0.0f; }
// One corner's share of a pair (contactCornerShare's push r.yzw, its weight, and the grip it made
// from noGrip()) into the vertex's sums; a share that adds nothing is passed over (adding +0 to a
// fixed-point sum leaves it as it is).
WEFT_FN void addShare(WEFT_INOUT(ContactSums) s, vec4 r, float weight, ContactGrip grip) {
  if (!shareAddsSomething(weight, grip)) return;
  s.push[0] = fixedAdd(s.push[0], fixedOf(r.y));
  s.push[1] = fixedAdd(s.push[1], fixedOf(r.z));
  s.push[2] = fixedAdd(s.push[2], fixedOf(r.w));
  s.weights = fixedAdd(s.weights, fixedOf(weight));
  for (int k = 0; k < 4; ++k) s.undo[k] = fixedAdd(s.undo[k], fixedOf(grip.undo[k]));
  for (int k = 0; k < 3; ++k) s.press[k] = fixedAdd(s.press[k], fixedOf(grip.press[k]));
}
WEFT_FN vec3 sumsPush(ContactSums s) { return vec3(fixedValue(s.push[0]), fixedValue(s.push[1]), fixedValue(s.push[2])); }
WEFT_FN ContactGrip sumsGrip(ContactSums s) {
  ContactGrip grip;
  grip.undo = vec4(fixedValue(s.undo[0]), fixedValue(s.undo[1]), fixedValue(s.undo[2]), fixedValue(s.undo[3]));
  grip.press = vec3(fixedValue(s.press[0]), fixedValue(s.press[1]), fixedValue(s.press[2]));
  return grip;
}

// The order in which a vertex keeps its pairs within the radius for the next implicit solve (the
// WEFT_CONTACT_PAIR_SLOTS least, contact_resolve's keepPair): by contactKeepRank, then by the pair's
// id, a total order, so the same pairs in the same slots in whatever order they are met.
WEFT_FN bool keptBefore(float rankA, uint idA, float rankB, uint idB) { return rankA < rankB || (rankA == rankB && idA < idB); }

// One corner's share of a pair: x the pair's distance at the step's start, yzw the push that
// corner takes. The pair is a distance condition along n, the unit direction from side B's nearest
// point to side A's at the start: C = n . (A - B) - thickness (reach.x), taken at the step's
// targets with the start's nearest points, so a target that came nearer than the thickness, or went
// through, is pushed back out along the side it started on (as PBD projects a collision at the
// predicted positions). `along` is n . (A - B) at the targets, `slip` the pair's relative move over the step,
// (A - B) at the targets less at the start; the corner's weight g is its share of its side's nearest
// point (positive on side A, negative on side B), w its inverse mass, and `denom` the pair's sum of
// g^2 w: the pushes of all corners together satisfy C with momentum kept.
// Coulomb friction (friction.x static, .y kinetic coefficient) acts on the slip's tangential part,
// against the normal move this step's approach needed (the approach -n . slip, not C, which also
// holds the offset kept from earlier steps): a tangential slip within mu_s times it is undone
// (sticking), a larger one shortened by mu_k times it (sliding), as in Macklin et al. 2014.
// `weight` receives |g| when the corner is pushed (0 otherwise): a vertex averages its pushes by
// their weights, so a pair it is a corner of only in name (a triangle's far corner) does not dilute
// the pushes of the pairs it is at the heart of. A pair inside the reach of the solve's own contact
// force (reach.y, 0 when the integrator held none) also adds its press and slip to `grip`.
WEFT_FN vec4 contactShare(float d, vec3 n, float along, vec3 slip, float g, float w, float denom, vec2 reach,
                          vec2 friction, WEFT_INOUT(float) weight, WEFT_INOUT(ContactGrip) grip) {
  float c = along - reach.x;
  weight = 0.0f;
  if (d < 1e-12f || denom <= 0.0f || w <= 0.0f || g == 0.0f) return vec4(d, 0.0f, 0.0f, 0.0f);
  vec3 tangent = slip - n * dot(n, slip);
  float held = reach.y - (along > reach.x ? along : reach.x);  // inside the force's reach, up to the thickness
  if (reach.y > 0.0f && held > 0.0f) {
    float share = g * w / denom;
    float part = g < 0.0f ? -g : g;
    grip.undo += vec4(tangent * (-share * part), part);
    vec2 press = friction * (WEFT_CONTACT_FORCE_STIFFNESS * held * (share < 0.0f ? -share : share));
    grip.press += vec3(press.x, press.y, 1.0f);
  }
  if (c >= 0.0f) return vec4(d, 0.0f, 0.0f, 0.0f);
  weight = g < 0.0f ? -g : g;
  float approach = -dot(n, slip);
  float normal = approach < -c ? approach : -c;
  normal = normal > 0.0f ? normal : 0.0f;
  float slide = length(tangent);
  float keep = 0.0f;  // the fraction of the tangential slip that friction undoes
  if (slide > 0.0f) keep = slide <= friction.x * normal ? 1.0f : friction.y * normal / slide;
  keep = keep < 1.0f ? keep : 1.0f;
  vec3 push = (n * (-c) - tangent * keep) * (g * w / denom);
  return vec4(d, push.x, push.y, push.z);
}

// A pair's geometry at the step's start and its targets, which each corner's share takes
// (contactCornerShare): the distance d and unit direction n between the nearest points, `along` (n .
// the gap at the targets), the slip, the corners' weights g and inverse masses w, and denom = sum g^2 w.
struct ContactPairState {
  vec4 g;
  vec4 w;
  vec3 n;
  float d;
  vec3 slip;
  float along;
  float denom;
};

// Vertex p against triangle abc (xyz position, w inverse mass) at the step's start, and the same
// corners' targets (pt, at, bt, ct); corners 0 for p and 1..3 for a, b, c.
WEFT_FN ContactPairState vertexTriangleState(vec4 p, vec4 a, vec4 b, vec4 c, vec3 pt, vec3 at, vec3 bt, vec3 ct) {
  vec3 l = closestTriangleWeights(xyz(p), xyz(a), xyz(b), xyz(c));
  vec3 delta = vertexTriangleGap(xyz(p), xyz(a), xyz(b), xyz(c), l);
  ContactPairState s;
  s.d = length(delta);
  s.n = s.d > 0.0f ? delta / s.d : vec3(0.0f);
  vec3 gapTarget = vertexTriangleGap(pt, at, bt, ct, l);
  s.along = dot(s.n, gapTarget);
  s.denom = p.w + l.x * l.x * a.w + l.y * l.y * b.w + l.z * l.z * c.w;
  s.g = vec4(1.0f, -l.x, -l.y, -l.z);
  s.w = vec4(p.w, a.w, b.w, c.w);
  s.slip = gapTarget - delta;
  return s;
}

// A pair's corner as the contact pass takes it: its start position, and its inverse mass, or 0 where
// it rests on a collider (restsOnCollider), which holds it there.
WEFT_FN vec4 contactPassCorner(vec4 x0, bool resting) { return vec4(x0.x, x0.y, x0.z, resting ? 0.0f : x0.w); }

// Edge e0 e1 against edge f0 f1 at the step's start, and their targets; corners 0..3 for e0, e1, f0, f1.
WEFT_FN ContactPairState edgeEdgeState(vec4 e0, vec4 e1, vec4 f0, vec4 f1, vec3 e0t, vec3 e1t, vec3 f0t, vec3 f1t) {
  vec2 st = closestSegmentParameters(xyz(e0), xyz(e1), xyz(f0), xyz(f1));
  float s = st.x;
  float t = st.y;
  vec3 delta = edgeEdgeGap(xyz(e0), xyz(e1), xyz(f0), xyz(f1), st);
  ContactPairState r;
  r.d = length(delta);
  r.n = r.d > 0.0f ? delta / r.d : vec3(0.0f);
  vec3 gapTarget = edgeEdgeGap(e0t, e1t, f0t, f1t, st);
  r.along = dot(r.n, gapTarget);
  r.denom = (1.0f - s) * (1.0f - s) * e0.w + s * s * e1.w + (1.0f - t) * (1.0f - t) * f0.w + t * t * f1.w;
  r.g = vec4(1.0f - s, s, t - 1.0f, -t);
  r.w = vec4(e0.w, e1.w, f0.w, f1.w);
  r.slip = gapTarget - delta;
  return r;
}

// The distance at the start and the push of `corner` (contactShare), from the pair's state.
WEFT_FN vec4 contactCornerShare(ContactPairState s, uint corner, vec2 reach, vec2 friction, WEFT_INOUT(float) weight,
                                WEFT_INOUT(ContactGrip) grip) {
  return contactShare(s.d, s.n, s.along, s.slip, s.g[corner], s.w[corner], s.denom, reach, friction, weight, grip);
}

// The weights g of a pair's corners in its gap A - B = sum_m g_m x_m, at the step's start: vertex p
// over triangle abc, and edge e0 e1 over edge f0 f1 (as vertexTriangleState and edgeEdgeState).
WEFT_FN vec4 vertexTriangleWeights(vec3 p, vec3 a, vec3 b, vec3 c) {
  vec3 l = closestTriangleWeights(p, a, b, c);
  return vec4(1.0f, -l.x, -l.y, -l.z);
}
WEFT_FN vec4 edgeEdgeWeights(vec3 e0, vec3 e1, vec3 f0, vec3 f1) {
  vec2 st = closestSegmentParameters(e0, e1, f0, f1);
  return vec4(1.0f - st.x, st.x, st.y - 1.0f, -st.y);
}

// The pair of corners `nodes` (weights g, start positions x0..x3 with inverse masses in w) as the
// element its corner `corner` keeps for the next implicit solve: that corner becomes node 0, so the
// element's force on the keeper is slot 0's. A pair of pinned corners gets no stiffness.
WEFT_FN Element contactPairElement(uvec4 nodes, vec4 g, vec4 x0, vec4 x1, vec4 x2, vec4 x3, uint corner,
                                   float thickness, float radius, float dt) {
  vec3 gap = g.x * xyz(x0) + g.y * xyz(x1) + g.z * xyz(x2) + g.w * xyz(x3);
  float d = length(gap);
  vec3 n = d > 0.0f ? gap / d : vec3(0.0f);
  float denom = g.x * g.x * x0.w + g.y * g.y * x1.w + g.z * g.z * x2.w + g.w * g.w * x3.w;
  Element e;
  e.nodes = nodes;
  e.rest = g;
  uint keeper = nodes[corner];
  float keeperWeight = g[corner];
  e.nodes[corner] = nodes.x;
  e.rest[corner] = g.x;
  e.nodes.x = keeper;
  e.rest.x = keeperWeight;
  e.shape = vec4(n.x, n.y, n.z, contactForceReach(thickness, radius));
  e.kind = WEFT_ELEMENT_CONTACT;
  e.stiffness0 = denom > 0.0f ? WEFT_CONTACT_FORCE_STIFFNESS / (denom * dt * dt) : 0.0f;
  e.stiffness1 = 0.0f;
  e.damping = WEFT_CONTACT_FORCE_DAMPING * dt;
  return e;
}

// The hash grid: cells of a size that no pair within the radius can straddle more than one
// neighbouring cell of (contactCellSize), and a bucket per cell.
WEFT_FN ivec3 contactCell(vec3 p, float cellSize) {
  vec3 c = p / cellSize;
  c = clamp(c, vec3(-WEFT_CONTACT_MAX_CELL), vec3(WEFT_CONTACT_MAX_CELL));
  return ivec3(floor(c.x), floor(c.y), floor(c.z));
}
WEFT_FN uint contactBucket(ivec3 c, uint tableSize) {
  return ((uint(c.x) * 73856093u) ^ (uint(c.y) * 19349663u) ^ (uint(c.z) * 83492791u)) & (tableSize - 1u);
}
// A vertex within `radius` of a triangle is within radius + L of its smallest corner, and an edge
// within radius of another has a corner within radius + 2L of the other's smallest corner, L the
// longest edge: cells this size hold every candidate in the 27 around a vertex.
WEFT_FN float contactCellSize(float radius, float longestEdge) { return radius + 2.0f * longestEdge; }

// The search's candidates serve the steps after it too, as a neighbour list with a skin: it lists
// every pair within the radius plus WEFT_CONTACT_SKIN_FRACTION of it (contactListReach), at the
// start positions of its step (the listed positions). A point of a primitive moves by a convex
// combination of its corners' moves, and a move shared by every vertex changes no distance: while
// every vertex's move since lies within half the skin of one common move (the drift: half the
// diagonal of the box of the moves), every pair now within the radius was within the list's reach
// then. The list still holds it, and the lower bound of the pairs it had no slot for falls by at
// most twice the drift (contactDroppedNow). Past that the search runs again. A wider skin searches
// less often and evaluates more pairs each step (docs/contact.md measures the choice).
#define WEFT_CONTACT_SKIN_FRACTION 0.5f
WEFT_FN float contactListReach(float radius) { return (1.0f + WEFT_CONTACT_SKIN_FRACTION) * radius; }
// The cells the hash fills and the search visits, on both backends: sized for the list's reach. (The
// GPU's hash once sized them by the radius alone while its search took the reach: far from the
// origin the search then visited other cells than the ones its neighbours were in.)
WEFT_FN float contactListCellSize(float radius, float longestEdge) { return contactCellSize(contactListReach(radius), longestEdge); }
// A float's bits in an order that atomicMin and atomicMax keep for either sign.
WEFT_FN uint orderedFloatBits(float f) {
  uint u = floatBitsToUint(f);
  return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}
WEFT_FN float orderedBitsFloat(uint u) { return uintBitsToFloat((u & 0x80000000u) != 0u ? (u & 0x7FFFFFFFu) : ~u); }
// The drift from the box of the moves (low and high corners): NaN when a position was never listed.
WEFT_FN float contactDriftOf(vec3 low, vec3 high) { return 0.5f * length(high - low); }
// true when the listed candidates still hold every pair within the radius after a drift of `drift`
// (a NaN drift does not hold).
WEFT_FN bool contactListHolds(float drift, float radius) { return 2.0f * drift <= WEFT_CONTACT_SKIN_FRACTION * radius; }
// The drift the evaluation allows for: none when the search listed the candidates in this step.
WEFT_FN float contactListDrift(float drift, float radius) { return contactListHolds(drift, radius) ? drift : 0.0f; }
// A lower bound now on the distance of the pairs the list had no slot for, `dropped` when listed.
WEFT_FN float contactDroppedNow(float dropped, float drift) {
  float now = dropped - 2.0f * drift;
  return now > 0.0f ? now : 0.0f;
}

// The longest a corner may move this step, from the smallest distance to a primitive it does not
// belong to (the radius when none is nearer). A corner nearer than WEFT_CONTACT_HOLD_FRACTION of the
// thickness is held where it is: the bound lets a distance shrink to a tenth a step, so something
// that presses layers together step after step (a handle winding a cloth tighter) would otherwise
// take them down to the rounding of a float position in a few dozen steps, where no sign is sure.
// A pair thus comes no nearer than a tenth of that (the step before it is held), and stays there.
WEFT_FN bool contactHeldBy(float distance, float thickness) { return distance < WEFT_CONTACT_HOLD_FRACTION * thickness; }
WEFT_FN float contactBound(float nearest, float thickness) {
  return contactHeldBy(nearest, thickness) ? 0.0f : WEFT_CONTACT_BOUND_FRACTION * nearest;
}
// A held corner may still move apart. Held for good, a pair that came within the hold distance
// (pressed in a fold, its corners' springs stretched by the press) kept every corner of it where it
// was for the rest of the run, and the springs stretched with it (the pile at rest: 24 % on one
// spring, from frame 60 on). So a corner held only by pairs within the hold distance (none of the
// pairs the list had no slot for among them) moves after all, bounded by its other pairs
// (contactBound of the nearest of those), if its move takes it away from every holding pair: from
// the plane through the pair's nearest point on the other primitive, normal to their gap
// (contactMovesApart), and within an angle of the gap's direction. Those planes separate the two
// convex primitives, and every corner of a holding pair is held by it too (the pair's distance is
// each corner's nearest or less), so each corner either stays or moves away from the other side:
// the distance cannot shrink. The other pairs close by at most their corners' bounds, as before.
// Whether `move` takes corner `corner` of a pair (its state s at the step's start: the gap from
// the other side, n, runs from the triangle to the vertex, or from edge f to edge e) no nearer the
// other side. A pair at no distance has no gap to move along.
// The move must keep within WEFT_CONTACT_APART_COSINE's angle of the gap: n comes from nearest
// points a few float roundings of a metre-sized coordinate apart at a distance this small (a
// percent of its angle at 8 µm), and a move along the plane by millimetres (a layer sliding on
// another, up to the free bound) with only a rounding's worth of n in it could cross. The shipped
// scenes did not cross with the plane alone either (docs/contact.md): the margin is argued.
#define WEFT_CONTACT_APART_COSINE 0.25f
WEFT_FN bool contactMovesApart(vec3 move, ContactPairState s, uint corner, bool edges) {
  bool gapSide = corner == 0u || (edges && corner == 1u);
  float along = gapSide ? dot(move, s.n) : -dot(move, s.n);
  return s.d > 0.0f && along >= WEFT_CONTACT_APART_COSINE * length(move);
}

// The Coulomb coefficients (static, kinetic) of a pair between two cloths of coefficients a and b:
// their geometric mean, so that a frictionless cloth slides on anything and equal cloths keep theirs.
// Static stays at least kinetic, as it is for each cloth.
WEFT_FN vec2 contactPairFriction(vec2 a, vec2 b) { return sqrt(a * b); }

// What contact did to a vertex this step, as WEFT_CONTACT_MARK_* bits: `nearest` and `bound` as for
// contactBound, `weights` its pushes' total weight, `limited` whether its move was cut short.
WEFT_FN uint contactMarks(float nearest, float radius, float weights, bool limited, float bound) {
  uint marks = 0u;
  if (nearest < radius) marks |= WEFT_CONTACT_MARK_NEAR;
  if (weights > 0.0f) marks |= WEFT_CONTACT_MARK_PUSHED;
  if (limited) marks |= WEFT_CONTACT_MARK_LIMITED;
  if (bound == 0.0f) marks |= WEFT_CONTACT_MARK_HELD;
  return marks;
}

// The move from `start` towards `target` cut to at most `bound`.
WEFT_FN vec3 limitMove(vec3 start, vec3 target, float bound) {
  vec3 move = target - start;
  float len = length(move);
  return len > bound ? start + move * (bound / len) : target;
}

#endif  // WEFT_CONTACT_H
