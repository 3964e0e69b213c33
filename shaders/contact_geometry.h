// The geometry contact is built on (contact.h, and colliders.h for a mesh's triangles): the points
// of a triangle or a segment nearest another, the distances they give, the bounding spheres and boxes
// of primitives, and the cheap tests that tell a pair lies beyond a reach. Pure functions of values,
// written once for GLSL and C++; included by contact.h inside physics.h's namespace.
#ifndef WEFT_CONTACT_GEOMETRY_H
#define WEFT_CONTACT_GEOMETRY_H

// Barycentric weights of the point of triangle abc nearest p, by the region tests of Ericson's
// Real-Time Collision Detection, section 5.1.5. A degenerate triangle falls back on its corners. An
// edge whose two corners are one point (an OBJ face naming a vertex twice) has no region of its
// own: its test would divide 0 by 0, so it is passed over and the face is its other two edges.
WEFT_FN vec3 closestTriangleWeights(vec3 p, vec3 a, vec3 b, vec3 c) {
  vec3 ab = b - a;
  vec3 ac = c - a;
  vec3 ap = p - a;
  float d1 = dot(ab, ap);
  float d2 = dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) return vec3(1.0f, 0.0f, 0.0f);
  vec3 bp = p - b;
  float d3 = dot(ab, bp);
  float d4 = dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) return vec3(0.0f, 1.0f, 0.0f);
  float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f && d1 - d3 > 0.0f) {
    float v = d1 / (d1 - d3);
    return vec3(1.0f - v, v, 0.0f);
  }
  vec3 cp = p - c;
  float d5 = dot(ab, cp);
  float d6 = dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) return vec3(0.0f, 0.0f, 1.0f);
  float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f && d2 - d6 > 0.0f) {
    float w = d2 / (d2 - d6);
    return vec3(1.0f - w, 0.0f, w);
  }
  float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f && (d4 - d3) + (d5 - d6) > 0.0f) {
    float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return vec3(0.0f, 1.0f - w, w);
  }
  float sum = va + vb + vc;
  if (!(sum > 0.0f)) {  // no area: the nearest corner (its edges are checked as edges too)
    float la = dot(ap, ap);
    float lb = dot(bp, bp);
    float lc = dot(cp, cp);
    if (la <= lb && la <= lc) return vec3(1.0f, 0.0f, 0.0f);
    return lb <= lc ? vec3(0.0f, 1.0f, 0.0f) : vec3(0.0f, 0.0f, 1.0f);
  }
  float v = vb / sum;
  float w = vc / sum;
  return vec3(1.0f - v - w, v, w);
}

// Parameters (s, t) of the nearest points p0 + s (p1 - p0) and q0 + t (q1 - q0) of two segments,
// clamped to [0, 1] (Ericson, section 5.1.9). Parallel segments get s = 0 and the t nearest it.
WEFT_FN vec2 closestSegmentParameters(vec3 p0, vec3 p1, vec3 q0, vec3 q1) {
  vec3 d1 = p1 - p0;
  vec3 d2 = q1 - q0;
  vec3 r = p0 - q0;
  float a = dot(d1, d1);
  float e = dot(d2, d2);
  float f = dot(d2, r);
  if (a <= 1e-30f && e <= 1e-30f) return vec2(0.0f, 0.0f);
  if (a <= 1e-30f) return vec2(0.0f, clamp(f / e, 0.0f, 1.0f));
  float c = dot(d1, r);
  if (e <= 1e-30f) return vec2(clamp(-c / a, 0.0f, 1.0f), 0.0f);
  float b = dot(d1, d2);
  float denom = a * e - b * b;
  float s = denom > 0.0f ? clamp((b * f - c * e) / denom, 0.0f, 1.0f) : 0.0f;
  float t = (b * s + f) / e;
  if (t < 0.0f) {
    t = 0.0f;
    s = clamp(-c / a, 0.0f, 1.0f);
  } else if (t > 1.0f) {
    t = 1.0f;
    s = clamp((b - c) / a, 0.0f, 1.0f);
  }
  return vec2(s, t);
}

// The distance from p to the segment ab (colliders.h culls mesh faces with it).
WEFT_FN float pointSegmentDistance(vec3 p, vec3 a, vec3 b) {
  vec3 ab = b - a;
  float len2 = dot(ab, ab);
  float t = len2 > 0.0f ? clamp(dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return length(p - (a + t * ab));
}

// The squared distance from p to the segment from a along ab, with invLength2 = 1 / |ab|^2 (0 for a
// point): the cull of an edge against another whose segment it keeps for all of its candidates.
WEFT_FN float pointSegmentDistance2(vec3 p, vec3 a, vec3 ab, float invLength2) {
  vec3 ap = p - a;
  float t = clamp(dot(ap, ab) * invLength2, 0.0f, 1.0f);
  vec3 off = ap - t * ab;
  return dot(off, off);
}

// The sphere about a triangle's centroid that holds it (xyz centre, w radius), and about an edge's
// middle (w half its length). contact_hash works them out once a step, by each primitive's owner,
// into the spheres buffer (triangles first, then edges), so the search culls every candidate
// primitive with one squared distance and no square root.
WEFT_FN vec4 triangleSphere(vec3 a, vec3 b, vec3 c) {
  vec3 g = (a + b + c) / 3.0f;
  vec3 ga = a - g;
  vec3 gb = b - g;
  vec3 gc = c - g;
  float r2 = dot(ga, ga);
  float rb = dot(gb, gb);
  float rc = dot(gc, gc);
  r2 = rb > r2 ? rb : r2;
  r2 = rc > r2 ? rc : r2;
  return vec4(g.x, g.y, g.z, sqrt(r2));
}
WEFT_FN vec4 edgeSphere(vec3 a, vec3 b) {
  vec3 m = 0.5f * (a + b);
  return vec4(m.x, m.y, m.z, 0.5f * length(b - a));
}
// true when every point of `sphere` is at least `reach` from p: a primitive inside it is then no
// nearer than reach, and its exact test can be skipped (a lower bound, never a miss).
WEFT_FN bool sphereBeyond(vec3 p, vec4 sphere, float reach) {
  vec3 gap = p - xyz(sphere);
  float far = reach + sphere.w;
  return dot(gap, gap) >= far * far;
}

// true when two boxes (lowest and highest corners) lie `reach` or more apart, and so every pair of
// points inside them.
WEFT_FN bool boxesBeyond(vec3 lo0, vec3 hi0, vec3 lo1, vec3 hi1, float reach) {
  vec3 gap = max(max(lo1 - hi0, lo0 - hi1), vec3(0.0f));
  return dot(gap, gap) >= reach * reach;
}
// The distance between two boxes (0 when they meet).
WEFT_FN float boxesGap(vec3 lo0, vec3 hi0, vec3 lo1, vec3 hi1) {
  vec3 gap = max(max(lo1 - hi0, lo0 - hi1), vec3(0.0f));
  return sqrt(dot(gap, gap));
}
// The resolve's cull of a listed pair, at the step's start: vertex p against triangle abc, edge e0 e1
// against edge f0 f1, `reach` or more apart by their boxes. A list kept from an earlier step (its
// reach past the radius by the skin) holds pairs that lie beyond the radius now: their exact tests
// could neither lower the nearest distance nor be pairs this step's own search would list.
WEFT_FN bool vertexTriangleBeyond(vec3 p, vec3 a, vec3 b, vec3 c, float reach) {
  return boxesBeyond(p, p, min(a, min(b, c)), max(a, max(b, c)), reach);
}
WEFT_FN bool edgeEdgeBeyond(vec3 e0, vec3 e1, vec3 f0, vec3 f1, float reach) {
  return boxesBeyond(min(e0, e1), max(e0, e1), min(f0, f1), max(f0, f1), reach);
}

// The resolve's cull past the boxes: a listed pair whose nearest points lie the radius apart at the
// step's start, or farther, is not evaluated either. It could not lower the nearest distance, so no
// bound changes; it pushes nothing that the bounds do not already hold off. The boxes of a flat
// cloth's own parallel edges overlap where the edges lie a spacing apart: in the 256² twist's first
// two frames every pair the boxes passed lay beyond the radius. The distances are the pair states' own (vertexTriangleState,
// edgeEdgeState), and the slack lies far above their rounding, so that a cull on a lower bound of the
// distance (the CPU's listed one, less the drift) passes over no pair this test would keep.
#define WEFT_CONTACT_DISTANCE_SLACK 1e-5f
WEFT_FN bool contactDistanceBeyond(float d, float radius) { return d >= radius + WEFT_CONTACT_DISTANCE_SLACK; }
// The same cull on a lower bound `listed` of a pair's distance when its list was made, `closing` the
// most it can have come nearer since: twice the drift (contactListDrift) in contactListedBeyond, or
// its corners' own moves (contactPairClosing). Twice the slack leaves room for the listed distance's
// own rounding, so that this passes over only pairs the cull above would pass over now.
WEFT_FN bool contactListedBeyondBy(float listed, float closing, float radius) {
  return listed >= radius + closing + 2.0f * WEFT_CONTACT_DISTANCE_SLACK;
}
WEFT_FN bool contactListedBeyond(float listed, float drift, float radius) {
  return contactListedBeyondBy(listed, 2.0f * drift, radius);
}
// How much nearer a pair can have come since its list was made, from its corners' own moves since,
// less the common move (the centre of the moves' box, whose half-diagonal is the drift): `moves`
// holds a vertex's, then its triangle's three corners'; or one edge's two ends', then the other's.
// Each side's point is a weighted mean of its corners (weights of sum 1), so it has moved at most
// its largest corner's move from the common one, and the gap by at most the two sides' sum: never
// more than twice the drift, and much less where the pair's corners rest while others move.
WEFT_FN float contactPairClosing(vec4 moves, bool edges) {
  float xy = moves.x > moves.y ? moves.x : moves.y;
  float zw = moves.z > moves.w ? moves.z : moves.w;
  if (edges) return xy + zw;                         // each edge's largest
  return moves.x + (moves.y > zw ? moves.y : zw);  // the vertex's, and the triangle's largest
}
// A pair's gap between the points its weights name: p less the triangle's point l, and the edges'
// points at parameters st. The pair states take these at the start and at the targets, and the
// distance cull takes their length.
WEFT_FN vec3 vertexTriangleGap(vec3 p, vec3 a, vec3 b, vec3 c, vec3 l) { return p - (l.x * a + l.y * b + l.z * c); }
WEFT_FN vec3 edgeEdgeGap(vec3 e0, vec3 e1, vec3 f0, vec3 f1, vec2 st) {
  return (e0 + st.x * (e1 - e0)) - (f0 + st.y * (f1 - f0));
}
WEFT_FN float vertexTriangleDistance(vec3 p, vec3 a, vec3 b, vec3 c) {
  return length(vertexTriangleGap(p, a, b, c, closestTriangleWeights(p, a, b, c)));
}
WEFT_FN float edgeEdgeDistance(vec3 e0, vec3 e1, vec3 f0, vec3 f1) {
  return length(edgeEdgeGap(e0, e1, f0, f1, closestSegmentParameters(e0, e1, f0, f1)));
}
WEFT_FN bool vertexTrianglePairBeyond(vec3 p, vec3 a, vec3 b, vec3 c, float radius) {
  return vertexTriangleBeyond(p, a, b, c, radius) || contactDistanceBeyond(vertexTriangleDistance(p, a, b, c), radius);
}
WEFT_FN bool edgeEdgePairBeyond(vec3 e0, vec3 e1, vec3 f0, vec3 f1, float radius) {
  return edgeEdgeBeyond(e0, e1, f0, f1, radius) || contactDistanceBeyond(edgeEdgeDistance(e0, e1, f0, f1), radius);
}

// A lower bound on the distance from p to any primitive inside `sphere` (0 when p is inside it):
// what stands for a candidate pair the search had no slot left for (contact_search).
WEFT_FN float sphereGap(vec3 p, vec4 sphere) {
  vec3 gap = p - xyz(sphere);
  float d = sqrt(dot(gap, gap)) - sphere.w;
  return d > 0.0f ? d : 0.0f;
}

#endif  // WEFT_CONTACT_GEOMETRY_H
