// The sections of a scene file (docs/scene-format.md) that describe a cloth's material and force
// models, its surroundings (environment, contact, handles, colliders) and how it steps (solver):
// each read strictly, so a typo or an impossible value stops the run with one sentence naming the
// file and the key. scene_reader.cpp assembles the scene from them.
#include "solver/io/scene_reader.h"
#include "solver/io/scene_sections.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <vector>

#include "weft/errors.h"
#include "solver/model/settings_check.h"
#include "solver/model/shown_text.h"

namespace weft::scene_sections {


// In the order of the Integrator enumerators.
// Both fractions are required: a default compression of 0 would forbid any shortening unasked.
static StrainLimitSpec parseStrainLimit(const JsonSection& s) {
  s.allowKeys({"stretch", "compression", "mode"});
  if (!s.has("stretch")) s.fail("stretch", "is required (the largest stretch, a fraction of the rest length)");
  if (!s.has("compression")) s.fail("compression", "is required (the largest compression, a fraction of the rest length)");
  StrainLimitSpec limit;
  limit.stretch = s.number("stretch", 0.f, Bound::Positive);
  limit.compression = s.number("compression", 0.f, Bound::NonNegative);
  if (!(limit.compression < 1.f))
    s.fail("compression", "must be in [0, 1) (got " + shownNumber(limit.compression) + ")");
  // "projection" (the default, Provot's), "force" (seed 004's bounded spring force) or "both".
  const std::string mode = s.string("mode", "projection");
  if (mode == "force") limit.mode = StrainLimitMode::Force;
  else if (mode == "both") limit.mode = StrainLimitMode::Both;
  else if (mode != "projection") s.fail("mode", "must be \"projection\", \"force\" or \"both\" (got \"" + excerpt(mode) + "\")");
  return limit;
}

Material parseMaterial(const JsonSection& s) {
  s.allowKeys({"structuralStiffness", "shearStiffness", "bendStiffness", "damping", "strainLimit", "tearStrain"});
  Material m;
  m.structuralStiffness =
      s.number("structuralStiffness", m.structuralStiffness, Bound::NonNegative);
  m.shearStiffness = s.number("shearStiffness", m.shearStiffness, Bound::NonNegative);
  m.bendStiffness = s.number("bendStiffness", m.bendStiffness, Bound::NonNegative);
  m.damping = s.number("damping", m.damping, Bound::NonNegative);
  if (s.has("strainLimit")) m.strainLimit = parseStrainLimit(s.child("strainLimit"));
  m.tearStrain = s.number("tearStrain", 0.f, Bound::Positive);
  return m;
}

// "baraff-witkin" (the default): anisotropic stretch and shear moduli; "trispring" (each triangle's
// edges as springs) and "corotational" (linear elasticity in each triangle's rotating frame): an
// isotropic sheet of Young's modulus Y and Poisson ratio nu.
void parseMembrane(const JsonSection& s, ForceModels& forces) {
  const std::string model = s.string("model", "baraff-witkin");
  if (model == "trispring" || model == "corotational") {
    s.allowKeys({"model", "youngModulus", "poissonRatio", "damping"});
    if (!s.has("youngModulus")) s.fail("youngModulus", "is required for the " + model + " membrane (N/m)");
    IsotropicSheetSpec t;
    t.youngModulus = s.number("youngModulus", t.youngModulus, Bound::NonNegative);
    t.poissonRatio = s.number("poissonRatio", t.poissonRatio, Bound::NonNegative);
    if (t.poissonRatio >= 1.f) s.fail("poissonRatio", "must be < 1 (got " + std::to_string(t.poissonRatio) + ")");
    t.damping = s.number("damping", t.damping, Bound::NonNegative);
    (model == "trispring" ? forces.trispring : forces.corotational) = t;
    return;
  }
  if (model != "baraff-witkin")
    s.fail("model", "must be \"baraff-witkin\", \"trispring\" or \"corotational\" (got \"" + excerpt(model) + "\")");
  s.allowKeys({"model", "warp", "weft", "shear", "damping"});
  MembraneSpec m;
  if (!s.has("warp") && !s.has("weft")) s.fail("", "needs 'warp' or 'weft' (N/m)");
  m.warpStiffness = s.number("warp", s.number("weft", 0.f, Bound::NonNegative), Bound::NonNegative);
  m.weftStiffness = s.number("weft", m.warpStiffness, Bound::NonNegative);
  m.shearStiffness = s.number("shear", 0.25f * std::min(m.warpStiffness, m.weftStiffness), Bound::NonNegative);
  m.damping = s.number("damping", m.damping, Bound::NonNegative);
  forces.membrane = m;
}

// "springs" keeps the bend springs; "dihedral" (face angle), "plane" (plane projection) and
// "quadratic" (Bergou et al. 2006) replace them with hinges of modulus B.
void parseBending(const JsonSection& s, ForceModels& forces) {
  s.allowKeys({"model", "modulus", "damping"});
  const std::string model = s.string("model", "springs");
  if (model == "springs") {
    if (s.has("modulus") || s.has("damping")) s.fail("model", "\"springs\" takes material.bendStiffness, not a modulus");
    return;
  }
  if (model != "dihedral" && model != "plane" && model != "quadratic")
    s.fail("model", "must be \"springs\", \"dihedral\", \"plane\" or \"quadratic\" (got \"" + excerpt(model) + "\")");
  if (!s.has("modulus")) s.fail("modulus", "is required for " + model + " bending (N m)");
  const float modulus = s.number("modulus", 0.f, Bound::NonNegative), damping = s.number("damping", 0.f, Bound::NonNegative);
  if (model == "dihedral") forces.dihedral = DihedralSpec{modulus, damping};
  else if (model == "plane") forces.planeBending = PlaneBendSpec{modulus, damping};
  else forces.quadraticBending = QuadraticBendSpec{modulus, damping};
}

TetherSpec parseTethers(const JsonSection& s) {
  s.allowKeys({"stiffness", "maxStretch", "anchors"});
  TetherSpec t;
  if (!s.has("stiffness")) s.fail("stiffness", "is required (N/m)");
  t.stiffness = s.number("stiffness", t.stiffness, Bound::Positive);
  t.maxStretch = s.number("maxStretch", t.maxStretch, Bound::NonNegative);
  t.anchors = static_cast<uint32_t>(
      s.integer("anchors", static_cast<int>(t.anchors), 1, static_cast<int>(kMaxTetherAnchors)));
  return t;
}

static AeroSpec parseAerodynamics(const JsonSection& s) {
  s.allowKeys({"airDensity", "drag", "lift"});
  AeroSpec a;
  a.airDensity = s.number("airDensity", a.airDensity, Bound::NonNegative);
  a.dragCoefficient = s.number("drag", a.dragCoefficient, Bound::NonNegative);
  a.liftCoefficient = s.number("lift", a.liftCoefficient, Bound::NonNegative);
  return a;
}

// A file named in a scene, relative to the scene's folder.
static std::string scenePath(const std::string& name, const std::string& baseDir) {
  std::filesystem::path path = name;
  if (path.is_relative() && !baseDir.empty()) path = std::filesystem::path(baseDir) / path;
  return path.lexically_normal().string();
}

// An OBJ named by `pathKey` (none: the caller names it), with its "scale" and "offset".
MeshSpec readMeshSpec(const JsonSection& s, const char* pathKey, const std::string& baseDir) {
  MeshSpec spec;
  if (pathKey != nullptr) {
    const std::string name = s.string(pathKey, "");
    if (name.empty()) s.fail(pathKey, "must not be empty");
    spec.path = scenePath(name, baseDir);
  }
  spec.scale = s.number("scale", spec.scale, Bound::Positive);
  spec.offset = s.vec3("offset", spec.offset);
  return spec;
}

constexpr size_t kMaxSequenceShapes = 10000;

// A mesh collider's "sequence": {"files": [OBJ, ...], "rate": shapes a second, "loop": bool}, each
// OBJ scaled and moved as the collider says; every shape must have the first's triangles.
static void readColliderSequence(const JsonSection& s, const std::string& baseDir, ColliderDesc& c) {
  const JsonSection q = s.child("sequence");
  q.allowKeys({"files", "rate", "loop"});
  if (!q.has("files")) q.fail("files", "is required: [\"body_000.obj\", \"body_001.obj\", ...]");
  const Json& files = q.at("files");
  if (!files.is_array() || files.size() < 2 || files.size() > kMaxSequenceShapes)
    q.fail("files", "must be an array of 2 to " + std::to_string(kMaxSequenceShapes) + " OBJ files (got " + shownValue(files) + ")");
  if (!q.has("rate")) q.fail("rate", "is required: how many shapes a second");
  c.sequenceRate = q.number("rate", 0.f, Bound::Positive);
  if (q.has("loop")) {
    if (!q.at("loop").is_boolean()) q.fail("loop", "must be true or false (got " + shownValue(q.at("loop")) + ")");
    c.sequenceLoops = q.at("loop").get<bool>();
  }
  MeshSpec spec = readMeshSpec(s, nullptr, baseDir);
  for (size_t k = 0; k < files.size(); ++k) {
    const std::string key = "files[" + std::to_string(k) + "]";
    if (!files[k].is_string() || files[k].get<std::string>().empty())
      q.fail(key, "must name an OBJ file (got " + shownValue(files[k]) + ")");
    spec.path = scenePath(files[k].get<std::string>(), baseDir);
    std::shared_ptr<const ColliderMesh> shape;
    try {
      shape = std::make_shared<const ColliderMesh>(loadColliderMesh(spec));
    } catch (const InputError& e) {
      q.failBecause(key, e);
    }
    if (!c.sequence.empty() && (shape->vertices.size() != c.sequence[0]->vertices.size() ||
                                shape->triangles != c.sequence[0]->triangles))
      q.fail(key, "has " + std::to_string(shape->vertices.size()) + " vertices and " +
                              std::to_string(shape->triangles.size()) + " triangles unlike the first shape's " +
                              std::to_string(c.sequence[0]->vertices.size()) + " and " +
                              std::to_string(c.sequence[0]->triangles.size()) +
                              ": every shape of a sequence must be the same triangles of the same vertices");
    c.sequence.push_back(std::move(shape));
  }
  c.mesh = c.sequence.front();
}


Environment parseEnvironment(const JsonSection& s, ForceModels& forces) {
  s.allowKeys({"gravity", "wind", "airDrag", "aerodynamics"});
  if (s.has("aerodynamics")) forces.aerodynamics = parseAerodynamics(s.child("aerodynamics"));
  Environment env;
  env.gravity = s.vec3("gravity", env.gravity);
  env.wind = s.vec3("wind", env.wind);
  env.airDrag = s.number("airDrag", env.airDrag, Bound::NonNegative);
  return env;
}

// An entry of "cloths" may give its own coefficients against other cloth: {"friction", "staticFriction"}.
ClothFriction parseClothFriction(const JsonSection& s) {
  s.allowKeys({"friction", "staticFriction"});
  ClothFriction f;
  f.friction = s.number("friction", f.friction, Bound::NonNegative);
  f.staticFriction = s.number("staticFriction", f.friction, Bound::NonNegative);
  if (f.staticFriction < f.friction)
    s.fail("staticFriction", "must be at least 'friction' (" + std::to_string(f.friction) +
                                 "): a cloth that slides at a force holds below it");
  return f;
}

ContactSpec parseContact(const JsonSection& s) {
  s.allowKeys({"thickness", "radius", "friction", "staticFriction"});
  ContactSpec contact;
  contact.enabled = true;
  contact.thickness = s.number("thickness", contact.thickness, Bound::Positive);
  contact.radius = s.number("radius", contact.radius, Bound::Positive);
  contact.friction = s.number("friction", contact.friction, Bound::NonNegative);
  contact.staticFriction = s.number("staticFriction", contact.friction, Bound::NonNegative);
  if (contact.staticFriction < contact.friction)
    s.fail("staticFriction", "must be at least 'friction' (" + std::to_string(contact.friction) +
                                 "): a cloth that slides at a force holds below it");
  if (s.has("radius") && contact.radius <= contact.thickness)
    s.fail("radius", "must exceed the thickness (" + std::to_string(contact.thickness) +
                         " m): pairs are pushed apart to the thickness and must be seen before they get there");
  return contact;
}

// A keyed rigid path (solver/model/motion.h): "center" (defaults to `center`), "axis" and "keys", each key
// {"time": s, "angle": degrees, "offset": [x, y, z]}.
static RigidPath parsePath(const JsonSection& s, glm::vec3 center, bool* centerGiven = nullptr) {
  s.allowKeys({"center", "axis", "keys"});
  RigidPath path;
  path.center = s.vec3("center", center);
  if (centerGiven) *centerGiven = s.has("center");
  const glm::vec3 axis = s.vec3("axis", path.axis);
  const float length = glm::length(axis);
  if (!(length > 1e-6f) || !std::isfinite(length)) s.fail("axis", "must not be zero");
  path.axis = axis / length;
  if (!s.has("keys")) s.fail("keys", "is required: [{\"time\": s, \"angle\": degrees, \"offset\": [x, y, z]}, ...]");
  const Json& list = s.at("keys");
  if (!list.is_array() || list.empty()) s.fail("keys", "must be a non-empty array of keys (got " + shownValue(list) + ")");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string key = "keys[" + std::to_string(i) + "]";
    if (!list[i].is_object()) s.fail(key, "must be an object {\"time\", \"angle\", \"offset\"} (got " + shownValue(list[i]) + ")");
    const JsonSection k(s.source(), list[i], s.keyPath(key));
    k.allowKeys({"time", "angle", "offset"});
    if (!k.has("time")) k.fail("time", "is required (s)");
    PathKey pk;
    pk.time = k.number("time", 0.f, Bound::NonNegative);
    pk.angle = glm::radians(k.number("angle", 0.f));
    pk.offset = k.vec3("offset", glm::vec3(0.f));
    if (!path.keys.empty() && !(pk.time > path.keys.back().time))
      k.fail("time", "must be later than the key before (" + shownNumber(path.keys.back().time) + " s)");
    path.keys.push_back(pk);
  }
  return path;
}

std::vector<HandleSpec> parseHandles(const JsonSection& top, const ClothModel& model) {
  const Json& list = top.at("handles");
  if (!list.is_array()) top.fail("handles", "must be an array (got " + shownValue(list) + ")");
  std::vector<HandleSpec> handles;
  for (size_t h = 0; h < list.size(); ++h) {
    const std::string path = "handles[" + std::to_string(h) + "]";
    if (!list[h].is_object()) throw InputError(top.source() + ": " + path + " must be an object (got " + shownValue(list[h]) + ")");
    const JsonSection s(top.source(), list[h], path);
    s.allowKeys({"indices", "rows", "path"});
    HandleSpec spec;
    if (s.has("indices")) {
      const Json& indices = s.at("indices");
      if (!indices.is_array()) s.fail("indices", "must be an array of particle indices (got " + shownValue(indices) + ")");
      for (size_t i = 0; i < indices.size(); ++i) {
        const double x = indices[i].is_number() ? indices[i].get<double>() : NAN;
        const std::string key = "indices[" + std::to_string(i) + "]";
        if (!(x >= 0.0 && x == std::floor(x))) s.fail(key, "must be a particle index, an integer >= 0 (got " + shownValue(indices[i]) + ")");
        if (x >= double(model.particleCount()))
          s.fail(key, "is out of range: the scene has " + std::to_string(model.particleCount()) + " particles (got " + shownValue(indices[i]) + ")");
        spec.indices.push_back(static_cast<uint32_t>(x));
      }
    }
    if (s.has("rows")) {
      const Json& rows = s.at("rows");
      if (!rows.is_array()) s.fail("rows", "must be an array of grid row numbers (got " + shownValue(rows) + ")");
      if (model.gridWidth == 0) s.fail("rows", "needs a scene of one grid cloth");
      for (size_t i = 0; i < rows.size(); ++i) {
        const double x = rows[i].is_number() ? rows[i].get<double>() : NAN;
        const double height = model.gridHeight;
        if (!(x == std::floor(x) && x < height && x >= -height))
          s.fail("rows[" + std::to_string(i) + "]", "must be a row of the grid, 0 to " + std::to_string(model.gridHeight - 1) +
                                                       " or -1 (the last) to -" + std::to_string(model.gridHeight) + " (got " + shownValue(rows[i]) + ")");
        spec.rows.push_back(static_cast<int>(x));
      }
    }
    if (spec.indices.empty() && spec.rows.empty()) s.fail("indices", "or 'rows' must name the particles the handle carries");
    if (!s.has("path")) s.fail("path", "is required: how the handle moves");
    spec.path = parsePath(s.child("path"), glm::vec3(0.f), &spec.centerGiven);
    handles.push_back(std::move(spec));
  }
  return handles;
}

ColliderDesc parseCollider(const JsonSection& s, const std::string& baseDir) {
  if (!s.has("type")) s.fail("type", "is required (\"plane\", \"sphere\", \"capsule\", \"box\" or \"mesh\")");
  const std::string type = s.string("type", "");
  ColliderDesc c;
  if (type == "plane") {
    s.allowKeys({"type", "normal", "offset", "friction", "staticFriction", "margin", "path"});
    c.kind = ColliderDesc::Kind::Plane;
    const glm::vec3 normal = s.vec3("normal", c.normal);
    const float length = glm::length(normal);
    if (!(length > 1e-6f) || !std::isfinite(length)) s.fail("normal", "must not be zero");
    c.normal = normal / length;
    c.offset = s.number("offset", c.offset);
  } else if (type == "sphere") {
    s.allowKeys({"type", "center", "radius", "friction", "staticFriction", "margin", "path"});
    c.kind = ColliderDesc::Kind::Sphere;
    c.center = s.vec3("center", c.center);
    if (!s.has("radius")) s.fail("radius", "is required for a sphere");
    c.radius = s.number("radius", c.radius, Bound::Positive);
  } else if (type == "capsule") {
    s.allowKeys({"type", "ends", "radius", "friction", "staticFriction", "margin", "path"});
    c.kind = ColliderDesc::Kind::Capsule;
    if (!s.has("ends")) s.fail("ends", "is required for a capsule: [[x, y, z], [x, y, z]]");
    const Json& ends = s.at("ends");
    if (!ends.is_array() || ends.size() != 2)
      s.fail("ends", "must be two points [[x, y, z], [x, y, z]] (got " + shownValue(ends) + ")");
    const Json named = {{"a", ends[0]}, {"b", ends[1]}};  // read as ends.a and ends.b
    const JsonSection endsSection(s.source(), named, s.keyPath("ends"));
    c.center = endsSection.vec3("a", c.center);
    c.end = endsSection.vec3("b", c.end);
    if (!s.has("radius")) s.fail("radius", "is required for a capsule");
    c.radius = s.number("radius", c.radius, Bound::Positive);
  } else if (type == "box") {
    s.allowKeys({"type", "center", "halfExtents", "axis", "angle", "friction", "staticFriction", "margin", "path"});
    c.kind = ColliderDesc::Kind::Box;
    c.center = s.vec3("center", c.center);
    if (!s.has("halfExtents")) s.fail("halfExtents", "is required for a box: [x, y, z], half its size along each of its axes");
    const std::vector<float> half = s.numbers("halfExtents", 3, Bound::Positive, "3 positive numbers");
    c.halfExtents = glm::vec3(half[0], half[1], half[2]);
    // Turned by "angle" degrees about "axis" (through its centre) from the world's axes.
    const glm::vec3 axis = s.vec3("axis", glm::vec3(0.f, 1.f, 0.f));
    const float length = glm::length(axis);
    if (!(length > 1e-6f) || !std::isfinite(length)) s.fail("axis", "must not be zero");
    c.rotation = glm::angleAxis(glm::radians(s.number("angle", 0.f)), axis / length);
  } else if (type == "mesh") {
    s.allowKeys({"type", "file", "sequence", "scale", "offset", "thickness", "friction", "staticFriction", "margin", "path"});
    c.kind = ColliderDesc::Kind::Mesh;
    if (s.has("file") == s.has("sequence"))
      s.fail("", "needs exactly one of 'file' (an OBJ file, relative to the scene's folder) and 'sequence' (OBJ files played in turn)");
    c.thickness = s.number("thickness", 0.002f, Bound::Positive);
    if (s.has("sequence")) {
      readColliderSequence(s, baseDir, c);
    } else {
      const MeshSpec spec = readMeshSpec(s, "file", baseDir);
      try {
        c.mesh = std::make_shared<const ColliderMesh>(loadColliderMesh(spec));
      } catch (const InputError& e) {
        s.failBecause("file", e);
      }
    }
  } else {
    s.fail("type", "must be \"plane\", \"sphere\", \"capsule\", \"box\" or \"mesh\" (got " + shownValue(s.at("type")) + ")");
  }
  c.friction = s.number("friction", c.friction, Bound::NonNegative);
  c.staticFriction = s.number("staticFriction", c.friction, Bound::NonNegative);
  if (c.staticFriction < c.friction)
    s.fail("staticFriction", "must be at least 'friction' (" + std::to_string(c.friction) + "): sticking takes at least the force sliding does");
  c.margin = s.number("margin", c.margin, Bound::NonNegative);
  if (s.has("path")) c.path = parsePath(s.child("path"), colliderReference(c));
  return c;
}

static Preconditioner parsePreconditioner(const JsonSection& s) {
  if (!s.has("preconditioner")) return Preconditioner::BlockJacobi;
  try {
    return parsePreconditionerName(s.string("preconditioner", ""));
  } catch (const InputError& e) {
    s.failBecause("preconditioner", e);
  }
  return Preconditioner::BlockJacobi;
}

static Acceleration parseAcceleration(const JsonSection& s) {
  const std::string name = s.string("acceleration", "chebyshev");
  if (name == "chebyshev") return Acceleration::Chebyshev;
  if (name == "nesterov") return Acceleration::Nesterov;
  if (name == "none") return Acceleration::None;
  s.fail("acceleration", "must be \"chebyshev\", \"nesterov\" or \"none\" (got " + shownValue(s.at("acceleration")) + ")");
}

// "schedule" or a fixed momentum: at 1 or above the extrapolation never decays.
static float parseMomentum(const JsonSection& s) {
  if (!s.has("momentum")) return kMomentumSchedule;
  const Json& value = s.at("momentum");
  if (value.is_string() && value.get<std::string>() == "schedule") return kMomentumSchedule;
  const float momentum = value.is_number() ? s.number("momentum", 0.f) : -1.f;
  if (!(momentum >= 0.f && momentum < 1.f))
    s.fail("momentum", "must be \"schedule\" or a number in [0, 1) (got " + shownValue(value) + ")");
  return momentum;
}

SolverSettings parseSolver(const JsonSection& s, const std::vector<std::string_view>& foreignKeys) {
  s.allowKeys({"integrator", "dt", "substeps", "iterations", "constraintStiffness", "relaxation", "tolerance",
               "maxIterations", "preconditioner", "newtonIterations", "chebyshevRho", "relaxationRho", "acceleration",
               "momentum", "velocityScale", "relativeTolerance", "strainLimitIterations"},
              foreignKeys);
  SolverSettings out;
  if (s.has("integrator")) {
    try {
      out.integrator = parseIntegrator(s.string("integrator", ""));
    } catch (const InputError& e) {
      s.failBecause("integrator", e);
    }
  }
  out.dt = s.number("dt", out.dt, Bound::Positive);
  out.substeps = s.integer("substeps", out.substeps, 1, kMaxSubsteps);
  out.iterations = s.integer("iterations", out.iterations, 0, kMaxIterations);
  out.constraintStiffness = s.number("constraintStiffness", out.constraintStiffness);
  out.tolerance = s.number("tolerance", out.tolerance, Bound::Positive);
  out.relaxationRho = s.number("relaxationRho", out.relaxationRho, Bound::NonNegative);
  out.maxIterations = s.integer("maxIterations", out.maxIterations, 1, kMaxIterations);
  out.newtonIterations = s.integer("newtonIterations", out.newtonIterations, 1, kMaxNewtonIterations);
  out.chebyshevRho = s.number("chebyshevRho", out.chebyshevRho);
  out.acceleration = parseAcceleration(s);
  out.preconditioner = parsePreconditioner(s);
  out.momentum = parseMomentum(s);
  out.velocityScale = s.number("velocityScale", out.velocityScale, Bound::Positive);
  out.relativeTolerance = s.number("relativeTolerance", out.relativeTolerance, Bound::NonNegative);
  out.strainLimitIterations = s.integer("strainLimitIterations", out.strainLimitIterations, 1, kMaxIterations);
  out.relaxation = s.number("relaxation", out.relaxation);
  // The JSON reads above check each value's type (and an integer's bounds, with the value as the
  // file wrote it); the ranges are the model's one check of the settings.
  if (const auto problem = settingsProblem(out)) s.fail(problem->key.c_str(), problem->sentence);
  return out;
}

}  // namespace weft::scene_sections
