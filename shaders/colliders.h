// Colliders: the solid bodies the cloth rests on and slides over (plane, sphere, capsule, box, and
// the triangles of a mesh), as the integrators' last pass meets them. Included by physics.h, so GLSL
// and C++ share every line.
#ifndef WEFT_COLLIDERS_H
#define WEFT_COLLIDERS_H

// A collider read, not copied: 112 bytes a call add up over every particle and every mesh face.
#ifdef __cplusplus
#define WEFT_COLLIDER const Collider&
#else
#define WEFT_COLLIDER Collider
#endif

// Whether this kernel may meet colliders of kind k (WEFT_SPEC_COLLIDER_KINDS in shared.h): a
// constant the driver folds, so the tests of kinds the scene lacks are not compiled at all. The CPU
// backend meets every kind; its branches cost nothing untaken.
#ifdef __cplusplus
#define WEFT_MAY_MEET(k) true
#else
layout(constant_id = WEFT_SPEC_COLLIDER_KINDS) const uint weftColliderKinds = WEFT_ALL_COLLIDER_KINDS;
#define WEFT_MAY_MEET(k) ((weftColliderKinds & WEFT_COLLIDER_KIND_BIT(k)) != 0u)
#endif

// The velocity of a moving collider's surface at x (zero for one that stays put). Every velocity at a
// collider is taken relative to it: the cloth may not approach the surface, and friction drags it along.
WEFT_FN vec3 colliderSurfaceVelocity(vec3 x, WEFT_COLLIDER c) { return xyz(c.velocity) + cross(xyz(c.spin), x - xyz(c.pivot)); }

// v turned by the unit quaternion q = (x, y, z, w).
WEFT_FN vec3 quatRotate(vec4 q, vec3 v) {
  vec3 u = xyz(q);
  return v + 2.0f * cross(u, cross(u, v) + q.w * v);
}
WEFT_FN vec3 quatRotateBack(vec4 q, vec3 v) { return quatRotate(vec4(-q.x, -q.y, -q.z, q.w), v); }

// A box collider's frame: x in the box's own axes, centred on it.
WEFT_FN vec3 boxLocal(vec3 x, WEFT_COLLIDER c) { return quatRotateBack(c.shape3, x - xyz(c.shape)); }

// The unit vector of axis `axis` (0, 1, 2), times `sign`.
WEFT_FN vec3 axisVector(uint axis, float sign) {
  return vec3(axis == 0u ? sign : 0.0f, axis == 1u ? sign : 0.0f, axis == 2u ? sign : 0.0f);
}

// How far local point p is inside the box of half extents h grown by `margin` (negative: outside),
// and the outward normal in the box's axes. Outside, the distance to the box (its grown corners and
// edges are rounded, as a sphere's margin is); inside, to the nearest face.
WEFT_FN float boxDepth(vec3 p, vec3 h, float margin, WEFT_INOUT(vec3) n) {
  vec3 q = vec3((p.x < 0.0f ? -p.x : p.x) - h.x, (p.y < 0.0f ? -p.y : p.y) - h.y, (p.z < 0.0f ? -p.z : p.z) - h.z);
  vec3 s = vec3(p.x < 0.0f ? -1.0f : 1.0f, p.y < 0.0f ? -1.0f : 1.0f, p.z < 0.0f ? -1.0f : 1.0f);
  vec3 outside = vec3(q.x > 0.0f ? q.x * s.x : 0.0f, q.y > 0.0f ? q.y * s.y : 0.0f, q.z > 0.0f ? q.z * s.z : 0.0f);
  float away = length(outside);
  if (away > 0.0f) {
    n = outside / away;
    return margin - away;
  }
  uint axis = q.x >= q.y && q.x >= q.z ? 0u : (q.y >= q.z ? 1u : 2u);  // the nearest face: q nearest zero
  n = axisVector(axis, s[axis]);
  return margin - q[axis];
}

// Where the segment from local point p0 to p1 enters the box of half extents `h` (slab clipping):
// the fraction of the way, and the outward normal of the face it enters by, in the box's axes.
// -1 when it misses the box or starts inside it.
WEFT_FN float boxEntry(vec3 p0, vec3 p1, vec3 h, WEFT_INOUT(vec3) face) {
  float enter = 0.0f, leave = 1.0f;
  bool entered = false;
  for (uint axis = 0u; axis < 3u; ++axis) {
    float d = p1[axis] - p0[axis];
    if (d == 0.0f) {
      if (p0[axis] > h[axis] || p0[axis] < -h[axis]) return -1.0f;
      continue;
    }
    float t0 = (-h[axis] - p0[axis]) / d, t1 = (h[axis] - p0[axis]) / d;
    float first = d > 0.0f ? t0 : t1, last = d > 0.0f ? t1 : t0;  // the face it meets first, then last
    if (first > enter) {
      enter = first;
      entered = true;
      face = axisVector(axis, d > 0.0f ? -1.0f : 1.0f);
    }
    leave = last < leave ? last : leave;
  }
  return entered && enter <= leave ? enter : -1.0f;
}

// A mesh triangle's unit normal (by its corners' order), or zero for a degenerate one.
WEFT_FN vec3 triangleNormal(WEFT_COLLIDER c) {
  vec3 n = cross(xyz(c.shape2) - xyz(c.shape), xyz(c.shape3) - xyz(c.shape));
  float len = length(n);
  return len > 0.0f ? n / len : vec3(0.0f);
}

// How far from a mesh face's centre a particle may be and still be touched by it, less the
// particle's step seen from the face: the face's radius plus twice its shell's half thickness and its
// margin (collideFrom's cull).
WEFT_FN float faceClearance(WEFT_COLLIDER c) { return c.shape2.w + 2.0f * (c.shape.w + c.margin); }

// How far from a mesh face itself a particle, or the straight step it ends, may be and still be
// touched by it: twice its shell's half thickness and margin, the shell's reach h = half thickness +
// margin with room to spare for the rim (sweptDepth pushes a step that enters the shell's slab within
// h of the face in its plane, so within sqrt(2) h of it) and for colliderDepth's resting contact
// (within h + margin). The collider grid enters each face in the cells within this of its corners'
// box, plus its allowance.
WEFT_FN float faceShellReach(WEFT_COLLIDER c) { return 2.0f * (c.shape.w + c.margin); }

// The bucket of the collider grid (ColliderGrid) that holds x: the contact hash of its cell.
WEFT_FN uint colliderGridBucket(vec3 x, float cellSize, uint tableSize) {
  return contactBucket(contactCell(x, cellSize), tableSize);
}

// Whether a particle that began the colliders' pass at x0 with velocity v0, after a step of dt, and
// that the colliders its cell lists moved at most `drift` from x0, can have been touched by no face
// its cell leaves out. Such a face is more than faceShellReach + allowance from x0 (ColliderGrid),
// while every point the particle's step passes seen from the face (from its start moved by the
// surface's velocity to wherever the colliders put it) is within drift + |v0| dt plus the face's
// surface speed times dt of x0 (that speed bounded through the grid's reference point). With the
// allowance covering that (twice the drift, for room), every such face is still farther than its
// shell's reach from the whole step: collideFrom, and colliderDepth's resting contact, leave the
// particle as they would in a pass over every collider.
WEFT_FN bool colliderGridHeld(vec3 x0, vec3 v0, float dt, float drift, vec4 reference, float maxSpeed, float maxSpin,
                              float allowance) {
  float surface = maxSpeed + maxSpin * (length(x0 - xyz(reference)) + drift + reference.w);
  return 2.0f * drift + (length(v0) + surface) * dt <= allowance;
}

// How far x is inside the collider's surface plus margin (negative: outside), and the outward normal.
WEFT_FN float colliderDepth(vec3 x, WEFT_COLLIDER c, WEFT_INOUT(vec3) n) {
  if (WEFT_MAY_MEET(WEFT_COLLIDER_PLANE) && c.kind == WEFT_COLLIDER_PLANE) {
    n = xyz(c.shape);
    return c.shape.w + c.margin - dot(n, x);
  }
  if (WEFT_MAY_MEET(WEFT_COLLIDER_BOX) && c.kind == WEFT_COLLIDER_BOX) {
    vec3 local = vec3(0.0f);
    float depth = boxDepth(boxLocal(x, c), xyz(c.shape2), c.margin, local);
    n = quatRotate(c.shape3, local);
    return depth;
  }
  if (WEFT_MAY_MEET(WEFT_COLLIDER_TRIANGLE) && c.kind == WEFT_COLLIDER_TRIANGLE) {  // a shell round the triangle, half its thickness each side
    vec3 a = xyz(c.shape), b = xyz(c.shape2), d = xyz(c.shape3);
    // Most of a mesh's faces are far off: their bounding sphere gives a lower bound on the distance
    // (so an upper bound on the depth) without the exact test.
    float apart = length(x - (a + b + d) / 3.0f) - c.shape2.w;
    if (apart > c.shape.w + 2.0f * c.margin) {
      n = triangleNormal(c);
      return c.shape.w + c.margin - apart;
    }
    vec3 w = closestTriangleWeights(x, a, b, d);
    vec3 away = x - (w.x * a + w.y * b + w.z * d);
    float len = length(away);
    n = len > 1e-9f ? away / len : triangleNormal(c);
    return c.shape.w + c.margin - len;
  }
  if (!WEFT_MAY_MEET(WEFT_COLLIDER_SPHERE) && !WEFT_MAY_MEET(WEFT_COLLIDER_CAPSULE)) {  // none is left
    n = vec3(0.0f, 1.0f, 0.0f);
    return -1.0f;
  }
  vec3 center = xyz(c.shape);
  if (WEFT_MAY_MEET(WEFT_COLLIDER_CAPSULE) && c.kind == WEFT_COLLIDER_CAPSULE) {  // the nearest point of the axis segment is the centre
    vec3 axis = xyz(c.shape2) - center;
    float axis2 = dot(axis, axis);
    float t = axis2 > 0.0f ? dot(x - center, axis) / axis2 : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    center = center + t * axis;
  }
  vec3 d = x - center;
  float len = length(d);
  n = len > 1e-9f ? d / len : vec3(0.0f, 1.0f, 0.0f);
  return c.shape.w + c.margin - len;
}

// colliderDepth for a particle that ends a step of dt at x, having begun it at `start` (the
// collider's surface moved meanwhile, so relative to it the particle came from start + u dt).
// A box or a mesh's shell may be thinner than a step's move (a 1 mm board against cloth at 10 m/s),
// so the nearest face can be the far one, or the particle can be past the solid altogether. So the
// step is swept: where it entered the solid through a face, or began within that face's margin and
// went on in, the particle is pushed back out through that face, onto its plane. A mesh face's rim
// counts as the face (its plane goes on to the rim's width beyond its edges): a step that enters
// a convex edge between two faces is met by both. A plane cannot be passed; a sphere or capsule
// that moves is refused a step longer than half its radius (solver/model/kinematics.h).
WEFT_FN float sweptDepth(vec3 x, vec3 stepStart, WEFT_COLLIDER c, float dt, WEFT_INOUT(vec3) n) {
  float depth = colliderDepth(x, c, n);
  if (!WEFT_MAY_MEET(WEFT_COLLIDER_BOX) && !WEFT_MAY_MEET(WEFT_COLLIDER_TRIANGLE)) return depth;
  if ((c.kind != WEFT_COLLIDER_BOX && c.kind != WEFT_COLLIDER_TRIANGLE) || dt <= 0.0f) return depth;
  vec3 start = stepStart + colliderSurfaceVelocity(x, c) * dt;
  float margin = c.margin;
  if (WEFT_MAY_MEET(WEFT_COLLIDER_TRIANGLE) && c.kind == WEFT_COLLIDER_TRIANGLE) {
    vec3 face = triangleNormal(c);
    float reach = c.shape.w + margin;
    float s0 = dot(start - xyz(c.shape), face), s1 = dot(x - xyz(c.shape), face);
    if (s0 < 0.0f) {  // it came from the back: that side's face
      face = -face;
      s0 = -s0;
      s1 = -s1;
    }
    if (s1 >= reach || s1 >= s0) return depth;  // ended clear of the face's shell, or moved away from the face
    vec3 a = xyz(c.shape), b = xyz(c.shape2), d = xyz(c.shape3);
    if (pointSegmentDistance((a + b + d) / 3.0f, start, x) > c.shape2.w + 2.0f * reach) return depth;  // nowhere near
    vec3 entry = s0 > reach ? start + ((s0 - reach) / (s0 - s1)) * (x - start) : start;
    vec3 w = closestTriangleWeights(entry, a, b, d);
    vec3 off = entry - (w.x * a + w.y * b + w.z * d);
    if (length(off - dot(off, face) * face) > reach) return depth;  // went by beside the face
    n = face;
    return reach - s1;
  }
  if (!WEFT_MAY_MEET(WEFT_COLLIDER_BOX)) return depth;
  vec3 h = xyz(c.shape2);
  vec3 p1 = boxLocal(x, c);
  vec3 p0 = boxLocal(start, c);
  vec3 face = vec3(0.0f);
  vec3 core = vec3(0.0f);
  if (boxEntry(p0, p1, h + vec3(margin, margin, margin), face) < 0.0f) {  // began within the margin, or missed
    if (boxEntry(p0, p1, h, face) < 0.0f) return depth;  // began inside the box, or missed it: its nearest face
  } else if (depth <= 0.0f && boxEntry(p0, p1, h, core) < 0.0f) {
    return depth;  // went by, through the margin at most
  }
  n = quatRotate(c.shape3, face);
  return dot(face * face, h) + margin - dot(face, p1);  // face * face: the face's axis, unsigned
}

// How near a collider a particle counts as resting on it, at a depth (negative outside) of its
// margin's surface: within a tenth of the margin. One reach for the implicit solves' hold
// (restingFilter), the contact pass's grip (colliderGripMove) and its hold (restsOnCollider).
#define WEFT_COLLIDER_RESTING_FRACTION 0.1f
WEFT_FN bool colliderWithinRestingReach(float depth, WEFT_COLLIDER c) { return depth >= -WEFT_COLLIDER_RESTING_FRACTION * c.margin; }

// The constraint an implicit solve gives a particle at x, moving at v, near collider c, when the
// step's right-hand side at the particle is b (its explicit impulse over the step: gravity, springs,
// drag): (outward normal, WEFT_FILTER_CONTACT) when it rests on the surface (within a tenth of a
// margin of the kept distance, not moving away) and b presses it in; otherwise free.
// - Baraff & Witkin release a contact once its constraint force would pull; for a particle at rest
//   among resting neighbours the surface must supply -b, so b stands in for that force. Held
//   regardless of b, the constraint glued the particle to the surface: the springs' pull built up
//   while it was held and threw it off as soon as its velocity turned outward, so a cloth on a
//   sphere never came to rest.
// - The tenth: held anywhere within a whole margin, the edge of a sheet hovering a few millimetres
//   over a sphere was held in mid-air, released, held again, and trembled by up to 0.5 mm a frame
//   (0.3 margins: 0.6 mm; 0.1: 0.03-0.15 mm; 0.02: 0.01-0.06 mm, but resting particles then drift
//   out of the band between the colliders' projections).
WEFT_FN vec4 restingFilter(vec3 x, vec3 v, vec3 b, WEFT_COLLIDER c) {
  vec3 n = vec3(0.0f);
  float depth = colliderDepth(x, c, n);
  if (colliderWithinRestingReach(depth, c) && dot(v - colliderSurfaceVelocity(x, c), n) <= 0.0f && dot(b, n) <= 0.0f) {
    return vec4(n.x, n.y, n.z, WEFT_FILTER_CONTACT);
  }
  return vec4(0.0f, 0.0f, 0.0f, WEFT_FILTER_FREE);
}

// Coulomb's law against collider c: the share of a tangential speed vtLen (relative to the surface)
// left after a press of `press` (a normal speed): none within staticFriction times the press
// (sticking), else 1 - friction * press / vtLen, never below zero (sliding).
WEFT_FN float coulombKeep(float vtLen, float press, WEFT_COLLIDER c) {
  float keep = vtLen > c.staticFriction * press && vtLen > 1e-9f ? 1.0f - c.friction * press / vtLen : 0.0f;
  return keep > 0.0f ? keep : 0.0f;
}

// The velocity v an implicit step gave a particle at x that it held on collider c (restingFilter,
// outward normal n), after Coulomb friction. `press` is the speed along n the constraint gave it:
// ((A dv - b) . n) / m, the impulse the solve applied where the filter removed the normal direction.
// As in collideFrom, a tangential speed relative to the surface within staticFriction times the
// press stops, a larger one is slowed by friction times it. The held particle's normal speed is not
// removed by the colliders (it does not move into the surface), so their own friction has nothing to
// act on, and without this a cloth slid off a sphere that holds it under every other integrator.
WEFT_FN vec3 restingFriction(vec3 x, vec3 v, vec3 n, float press, WEFT_COLLIDER c) {
  if (!(press > 0.0f)) return v;
  vec3 relative = v - colliderSurfaceVelocity(x, c);
  vec3 vt = relative - dot(relative, n) * n;
  float vtLen = length(vt);
  float keep = coulombKeep(vtLen, press, c);
  return v - (1.0f - keep) * vt;
}

// A move the contact pass gives a particle at x (the pushes of cloth on cloth, after the step's
// collision) when it rests on collider c (within a tenth of the margin of it, as restingFilter):
// Coulomb's law against c for the move's tangential part, with its part into the surface as the
// press. The contact pass runs after the colliders, so a layer under another takes the upper one's
// weight and friction from it as such a move, after its own collision: pressed into the surface and
// shoved along it. The next step's collision pushes it back out, but along the normal, and its
// friction sees only that step's motion: the shove stayed, and two sheets resting on a sphere slid
// off it together (the lower one by 0.1 mm a frame after 4 s, docs/contact.md), where one rests.
// A move within staticFriction times its press is taken back (sticking); a larger one is shortened
// by friction times it (sliding). A move away from the surface is the contact pass's own.
WEFT_FN vec3 colliderGripMove(vec3 x, vec3 move, WEFT_COLLIDER c) {
  vec3 n = vec3(0.0f);
  if (!colliderWithinRestingReach(colliderDepth(x, c, n), c)) return move;
  float into = dot(move, n);
  if (!(into < 0.0f)) return move;
  vec3 along = move - into * n;
  return move - (1.0f - coulombKeep(length(along), -into, c)) * along;
}

// Whether the contact pass takes a particle at x as resting on collider c: within the tenth of the
// margin in which the implicit solves hold it (restingFilter) and the pass grips it (colliderGripMove),
// and a micrometre for the collision's rounding. The pass then holds it (its inverse mass 0 in every
// pair, contactPassCorner), and the pair's other corners take the whole push: otherwise a layer
// pressing on a cloth that rests on a collider pushed the resting cloth into it, the next step's
// collision pushed it back out, and the two undid each other every step. The reach was a hundredth of
// the margin at first: a lower sheet lying over a sphere's curve 36-57 um off its margin then moved
// in and out of it from step to step, held in one and pushed down in the next, and the two sheets
// rocked by 10 um at 140 Hz (docs/contact.md). Two sheets on a sphere at 16 steps a frame, the
// largest move in a frame (median over a second): 163 um at 4 s and 40 um at 8 s with a hundredth;
// 12 and 2.6 um with the tenth. A hold graded from 0 on the surface to 1 at the tenth was worse
// (120 um from 4 s to 20 s): a partly held vertex is pushed into the surface by its share, and the
// fight returns within the ramp.
WEFT_FN bool restsOnCollider(vec3 x, WEFT_COLLIDER c) {
  vec3 n = vec3(0.0f);
  return colliderWithinRestingReach(colliderDepth(x, c, n) + 1e-6f, c);
}

// Pushes a particle out of a collider and corrects its velocity: the normal component into the
// surface is removed (no bounce) and Coulomb friction acts on the tangential part against the normal
// speed removed: a tangential speed within staticFriction times it stops (sticking), a larger one is
// slowed by friction times it (sliding).
// With dt > 0, for a step that moved the particle from `start` to x, about v dt (every integrator's
// last pass passes its step), friction also takes back the part of that step's tangential
// displacement it takes from the velocity. Without it, gravity's tangential pull moves a particle
// along the surface by g_t dt^2 every step even when static friction holds its velocity at zero, and
// a cloth at rest on a sphere creeps off it. The step's start lets a thin box or mesh be met where the
// particle entered it (sweptDepth); a particle meeting several colliders keeps the start it had
// before the first moved it, so the order of the colliders does not matter to that sweep.
WEFT_FN void collideFrom(WEFT_INOUT(vec3) x, WEFT_INOUT(vec3) v, vec3 start, WEFT_COLLIDER c, float dt) {
  if (WEFT_MAY_MEET(WEFT_COLLIDER_TRIANGLE) && c.kind == WEFT_COLLIDER_TRIANGLE) {  // a mesh face the whole step kept clear of, by its bounding sphere
    vec3 toMean = x - (xyz(c.shape) + xyz(c.shape2) + xyz(c.shape3)) * (1.0f / 3.0f);
    vec3 step = x - start - colliderSurfaceVelocity(x, c) * dt;  // the step seen from the face
    float clear = faceClearance(c);
    float moved = length(step);
    if (dot(toMean, toMean) > (clear + moved) * (clear + moved)) return;
  }
  vec3 n = vec3(0.0f);
  float depth = sweptDepth(x, start, c, dt, n);
  if (depth <= 0.0f) return;
  x = x + n * depth;
  vec3 surface = colliderSurfaceVelocity(x, c);
  vec3 relative = v - surface;
  float vn = dot(relative, n);
  if (vn < 0.0f) {
    vec3 vt = relative - vn * n;
    float vtLen = length(vt);
    float keep = coulombKeep(vtLen, -vn, c);
    v = surface + vt * keep;
    x = x - ((1.0f - keep) * dt) * vt;
  }
}

// One collider after a step that moved the particle by about v dt.
WEFT_FN void collideStep(WEFT_INOUT(vec3) x, WEFT_INOUT(vec3) v, WEFT_COLLIDER c, float dt) { collideFrom(x, v, x - v * dt, c, dt); }

// A step whose position update was made before the collision (x already holds x + v dt): the
// velocity is corrected, the position only pushed out.
WEFT_FN void collide(WEFT_INOUT(vec3) x, WEFT_INOUT(vec3) v, WEFT_COLLIDER c) { collideStep(x, v, c, 0.0f); }

#undef WEFT_COLLIDER
#undef WEFT_MAY_MEET

#endif
