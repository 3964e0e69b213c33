#include "solver/model/elements.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "weft/errors.h"
#include "shaders/physics.h"

namespace weft {
namespace {

void requireNonNegative(float value, const char* what) {
  if (!std::isfinite(value) || value < 0.f)
    throw InputError(std::string(what) + " must be a finite number >= 0");
}

gpu::Element makeElement(uint32_t kind, glm::uvec4 nodes) {
  gpu::Element e{};
  e.kind = kind;
  e.nodes = nodes;
  return e;
}

float triangleArea(const ClothModel& m, glm::uvec3 t) {
  return 0.5f * glm::length(glm::cross(m.positions[t.y] - m.positions[t.x], m.positions[t.z] - m.positions[t.x]));
}

// A bend pair's nodes as the hinge kinds take them: the edge ordered as triangle t0 winds it, so
// (x0, x1, x2) is t0 and (x1, x0, x3) is t1.
glm::uvec4 hingeNodes(const ClothModel& model, const BendPair& pair) {
  const glm::uvec3 t0 = model.triangles[pair.t0];
  bool forward = false;
  for (int k = 0; k < 3; ++k) forward = forward || (t0[k] == pair.v0 && t0[(k + 1) % 3] == pair.v1);
  return forward ? glm::uvec4(pair.v0, pair.v1, pair.a, pair.b) : glm::uvec4(pair.v1, pair.v0, pair.a, pair.b);
}

void requireIsotropicSheet(const IsotropicSheetSpec& spec, const std::string& what) {
  requireNonNegative(spec.youngModulus, (what + " Young's modulus").c_str());
  requireNonNegative(spec.damping, (what + " damping").c_str());
  if (!(spec.poissonRatio >= 0.f && spec.poissonRatio < 1.f))
    throw InputError(what + " Poisson ratio must be a number >= 0 and < 1");
}

// Plane stress: lambda + mu = Y / (2 (1 - nu)), the area modulus; mu = Y / (2 (1 + nu)), the shear one.
float areaModulus(const IsotropicSheetSpec& s) { return static_cast<float>(s.youngModulus / (2.0 * (1.0 - s.poissonRatio))); }
float shearModulus(const IsotropicSheetSpec& s) { return static_cast<float>(s.youngModulus / (2.0 * (1.0 + s.poissonRatio))); }

}  // namespace

uint32_t elementNodeCount(uint32_t kind) {
  switch (kind) {
    case WEFT_ELEMENT_MEMBRANE: return 3;
    case WEFT_ELEMENT_HINGE: return 4;
    case WEFT_ELEMENT_TETHER: return 2;
    case WEFT_ELEMENT_AERO: return 3;
    case WEFT_ELEMENT_PLANE_BEND: return 4;
    case WEFT_ELEMENT_TRISPRING: return 3;
    case WEFT_ELEMENT_QUADRATIC_BEND: return 4;
    case WEFT_ELEMENT_COROTATIONAL: return 3;
    case WEFT_ELEMENT_CONTACT: return 4;
    default: return 0;
  }
}

// A triangle's rest (u, v) parameterisation, which the Baraff-Witkin and co-rotational membranes
// share: M = [[du1 du2], [dv1 dv2]]^-1 row by row (the deformation's columns are [dx1 dx2] M) and
// the rest area. u is world x projected onto the triangle (its first edge for an x-facing one).
struct RestFrame {
  glm::vec4 inverse;
  float area;
};

RestFrame restFrame(const ClothModel& model, glm::uvec3 t) {
  const glm::dvec3 x0 = model.positions[t.x], x1 = model.positions[t.y], x2 = model.positions[t.z];
  const glm::dvec3 d1 = x1 - x0, d2 = x2 - x0;
  const glm::dvec3 n = glm::normalize(glm::cross(d1, d2));
  glm::dvec3 u = glm::dvec3(1, 0, 0) - n.x * n;
  if (glm::length(u) < 1e-6) u = d1;
  u = glm::normalize(u);
  const glm::dvec3 v = glm::cross(n, u);
  const double du1 = glm::dot(d1, u), dv1 = glm::dot(d1, v), du2 = glm::dot(d2, u), dv2 = glm::dot(d2, v);
  const double det = du1 * dv2 - du2 * dv1;
  return {glm::vec4(dv2 / det, -du2 / det, -dv1 / det, du1 / det), static_cast<float>(0.5 * std::abs(det))};
}

void addMembrane(ClothModel& model, const MembraneSpec& spec) {
  requireNonNegative(spec.warpStiffness, "membrane warp stiffness");
  requireNonNegative(spec.weftStiffness, "membrane weft stiffness");
  requireNonNegative(spec.shearStiffness, "membrane shear stiffness");
  requireNonNegative(spec.damping, "membrane damping");
  for (const glm::uvec3& t : model.triangles) {
    const RestFrame frame = restFrame(model, t);
    gpu::Element e = makeElement(WEFT_ELEMENT_MEMBRANE, glm::uvec4(t.x, t.y, t.z, t.x));
    e.rest = frame.inverse;
    e.shape = glm::vec4(frame.area, spec.shearStiffness, 0.f, 0.f);
    e.stiffness0 = spec.warpStiffness;
    e.stiffness1 = spec.weftStiffness;
    e.damping = spec.damping;
    model.elements.push_back(e);
  }
}

void addCorotational(ClothModel& model, const IsotropicSheetSpec& spec) {
  requireIsotropicSheet(spec, "co-rotational");
  for (const glm::uvec3& t : model.triangles) {
    if (!(triangleArea(model, t) > 0.f)) continue;  // a collapsed triangle has no frame
    const RestFrame frame = restFrame(model, t);
    gpu::Element e = makeElement(WEFT_ELEMENT_COROTATIONAL, glm::uvec4(t.x, t.y, t.z, t.x));
    e.rest = frame.inverse;
    e.shape = glm::vec4(frame.area, 0.f, 0.f, 0.f);
    e.stiffness0 = areaModulus(spec);
    e.stiffness1 = shearModulus(spec);
    e.damping = spec.damping;
    model.elements.push_back(e);
  }
}

void addDihedralBending(ClothModel& model, const DihedralSpec& spec) {
  requireNonNegative(spec.modulus, "dihedral bending modulus");
  requireNonNegative(spec.damping, "dihedral bending damping");
  for (const BendPair& pair : model.bendPairs) {
    gpu::Element e = makeElement(WEFT_ELEMENT_HINGE, hingeNodes(model, pair));
    const glm::vec3 x0 = model.positions[e.nodes.x], x1 = model.positions[e.nodes.y];
    const float edge2 = glm::dot(x1 - x0, x1 - x0);
    const float areas = triangleArea(model, model.triangles[pair.t0]) + triangleArea(model, model.triangles[pair.t1]);
    const float restAngle = gpu::dihedralAngle(x0, x1, model.positions[pair.a], model.positions[pair.b]);
    e.rest = glm::vec4(restAngle, edge2 / areas, 0.f, 0.f);
    e.stiffness0 = spec.modulus;
    e.damping = spec.damping;
    model.elements.push_back(e);
  }
}

void addPlaneBending(ClothModel& model, const PlaneBendSpec& spec) {
  requireNonNegative(spec.modulus, "plane bending modulus");
  requireNonNegative(spec.damping, "plane bending damping");
  for (const BendPair& pair : model.bendPairs) {
    gpu::Element e = makeElement(WEFT_ELEMENT_PLANE_BEND, hingeNodes(model, pair));
    const glm::vec3 x0 = model.positions[e.nodes.x], x1 = model.positions[e.nodes.y];
    const glm::vec3 x2 = model.positions[e.nodes.z], x3 = model.positions[e.nodes.w];
    const double edge = glm::length(x1 - x0);
    const double twiceA1 = glm::length(glm::cross(x1 - x0, x2 - x0)), twiceA2 = glm::length(glm::cross(x3 - x0, x1 - x0));
    if (edge <= 0.0 || twiceA1 <= 0.0 || twiceA2 <= 0.0) continue;  // no planes to project on
    // w_k = sqrt(s) / (2 h_k) with the dihedral's s = |e|^2 / (A1 + A2) and h_k = 2 A_k / |e|.
    const double root = 0.5 * std::sqrt(2.0 * edge * edge / (twiceA1 + twiceA2));
    e.rest = glm::vec4(gpu::planeDistance(x1, x0, x3, x2).distance, gpu::planeDistance(x0, x1, x2, x3).distance,
                       root * edge / twiceA1, root * edge / twiceA2);
    e.stiffness0 = spec.modulus;
    e.damping = spec.damping;
    model.elements.push_back(e);
  }
}

void addQuadraticBending(ClothModel& model, const QuadraticBendSpec& spec) {
  requireNonNegative(spec.modulus, "quadratic bending modulus");
  requireNonNegative(spec.damping, "quadratic bending damping");
  for (const BendPair& pair : model.bendPairs) {
    gpu::Element e = makeElement(WEFT_ELEMENT_QUADRATIC_BEND, hingeNodes(model, pair));
    const glm::dvec3 x0 = model.positions[e.nodes.x], x1 = model.positions[e.nodes.y];
    const glm::dvec3 x2 = model.positions[e.nodes.z], x3 = model.positions[e.nodes.w];
    const glm::dvec3 edge = x1 - x0;
    const glm::dvec3 n1 = glm::cross(edge, x2 - x0), n2 = glm::cross(x3 - x0, edge);
    const double twiceA1 = glm::length(n1), twiceA2 = glm::length(n2), length = glm::length(edge);
    if (length <= 0.0 || twiceA1 <= 0.0 || twiceA2 <= 0.0) continue;  // a collapsed wing bends nothing
    // x3 = l0 x0 + l1 x1 + l2 x2 in triangle 1's barycentric coordinates (signed areas along n1;
    // at a folded rest the tip is first unfolded onto triangle 1's plane about the edge).
    const glm::dvec3 normal = n1 / twiceA1, axis = edge / length;
    const glm::dvec3 r = x3 - x0, along = glm::dot(r, axis) * axis;
    const glm::dvec3 flat = x0 + along - glm::length(r - along) * glm::cross(normal, axis);
    auto signedArea = [&](glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) { return glm::dot(glm::cross(b - a, c - a), normal); };
    const double l0 = signedArea(flat, x1, x2) / twiceA1, l1 = signedArea(x0, flat, x2) / twiceA1;
    const double l2 = signedArea(x0, x1, flat) / twiceA1;
    const double height = twiceA2 / length;  // x3 over the edge
    e.rest = glm::vec4(l0 / height, l1 / height, l2 / height, -1.0 / height);
    e.stiffness0 = static_cast<float>(spec.modulus * length * length / (0.5 * (twiceA1 + twiceA2)));
    e.damping = spec.damping;
    model.elements.push_back(e);
  }
}

void addTrisprings(ClothModel& model, const TrispringSpec& spec) {
  requireIsotropicSheet(spec, "trispring");
  for (const glm::uvec3& t : model.triangles) {
    const glm::dvec3 x0 = model.positions[t.x], x1 = model.positions[t.y], x2 = model.positions[t.z];
    const double l0 = glm::length(x2 - x1), l1 = glm::length(x0 - x2), l2 = glm::length(x1 - x0);
    if (l2 <= 0.0) continue;
    // Node 2 in the frame with node 0 at the origin and node 1 at (l2, 0).
    const glm::dvec3 along = (x1 - x0) / l2;
    const double p = glm::dot(x2 - x0, along), q = glm::length(x2 - x0 - p * along);
    const double area = 0.5 * l2 * q;
    if (area <= 1e-12 * l2 * l2) continue;  // a collapsed triangle has no membrane
    gpu::Element e = makeElement(WEFT_ELEMENT_TRISPRING, glm::uvec4(t.x, t.y, t.z, t.x));
    e.rest = glm::vec4(l0, l1, l2, area);
    e.shape = glm::vec4(p, q, 0.f, 0.f);
    e.stiffness0 = areaModulus(spec);
    e.stiffness1 = shearModulus(spec);
    e.damping = spec.damping;
    model.elements.push_back(e);
  }
}

void addAerodynamics(ClothModel& model, const AeroSpec& spec) {
  requireNonNegative(spec.airDensity, "air density");
  requireNonNegative(spec.dragCoefficient, "drag coefficient");
  requireNonNegative(spec.liftCoefficient, "lift coefficient");
  for (const glm::uvec3& t : model.triangles) {
    gpu::Element e = makeElement(WEFT_ELEMENT_AERO, glm::uvec4(t.x, t.y, t.z, t.x));
    e.stiffness0 = 0.5f * spec.airDensity * spec.dragCoefficient;
    e.stiffness1 = 0.5f * spec.airDensity * spec.liftCoefficient;
    model.elements.push_back(e);
  }
}

void addTethers(ClothModel& model, const TetherSpec& spec) {
  requireNonNegative(spec.stiffness, "tether stiffness");
  requireNonNegative(spec.maxStretch, "tether maximum stretch");
  if (spec.anchors < 1 || spec.anchors > kMaxTetherAnchors)
    throw InputError("tether anchors must be a whole number from 1 to " + std::to_string(kMaxTetherAnchors) +
                     " (got " + std::to_string(spec.anchors) + ")");
  std::vector<uint32_t> anchors;
  for (uint32_t i = 0; i < model.particleCount(); ++i)
    if (model.pinned[i]) anchors.push_back(i);
  if (anchors.empty()) return;
  // Nearest first, the lower index first among equal distances (one anchor: the nearest pin, as
  // a scan keeping the first strictly nearer one finds it).
  std::vector<std::pair<float, uint32_t>> byDistance(anchors.size());
  const size_t count = std::min<size_t>(spec.anchors, anchors.size());
  for (uint32_t i = 0; i < model.particleCount(); ++i) {
    if (model.pinned[i]) continue;
    for (size_t a = 0; a < anchors.size(); ++a)
      byDistance[a] = {glm::length(model.positions[i] - model.positions[anchors[a]]), anchors[a]};
    std::partial_sort(byDistance.begin(), byDistance.begin() + static_cast<std::ptrdiff_t>(count), byDistance.end());
    for (size_t k = 0; k < count; ++k) {
      gpu::Element e = makeElement(WEFT_ELEMENT_TETHER, glm::uvec4(i, byDistance[k].second, i, i));
      e.rest = glm::vec4(byDistance[k].first * (1.f + spec.maxStretch), 0.f, 0.f, 0.f);
      e.stiffness0 = spec.stiffness;
      model.elements.push_back(e);
    }
  }
}

void replaceTethers(ClothModel& model, const TetherSpec& spec) {
  std::erase_if(model.elements, [](const gpu::Element& e) { return e.kind == WEFT_ELEMENT_TETHER; });
  addTethers(model, spec);
}

void applyForceModels(ClothModel& model, const ForceModels& models) {
  std::erase_if(model.springs, [&](const Spring& s) {
    const bool stretch = models.membrane || models.trispring || models.corotational;
    const bool bend = models.dihedral || models.planeBending || models.quadraticBending;
    if (stretch && (s.kind == SpringKind::Structural || s.kind == SpringKind::Shear)) return true;
    return bend && s.kind == SpringKind::Bend;
  });
  if (models.membrane) addMembrane(model, *models.membrane);
  if (models.trispring) addTrisprings(model, *models.trispring);
  if (models.corotational) addCorotational(model, *models.corotational);
  if (models.dihedral) addDihedralBending(model, *models.dihedral);
  if (models.planeBending) addPlaneBending(model, *models.planeBending);
  if (models.quadraticBending) addQuadraticBending(model, *models.quadraticBending);
  if (models.aerodynamics) addAerodynamics(model, *models.aerodynamics);
  if (models.tethers) addTethers(model, *models.tethers);
}

ElementTable buildElementTable(const ClothModel& model) {
  ElementTable table;
  const size_t n = model.particleCount();
  table.rows.assign(n + 1, 0);
  auto listed = [](const gpu::Element& e, uint32_t slot) {
    return slot < elementNodeCount(e.kind) && !(e.kind == WEFT_ELEMENT_TETHER && slot == 1);
  };
  for (const gpu::Element& e : model.elements)
    for (uint32_t slot = 0; slot < 4; ++slot)
      if (listed(e, slot)) ++table.rows[e.nodes[slot] + 1];
  for (size_t i = 0; i < n; ++i) table.rows[i + 1] += table.rows[i];
  table.refs.assign(std::max<uint32_t>(table.rows[n], 1), 0);
  std::vector<uint32_t> fill(table.rows.begin(), table.rows.end() - 1);
  for (uint32_t k = 0; k < model.elements.size(); ++k)
    for (uint32_t slot = 0; slot < 4; ++slot)
      if (listed(model.elements[k], slot)) table.refs[fill[model.elements[k].nodes[slot]]++] = k << 2 | slot;
  table.elements = model.elements;
  for (const gpu::Element& e : model.elements) table.kinds |= WEFT_ELEMENT_KIND_BIT(e.kind);
  if (table.elements.empty()) table.elements.push_back(makeElement(WEFT_ELEMENT_AERO, glm::uvec4(0)));
  return table;
}

}  // namespace weft
