// An independent measure of self-contact for the tests: how many mesh edges pass through mesh
// triangles, and how close the surface comes to itself. It shares no code with the solver, so a
// fault in the solver's contact handling cannot hide behind the same fault here. Everything is
// computed in double precision from the float positions (w is ignored); only glm and the standard
// library are used, so both the CPU model tests and the GPU tests can link it.
//
// Degenerate cases are not counted as crossings: an edge that lies in a triangle's plane, that
// ends on that plane, or that passes exactly through one of the triangle's edges or corners only
// touches the triangle. A crossing is a proper, transversal passage through the triangle's
// interior, decided by the signs of orientation determinants (see segmentCrossesTriangle).
#pragma once

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

namespace weft::test {

// The number of (edge, triangle) pairs, sharing no vertex, where the edge passes through the
// triangle. Edges are the unique edges of `triangles`, each counted once however many triangles
// hold it. A uniform grid over the pieces' bounding boxes keeps this near-linear in mesh size.
size_t countCrossings(const std::vector<glm::vec4>& positions, const std::vector<glm::uvec3>& triangles);

// The same count for an explicit edge list: a lone edge can pierce a triangle, which no pair of
// whole triangles can do (two triangles that intersect always give two crossings).
size_t countCrossings(const std::vector<glm::vec4>& positions, const std::vector<glm::uvec2>& edges,
                      const std::vector<glm::uvec3>& triangles);

// The smallest distance over vertex-triangle pairs (the vertex not a corner of the triangle) and
// edge-edge pairs (no shared vertex), considering only pairs closer than maxDistance; maxDistance
// when there are none. Vertices that no triangle uses are not part of the surface and are skipped.
double minimumSeparation(const std::vector<glm::vec4>& positions, const std::vector<glm::uvec3>& triangles,
                         double maxDistance);

// Six times the signed volume of tetrahedron abcd: positive when d lies below the plane of abc as
// seen with abc counter-clockwise, i.e. on the side opposite the normal (b-a) x (c-a).
double orient3d(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c, const glm::dvec3& d);

// Segment pq properly crosses triangle abc: p and q strictly on opposite sides of its plane, and the
// line pq strictly inside all three of its edges. Any zero orientation (touching) is not a crossing.
bool segmentCrossesTriangle(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b,
                            const glm::dvec3& c);

// Exact closest-point distances: point to triangle (by Voronoi region of the triangle), and segment
// to segment (clamped closest points, parallel and zero-length segments included).
double pointTriangleDistance(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c);
double segmentSegmentDistance(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& q0,
                              const glm::dvec3& q1);

// The unique edges of a triangle list, each with its smaller index first, in sorted order.
std::vector<glm::uvec2> uniqueEdges(const std::vector<glm::uvec3>& triangles);

}  // namespace weft::test
