// Scene files (docs/scene-format.md): strict JSON reading, so a typo or an impossible value stops
// the run with one sentence naming the file and the key instead of simulating something else.
#include "solver/scene.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "solver/input_file.h"
#include "solver/shown_text.h"

namespace weft {
namespace {

using Json = nlohmann::json;

// In the order of the Integrator enumerators.
constexpr const char* kIntegratorNames[] = {"explicit-euler", "symplectic-euler", "verlet", "rk4", "implicit-cg",
                                            "nonlinear-cg", "newton-chebyshev"};
// A scene nests four levels at most (colliders[i].center); deeper input is refused while it is
// read, before a value nested 100000 deep exists to be walked.
constexpr int kMaxNesting = 32;

std::string formatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string shownScalar(const Json& value) {
  if (value.is_number_integer()) return value.dump();  // every digit: 1000001, not 1e+06
  if (value.is_number()) return formatNumber(value.get<double>());  // so 1e39 does not read "null"
  if (value.is_string()) return "\"" + excerpt(value.get_ref<const std::string&>()) + "\"";
  if (value.is_array()) return value.empty() ? "[]" : "[...]";
  if (value.is_object()) return value.empty() ? "{}" : "{...}";
  return value.dump();  // true, false, null
}

// A JSON value as a message shows it: a scalar, or the items of an array or object one level deep,
// cut to a few dozen characters. Never value.dump(): it recurses, and a deep value takes the stack.
std::string shown(const Json& value) {
  std::string text;
  if (!value.is_structured() || value.empty()) {
    text = shownScalar(value);
  } else {
    text = value.is_array() ? "[" : "{";
    for (auto item = value.begin(); item != value.end() && text.size() <= kShownTextChars; ++item) {
      if (item != value.begin()) text += ", ";
      if (value.is_object()) text += "\"" + excerpt(item.key()) + "\": ";
      text += shownScalar(*item);
    }
    text += value.is_array() ? "]" : "}";
  }
  if (text.size() > kShownTextChars) text = text.substr(0, kShownTextChars) + "...";
  return text;
}

// A message longer than this is hard to take in at a glance; the rule tests/test_hostile_input.cpp holds.
constexpr size_t kMaxMessageChars = 200;

// The known key `key` is most likely a typo of: at most 2 edits away ignoring case (one more for
// long keys), or none.
std::string_view nearestKey(std::string_view key, std::initializer_list<std::string_view> known) {
  if (key.size() > 64) return {};
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  std::string_view best;
  size_t bestDistance = SIZE_MAX;
  for (std::string_view k : known) {
    // Levenshtein distance, one row at a time.
    std::vector<size_t> row(k.size() + 1);
    for (size_t j = 0; j <= k.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= key.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= k.size(); ++j) {
        const size_t substitution = diagonal + (lower(key[i - 1]) == lower(k[j - 1]) ? 0 : 1);
        diagonal = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitution});
      }
    }
    if (row[k.size()] < bestDistance) {
      bestDistance = row[k.size()];
      best = k;
    }
  }
  return bestDistance <= 2 + best.size() / 12 ? best : std::string_view{};
}

enum class Bound { Any, NonNegative, Positive };

// One JSON object and its key path ("colliders[1]"), with typed, checked reads of its members.
class Section {
 public:
  Section(const std::string& source, const Json& object, std::string path)
      : source_(source), object_(object), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    throw InputError(source_ + ": " + keyPath(key) + " " + message);
  }
  // Another function's sentence about this key's value, with the file and key in front.
  [[noreturn]] void failBecause(const std::string& key, const InputError& e) const {
    throw InputError(source_ + ": " + keyPath(key) + ": " + e.what());
  }
  std::string keyPath(const std::string& key) const {
    if (key.empty()) return path_;
    return path_.empty() ? key : path_ + "." + key;
  }
  bool has(const char* key) const { return object_.contains(key); }
  const std::string& source() const { return source_; }
  const Json& at(const char* key) const { return object_.at(key); }

  // An unknown key is named with the known ones, or, where they would make the sentence too long
  // to read (the solver has 13), with the nearest one when it looks like a typo of it.
  void allowKeys(std::initializer_list<std::string_view> known) const {
    for (const auto& item : object_.items()) {
      bool found = false;
      for (std::string_view k : known) found = found || item.key() == k;
      if (found) continue;
      std::string list;
      for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      const std::string unknown = source_ + ": unknown key '" + keyPath(excerpt(item.key())) + "'";
      std::string message = unknown + " (known: " + list + ")";
      if (message.size() > kMaxMessageChars) {
        const std::string_view near = nearestKey(item.key(), known);
        message = unknown + (near.empty() ? " (docs/scene-format.md lists the known keys)"
                                          : " (did you mean '" + std::string(near) + "'?)");
      }
      throw InputError(message);
    }
  }

  Section child(const char* key) const {
    const Json& value = object_.at(key);
    if (!value.is_object()) fail(key, "must be an object (got " + shown(value) + ")");
    return Section(source_, value, keyPath(key));
  }

  float number(const char* key, float fallback, Bound bound = Bound::Any) const {
    if (!has(key)) return fallback;
    const Json& value = at(key);
    const char* kind = bound == Bound::Positive      ? "a positive number"
                       : bound == Bound::NonNegative ? "a number >= 0"
                                                     : "a number";
    if (!value.is_number())
      fail(key, std::string("must be ") + kind + " (got " + shown(value) + ")");
    const float x = static_cast<float>(value.get<double>());
    const bool ok = std::isfinite(x) && (bound != Bound::Positive || x > 0.f) &&
                    (bound != Bound::NonNegative || x >= 0.f);
    if (!ok)
      fail(key, std::string("must be ") + kind + (std::isfinite(x) ? "" : " in float range") +
                    " (got " + shown(value) + ")");
    return x;
  }

  int integer(const char* key, int fallback, int minimum, int maximum = INT_MAX) const {
    if (!has(key)) return fallback;
    const Json& value = at(key);
    // 8.0 is accepted: JSON writers do not always keep the integer/float distinction.
    const double x = value.is_number() ? value.get<double>() : NAN;
    if (x > maximum) fail(key, "must be at most " + std::to_string(maximum) + " (got " + shown(value) + ")");
    if (!(x >= minimum && x <= INT_MAX && x == std::floor(x))) {
      const std::string kind = minimum == 1   ? "a positive integer"
                               : minimum == 0 ? "an integer >= 0"
                                              : "an integer >= " + std::to_string(minimum);
      fail(key, "must be " + kind + " (got " + shown(value) + ")");
    }
    return static_cast<int>(x);
  }

  glm::vec3 vec3(const char* key, glm::vec3 fallback) const {
    if (!has(key)) return fallback;
    const std::vector<float> v = numbers(key, 3, Bound::Any, "3 finite numbers");
    return {v[0], v[1], v[2]};
  }

  std::vector<float> numbers(const char* key, size_t count, Bound bound, const char* what) const {
    const Json& value = at(key);
    std::vector<float> out;
    if (value.is_array() && value.size() == count) {
      for (const Json& item : value) {
        const float x = item.is_number() ? static_cast<float>(item.get<double>()) : NAN;
        if (!std::isfinite(x) || (bound == Bound::Positive && x <= 0.f)) break;
        out.push_back(x);
      }
    }
    if (out.size() != count)
      fail(key, std::string("must be an array of ") + what + " (got " + shown(value) + ")");
    return out;
  }

  std::string string(const char* key, const std::string& fallback) const {
    if (!has(key)) return fallback;
    const Json& value = at(key);
    if (!value.is_string()) fail(key, "must be a string (got " + shown(value) + ")");
    return value.get<std::string>();
  }

 private:
  const std::string& source_;
  const Json& object_;
  std::string path_;
};

Material parseMaterial(const Section& s) {
  s.allowKeys({"structuralStiffness", "shearStiffness", "bendStiffness", "damping"});
  Material m;
  m.structuralStiffness =
      s.number("structuralStiffness", m.structuralStiffness, Bound::NonNegative);
  m.shearStiffness = s.number("shearStiffness", m.shearStiffness, Bound::NonNegative);
  m.bendStiffness = s.number("bendStiffness", m.bendStiffness, Bound::NonNegative);
  m.damping = s.number("damping", m.damping, Bound::NonNegative);
  return m;
}

// "baraff-witkin" (the default): anisotropic stretch and shear moduli; "trispring": each triangle's
// edges as springs of an isotropic sheet of Young's modulus Y and Poisson ratio nu.
void parseMembrane(const Section& s, ForceModels& forces) {
  const std::string model = s.string("model", "baraff-witkin");
  if (model == "trispring") {
    s.allowKeys({"model", "youngModulus", "poissonRatio", "damping"});
    if (!s.has("youngModulus")) s.fail("youngModulus", "is required for the trispring (N/m)");
    TrispringSpec t;
    t.youngModulus = s.number("youngModulus", t.youngModulus, Bound::NonNegative);
    t.poissonRatio = s.number("poissonRatio", t.poissonRatio, Bound::NonNegative);
    if (t.poissonRatio >= 1.f) s.fail("poissonRatio", "must be < 1 (got " + std::to_string(t.poissonRatio) + ")");
    t.damping = s.number("damping", t.damping, Bound::NonNegative);
    forces.trispring = t;
    return;
  }
  if (model != "baraff-witkin")
    s.fail("model", "must be \"baraff-witkin\" or \"trispring\" (got \"" + excerpt(model) + "\")");
  s.allowKeys({"model", "warp", "weft", "shear", "damping"});
  MembraneSpec m;
  if (!s.has("warp") && !s.has("weft")) s.fail("", "needs 'warp' or 'weft' (N/m)");
  m.warpStiffness = s.number("warp", s.number("weft", 0.f, Bound::NonNegative), Bound::NonNegative);
  m.weftStiffness = s.number("weft", m.warpStiffness, Bound::NonNegative);
  m.shearStiffness = s.number("shear", 0.25f * std::min(m.warpStiffness, m.weftStiffness), Bound::NonNegative);
  m.damping = s.number("damping", m.damping, Bound::NonNegative);
  forces.membrane = m;
}

// "springs" keeps the bend springs; "dihedral" (face angle) and "plane" (plane projection) replace
// them with hinges of modulus B.
void parseBending(const Section& s, ForceModels& forces) {
  s.allowKeys({"model", "modulus", "damping"});
  const std::string model = s.string("model", "springs");
  if (model == "springs") {
    if (s.has("modulus") || s.has("damping")) s.fail("model", "\"springs\" takes material.bendStiffness, not a modulus");
    return;
  }
  if (model != "dihedral" && model != "plane")
    s.fail("model", "must be \"springs\" or \"dihedral\" or \"plane\" (got \"" + excerpt(model) + "\")");
  if (!s.has("modulus")) s.fail("modulus", "is required for " + model + " bending (N m)");
  const float modulus = s.number("modulus", 0.f, Bound::NonNegative), damping = s.number("damping", 0.f, Bound::NonNegative);
  if (model == "dihedral") forces.dihedral = DihedralSpec{modulus, damping};
  else forces.planeBending = PlaneBendSpec{modulus, damping};
}

TetherSpec parseTethers(const Section& s) {
  s.allowKeys({"stiffness", "maxStretch"});
  TetherSpec t;
  if (!s.has("stiffness")) s.fail("stiffness", "is required (N/m)");
  t.stiffness = s.number("stiffness", t.stiffness, Bound::Positive);
  t.maxStretch = s.number("maxStretch", t.maxStretch, Bound::NonNegative);
  return t;
}

AeroSpec parseAerodynamics(const Section& s) {
  s.allowKeys({"airDensity", "drag", "lift"});
  AeroSpec a;
  a.airDensity = s.number("airDensity", a.airDensity, Bound::NonNegative);
  a.dragCoefficient = s.number("drag", a.dragCoefficient, Bound::NonNegative);
  a.liftCoefficient = s.number("lift", a.liftCoefficient, Bound::NonNegative);
  return a;
}

// One cloth and its recipe, before it joins the scene's model.
struct ParsedCloth {
  std::string name;
  ClothModel model;
  Material material;
  ForceModels forces;
  std::optional<GridSpec> grid;
  PinSpec pins;
  glm::vec3 velocity{0.f};
};

// Reads the cloth's shape from `s` (an entry of "cloths" also holds its name, material, force
// models and pins; for "cloth" those are read from the top level by the caller).
void parseCloth(const Section& s, ParsedCloth& scene, const std::string& baseDir, bool entry) {
  if (entry)
    s.allowKeys({"name", "grid", "mesh", "totalMass", "arealDensity", "velocity", "material", "membrane", "bending",
                 "tethers", "pins"});
  else
    s.allowKeys({"grid", "mesh", "totalMass", "arealDensity", "velocity"});
  if (entry && s.has("material")) scene.material = parseMaterial(s.child("material"));
  if (s.has("grid") == s.has("mesh")) s.fail("", "must have exactly one of 'grid' and 'mesh'");
  if (s.has("totalMass") && s.has("arealDensity")) {
    s.fail("", "may give totalMass or arealDensity, not both");
  }
  const float totalMass = s.number("totalMass", 0.f, Bound::Positive);
  const float arealDensity = s.number("arealDensity", GridSpec{}.arealDensity, Bound::Positive);

  // Builders check their own inputs; their sentence gets the file and key in front.
  auto build = [&](const char* key, auto&& make) {
    try {
      return make();
    } catch (const InputError& e) {
      s.failBecause(key, e);
    }
  };
  ClothModel model;
  if (s.has("grid")) {
    const Section g = s.child("grid");
    g.allowKeys({"width", "height", "size", "origin", "plane"});
    GridSpec spec;
    spec.width = static_cast<uint32_t>(g.integer("width", static_cast<int>(spec.width), 2));
    spec.height = static_cast<uint32_t>(g.integer("height", static_cast<int>(spec.height), 2));
    if (g.has("size")) {
      const std::vector<float> size = g.numbers("size", 2, Bound::Positive, "2 positive numbers");
      spec.sizeX = size[0];
      spec.sizeY = size[1];
    }
    spec.origin = g.vec3("origin", spec.origin);
    const std::string plane = g.string("plane", "horizontal");
    if (plane != "horizontal" && plane != "vertical") {
      g.fail("plane", "must be \"horizontal\" or \"vertical\" (got " + shown(g.at("plane")) + ")");
    }
    spec.plane = plane == "horizontal" ? GridPlane::Horizontal : GridPlane::Vertical;
    spec.totalMass = totalMass;
    spec.arealDensity = arealDensity;
    model = build("grid", [&] { return buildGrid(spec, scene.material); });
    scene.grid = spec;
  } else {
    const Section m = s.child("mesh");
    m.allowKeys({"path", "scale", "offset"});
    if (!m.has("path")) m.fail("path", "is required");
    MeshSpec spec;
    std::filesystem::path path = m.string("path", "");
    if (path.empty()) m.fail("path", "must not be empty");
    if (path.is_relative() && !baseDir.empty()) path = std::filesystem::path(baseDir) / path;
    spec.path = path.lexically_normal().string();
    spec.scale = m.number("scale", spec.scale, Bound::Positive);
    spec.offset = m.vec3("offset", spec.offset);
    spec.totalMass = totalMass;
    spec.arealDensity = arealDensity;
    model = build("mesh", [&] { return loadMesh(spec, scene.material); });
  }
  scene.velocity = s.vec3("velocity", glm::vec3(0.f));
  model.velocities.assign(model.particleCount(), scene.velocity);
  scene.model = std::move(model);
}

void parsePins(const Section& s, ClothModel& model, PinSpec& spec) {
  s.allowKeys({"corners", "indices", "rows"});
  const int corners = s.integer("corners", 0, 0);
  if (corners > 4)
    s.fail("corners", "must be an integer from 0 to 4 (got " + std::to_string(corners) + ")");
  if (corners > 0 && model.gridWidth == 0)
    s.fail("corners", "needs a grid cloth (this one is a mesh)");
  std::vector<uint32_t> pins = gridCorners(model, static_cast<CornerPreset>(corners));
  if (s.has("indices")) {
    const Json& list = s.at("indices");
    if (!list.is_array())
      s.fail("indices", "must be an array of particle indices (got " + shown(list) + ")");
    const double count = static_cast<double>(model.particleCount());
    for (size_t i = 0; i < list.size(); ++i) {
      const Json& item = list[i];
      const double x = item.is_number() ? item.get<double>() : NAN;
      const std::string key = "indices[" + std::to_string(i) + "]";
      if (!(x >= 0.0 && x == std::floor(x))) {
        s.fail(key, "must be a particle index, an integer >= 0 (got " + shown(item) + ")");
      }
      if (x >= count) {
        s.fail(key, "is out of range: the cloth has " + std::to_string(model.particleCount()) +
                        " particles (got " + shown(item) + ")");
      }
      pins.push_back(static_cast<uint32_t>(x));
      spec.indices.push_back(static_cast<uint32_t>(x));
    }
  }
  if (s.has("rows")) {
    const Json& list = s.at("rows");
    if (!list.is_array()) s.fail("rows", "must be an array of grid row numbers (got " + shown(list) + ")");
    for (size_t i = 0; i < list.size(); ++i) {
      const double x = list[i].is_number() ? list[i].get<double>() : NAN;
      if (!(x >= 0.0 && x == std::floor(x) && x < 1e9))
        s.fail("rows[" + std::to_string(i) + "]", "must be a row number, an integer >= 0 (got " + shown(list[i]) + ")");
      spec.rows.push_back(static_cast<uint32_t>(x));
    }
    try {
      const std::vector<uint32_t> rowPins = gridRows(model, spec.rows);
      pins.insert(pins.end(), rowPins.begin(), rowPins.end());
    } catch (const InputError& e) {
      s.fail("rows", e.what());
    }
  }
  spec.corners = static_cast<CornerPreset>(corners);
  pinParticles(model, pins);
}

Environment parseEnvironment(const Section& s, ForceModels& forces) {
  s.allowKeys({"gravity", "wind", "airDrag", "aerodynamics"});
  if (s.has("aerodynamics")) forces.aerodynamics = parseAerodynamics(s.child("aerodynamics"));
  Environment env;
  env.gravity = s.vec3("gravity", env.gravity);
  env.wind = s.vec3("wind", env.wind);
  env.airDrag = s.number("airDrag", env.airDrag, Bound::NonNegative);
  return env;
}

ColliderDesc parseCollider(const Section& s) {
  if (!s.has("type")) s.fail("type", "is required (\"plane\", \"sphere\" or \"capsule\")");
  const std::string type = s.string("type", "");
  ColliderDesc c;
  if (type == "plane") {
    s.allowKeys({"type", "normal", "offset", "friction", "margin"});
    c.kind = ColliderDesc::Kind::Plane;
    const glm::vec3 normal = s.vec3("normal", c.normal);
    const float length = glm::length(normal);
    if (!(length > 1e-6f) || !std::isfinite(length)) s.fail("normal", "must not be zero");
    c.normal = normal / length;
    c.offset = s.number("offset", c.offset);
  } else if (type == "sphere") {
    s.allowKeys({"type", "center", "radius", "friction", "margin"});
    c.kind = ColliderDesc::Kind::Sphere;
    c.center = s.vec3("center", c.center);
    if (!s.has("radius")) s.fail("radius", "is required for a sphere");
    c.radius = s.number("radius", c.radius, Bound::Positive);
  } else if (type == "capsule") {
    s.allowKeys({"type", "ends", "radius", "friction", "margin"});
    c.kind = ColliderDesc::Kind::Capsule;
    if (!s.has("ends")) s.fail("ends", "is required for a capsule: [[x, y, z], [x, y, z]]");
    const Json& ends = s.at("ends");
    if (!ends.is_array() || ends.size() != 2)
      s.fail("ends", "must be two points [[x, y, z], [x, y, z]] (got " + shown(ends) + ")");
    const Json named = {{"a", ends[0]}, {"b", ends[1]}};  // read as ends.a and ends.b
    const Section endsSection(s.source(), named, s.keyPath("ends"));
    c.center = endsSection.vec3("a", c.center);
    c.end = endsSection.vec3("b", c.end);
    if (!s.has("radius")) s.fail("radius", "is required for a capsule");
    c.radius = s.number("radius", c.radius, Bound::Positive);
  } else {
    s.fail("type", "must be \"plane\", \"sphere\" or \"capsule\" (got " + shown(s.at("type")) + ")");
  }
  c.friction = s.number("friction", c.friction, Bound::NonNegative);
  c.margin = s.number("margin", c.margin, Bound::NonNegative);
  return c;
}

SolverSettings parseSolver(const Section& s) {
  s.allowKeys({"integrator", "dt", "substeps", "iterations", "constraintStiffness", "relaxation",
               "frames", "tolerance", "maxIterations", "newtonIterations", "chebyshevRho", "relaxationRho",
               "velocityScale"});
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
  if (!(out.constraintStiffness > 0.f && out.constraintStiffness <= 1.f)) {
    s.fail("constraintStiffness",
           "must be in (0, 1] (got " + formatNumber(out.constraintStiffness) + ")");
  }
  out.tolerance = s.number("tolerance", out.tolerance, Bound::Positive);
  out.relaxationRho = s.number("relaxationRho", out.relaxationRho, Bound::NonNegative);
  if (!(out.relaxationRho < 1.f)) s.fail("relaxationRho", "must be in [0, 1) (got " + formatNumber(out.relaxationRho) + ")");
  out.maxIterations = s.integer("maxIterations", out.maxIterations, 1, kMaxIterations);
  out.newtonIterations = s.integer("newtonIterations", out.newtonIterations, 1, kMaxNewtonIterations);
  out.chebyshevRho = s.number("chebyshevRho", out.chebyshevRho);
  if (!(out.chebyshevRho >= 0.f && out.chebyshevRho < 1.f)) {
    s.fail("chebyshevRho", "must be in [0, 1) (got " + formatNumber(out.chebyshevRho) + ")");
  }
  out.velocityScale = s.number("velocityScale", out.velocityScale, Bound::Positive);
  out.relaxation = s.number("relaxation", out.relaxation);
  if (!(out.relaxation >= 1.f && out.relaxation < 2.f)) {
    s.fail("relaxation", "must be in [1, 2) (got " + formatNumber(out.relaxation) + ")");
  }
  out.frames = s.integer("frames", out.frames, 1, kMaxFrames);
  return out;
}

CalibrationSpec parseCalibration(const Section& s, const Scene& scene) {
  s.allowKeys({"targetFps", "minGrid", "maxGrid"});
  if (!scene.grid) s.fail("", "needs a grid cloth (this one is a mesh)");
  CalibrationSpec c;
  c.targetFps = s.number("targetFps", c.targetFps, Bound::Positive);
  c.minGrid = static_cast<uint32_t>(s.integer("minGrid", static_cast<int>(c.minGrid), 2));
  c.maxGrid = static_cast<uint32_t>(s.integer("maxGrid", static_cast<int>(c.maxGrid), 2));
  if (c.maxGrid > kMaxGridSide) {
    s.fail("maxGrid", "must be at most " + std::to_string(kMaxGridSide) + " particles per side (got " +
                          std::to_string(c.maxGrid) + ")");
  }
  if (c.minGrid > c.maxGrid) {
    s.fail("minGrid", "must not exceed maxGrid (got " + std::to_string(c.minGrid) + " > " +
                          std::to_string(c.maxGrid) + ")");
  }
  return c;
}

CameraDesc parseCamera(const Section& s) {
  s.allowKeys({"eye", "target", "fovY"});
  CameraDesc cam;
  cam.eye = s.vec3("eye", cam.eye);
  cam.target = s.vec3("target", cam.target);
  cam.fovYDegrees = s.number("fovY", cam.fovYDegrees);
  if (!(cam.fovYDegrees > 0.f && cam.fovYDegrees < 180.f)) {
    s.fail("fovY", "must be between 0 and 180 degrees, exclusive (got " +
                       formatNumber(cam.fovYDegrees) + ")");
  }
  if (cam.eye == cam.target) s.fail("", "eye and target must differ");
  return cam;
}

constexpr size_t kReasonChars = 100;  // nlohmann's words in a message, after the file and line

// nlohmann's syntax errors read "syntax error while parsing value - invalid literal; last read:
// '<the text it stopped at>'; expected ...". The quoted text can be megabytes of the file, with its
// bytes as they were; line and column already point at it, so it is left out, and so is the preamble.
std::string syntaxReason(std::string reason) {
  if (reason.rfind("syntax error while parsing ", 0) == 0) {
    if (const size_t dash = reason.find(" - "); dash != std::string::npos) reason.erase(0, dash + 3);
  }
  if (const size_t lastRead = reason.find("; last read: '"); lastRead != std::string::npos) {
    const size_t expected = reason.find("'; expected ", lastRead);
    reason.erase(lastRead, expected == std::string::npos ? std::string::npos : expected + 1 - lastRead);
  }
  return excerpt(reason, kReasonChars);
}

// Other nlohmann errors quote a token in full ("number overflow parsing '1000...'"): an excerpt of it.
std::string quotedReason(const std::string& reason) {
  const size_t open = reason.find('\'');
  const size_t close = reason.rfind('\'');
  if (open == std::string::npos || close <= open) return excerpt(reason, kReasonChars);
  return excerpt(reason.substr(0, open + 1), kReasonChars) + excerpt(reason.substr(open + 1, close - open - 1)) +
         excerpt(reason.substr(close), kReasonChars);
}

// nlohmann reports a byte offset; people look for lines and columns.
std::string malformedAt(const std::string& text, size_t pos, const std::string& reason) {
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return "malformed JSON at line " + std::to_string(line) + ", column " +
         std::to_string(pos - lineStart + 1) + ": " + reason;
}

std::string describeParseError(const std::string& text, const Json::parse_error& e) {
  std::string reason = e.what();
  const size_t at = reason.find("parse error");
  const size_t colon = at == std::string::npos ? std::string::npos : reason.find(": ", at);
  if (colon != std::string::npos) reason = reason.substr(colon + 2);
  return malformedAt(text, std::min(e.byte > 0 ? e.byte - 1 : 0, text.size()), syntaxReason(reason));
}

}  // namespace

Integrator parseIntegrator(const std::string& name) {
  for (size_t i = 0; i < std::size(kIntegratorNames); ++i) {
    if (name == kIntegratorNames[i]) return static_cast<Integrator>(i);
  }
  std::string known;
  for (const char* n : kIntegratorNames) known += (known.empty() ? "" : ", ") + std::string(n);
  throw InputError("unknown integrator '" + excerpt(name) + "' (known: " + known + ")");
}

const char* integratorName(Integrator integrator) {
  const auto i = static_cast<size_t>(integrator);
  return i < std::size(kIntegratorNames) ? kIntegratorNames[i] : "unknown";
}

std::vector<std::string> integratorNames() {
  return {std::begin(kIntegratorNames), std::end(kIntegratorNames)};
}

Scene parseScene(const std::string& jsonText, const std::string& baseDir,
                 const std::string& sourceName) {
  const std::string fileName = sourceName.empty() ? "scene" : sourceName;
  const std::string source = shownPath(fileName);
  // nlohmann takes a NUL byte for the end of the input: whatever follows would be dropped unread.
  if (const size_t nul = jsonText.find('\0'); nul != std::string::npos) {
    throw InputError(source + ": " + malformedAt(jsonText, nul, "a NUL byte (a JSON file is text)"));
  }
  Json root;
  struct TooDeep {};
  auto limitNesting = [](int depth, Json::parse_event_t event, Json&) {
    const bool opens = event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start;
    if (opens && depth >= kMaxNesting) throw TooDeep{};
    return true;
  };
  try {
    root = Json::parse(jsonText, limitNesting);
  } catch (const TooDeep&) {
    throw InputError(source + ": arrays and objects are nested more than " + std::to_string(kMaxNesting) +
                     " levels deep (a scene needs 4)");
  } catch (const Json::parse_error& e) {
    throw InputError(source + ": " + describeParseError(jsonText, e));
  } catch (const Json::exception& e) {  // e.g. a number too large for a double
    std::string reason = e.what();
    if (const size_t bracket = reason.find("] "); bracket != std::string::npos) {
      reason = reason.substr(bracket + 2);
    }
    throw InputError(source + ": malformed JSON: " + quotedReason(reason));
  }
  if (!root.is_object()) throw InputError(source + ": the top level must be a JSON object");
  const Section top(source, root, "");
  top.allowKeys({"name", "cloth", "cloths", "material", "membrane", "bending", "tethers", "pins", "environment",
                 "colliders", "solver", "camera", "calibration"});
  if (!top.has("cloth") && !top.has("cloths")) top.fail("cloth", "is required (or 'cloths', a list of several)");
  if (top.has("cloth") && top.has("cloths")) top.fail("cloths", "cannot be given with 'cloth': put every cloth in 'cloths'");

  Scene scene;
  scene.name = top.string("name", std::filesystem::path(fileName).stem().string());
  ForceModels shared;  // what every cloth gets: aerodynamics
  if (top.has("environment")) scene.environment = parseEnvironment(top.child("environment"), shared);
  // The cloth's recipe: at the top level for "cloth", inside each entry of "cloths".
  auto finish = [&](const Section& recipe, ParsedCloth& cloth, bool entry) {
    if (!entry && recipe.has("material")) cloth.material = parseMaterial(recipe.child("material"));
    if (recipe.has("pins")) parsePins(recipe.child("pins"), cloth.model, cloth.pins);
    cloth.forces.aerodynamics = shared.aerodynamics;
    if (recipe.has("membrane")) parseMembrane(recipe.child("membrane"), cloth.forces);
    if (recipe.has("bending")) parseBending(recipe.child("bending"), cloth.forces);
    if (recipe.has("tethers")) cloth.forces.tethers = parseTethers(recipe.child("tethers"));
    if (cloth.forces.tethers && std::count(cloth.model.pinned.begin(), cloth.model.pinned.end(), 1) == 0)
      recipe.fail("tethers", "need pinned particles to hang from");
    applyForceModels(cloth.model, cloth.forces);
  };
  std::vector<ParsedCloth> cloths;
  if (top.has("cloth")) {
    ParsedCloth cloth;
    cloth.name = scene.name;
    if (top.has("material")) cloth.material = parseMaterial(top.child("material"));
    parseCloth(top.child("cloth"), cloth, baseDir, false);
    finish(top, cloth, false);
    cloths.push_back(std::move(cloth));
  } else {
    for (const char* key : {"material", "membrane", "bending", "tethers", "pins"})
      if (top.has(key)) top.fail(key, "belongs inside each entry of 'cloths'");
    const Json& list = top.at("cloths");
    if (!list.is_array() || list.empty()) top.fail("cloths", "must be a non-empty array of cloths (got " + shown(list) + ")");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = "cloths[" + std::to_string(i) + "]";
      if (!list[i].is_object()) throw InputError(source + ": " + path + " must be an object (got " + shown(list[i]) + ")");
      const Section entry(source, list[i], path);
      ParsedCloth cloth;
      cloth.name = entry.string("name", "cloth" + std::to_string(i));
      parseCloth(entry, cloth, baseDir, true);
      finish(entry, cloth, true);
      cloths.push_back(std::move(cloth));
    }
  }
  // The first cloth's recipe is the scene's (withGridSize and the viewer rebuild a single cloth).
  scene.material = cloths.front().material;
  scene.forces = cloths.front().forces;
  scene.grid = cloths.size() == 1 ? cloths.front().grid : std::nullopt;
  scene.pins = cloths.front().pins;
  scene.initialVelocity = cloths.front().velocity;
  for (const ParsedCloth& cloth : cloths) {
    ClothPart part;
    part.name = cloth.name;
    part.firstParticle = static_cast<uint32_t>(scene.cloth.particleCount());
    part.particleCount = static_cast<uint32_t>(cloth.model.particleCount());
    part.firstTriangle = static_cast<uint32_t>(scene.cloth.triangles.size());
    part.triangleCount = static_cast<uint32_t>(cloth.model.triangles.size());
    try {
      appendCloth(scene.cloth, cloth.model);
    } catch (const InputError& e) {
      top.failBecause("cloths", e);
    }
    scene.parts.push_back(part);
  }
  if (top.has("colliders")) {
    const Json& list = top.at("colliders");
    if (!list.is_array()) top.fail("colliders", "must be an array (got " + shown(list) + ")");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = "colliders[" + std::to_string(i) + "]";
      if (!list[i].is_object()) {
        throw InputError(source + ": " + path + " must be an object (got " + shown(list[i]) + ")");
      }
      scene.colliders.push_back(parseCollider(Section(source, list[i], path)));
    }
  }
  if (top.has("solver")) scene.solver = parseSolver(top.child("solver"));
  if (top.has("camera")) scene.camera = parseCamera(top.child("camera"));
  if (top.has("calibration")) scene.calibration = parseCalibration(top.child("calibration"), scene);
  return scene;
}

Scene loadScene(const std::string& path) {
  const std::string text = readInputFile(path, {"cannot open scene file", kMaxSceneBytes});
  const std::filesystem::path p(path);
  return parseScene(text, p.parent_path().string(), p.filename().string());
}

}  // namespace weft
