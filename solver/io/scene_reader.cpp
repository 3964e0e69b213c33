// Scene files (docs/scene-format.md): strict JSON reading, so a typo or an impossible value stops
// the run with one sentence naming the file and the key instead of simulating something else.
#include "solver/io/obj_mesh.h"
#include "solver/io/scene_reader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <vector>

#include "weft/errors.h"
#include "solver/io/scene_sections.h"
#include "solver/io/scene_json.h"
#include "solver/model/shown_text.h"

namespace weft {
using namespace scene_sections;
namespace {

// One cloth and its recipe, before it joins the scene's model.
struct ParsedCloth {
  std::string name;
  ClothModel model;
  Material material;
  ForceModels forces;
  std::optional<GridSpec> grid;
  PinSpec pins;
  glm::vec3 velocity{0.f};
  std::optional<ClothFriction> friction;  // its own against other cloth: an entry's "contact"
};

// Reads the cloth's shape from `s` (an entry of "cloths" also holds its name, material, force
// models and pins; for "cloth" those are read from the top level by the caller).
void parseCloth(const JsonSection& s, ParsedCloth& scene, const std::string& baseDir, bool entry) {
  if (entry)
    s.allowKeys({"name", "grid", "mesh", "totalMass", "arealDensity", "velocity", "material", "membrane", "bending",
                 "tethers", "pins", "contact"});
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
    const JsonSection g = s.child("grid");
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
      g.fail("plane", "must be \"horizontal\" or \"vertical\" (got " + shownValue(g.at("plane")) + ")");
    }
    spec.plane = plane == "horizontal" ? GridPlane::Horizontal : GridPlane::Vertical;
    spec.totalMass = totalMass;
    spec.arealDensity = arealDensity;
    model = build("grid", [&] { return buildGrid(spec, scene.material); });
    scene.grid = spec;
  } else {
    const JsonSection m = s.child("mesh");
    m.allowKeys({"path", "scale", "offset"});
    if (!m.has("path")) m.fail("path", "is required");
    MeshSpec spec = readMeshSpec(m, "path", baseDir);
    spec.totalMass = totalMass;
    spec.arealDensity = arealDensity;
    model = build("mesh", [&] { return loadMesh(spec, scene.material); });
  }
  scene.velocity = s.vec3("velocity", glm::vec3(0.f));
  model.velocities.assign(model.particleCount(), scene.velocity);
  scene.model = std::move(model);
}

void parsePins(const JsonSection& s, ClothModel& model, PinSpec& spec) {
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
      s.fail("indices", "must be an array of particle indices (got " + shownValue(list) + ")");
    const double count = static_cast<double>(model.particleCount());
    for (size_t i = 0; i < list.size(); ++i) {
      const Json& item = list[i];
      const double x = item.is_number() ? item.get<double>() : NAN;
      const std::string key = "indices[" + std::to_string(i) + "]";
      if (!(x >= 0.0 && x == std::floor(x))) {
        s.fail(key, "must be a particle index, an integer >= 0 (got " + shownValue(item) + ")");
      }
      if (x >= count) {
        s.fail(key, "is out of range: the cloth has " + std::to_string(model.particleCount()) +
                        " particles (got " + shownValue(item) + ")");
      }
      pins.push_back(static_cast<uint32_t>(x));
      spec.indices.push_back(static_cast<uint32_t>(x));
    }
  }
  if (s.has("rows")) {
    const Json& list = s.at("rows");
    if (!list.is_array()) s.fail("rows", "must be an array of grid row numbers (got " + shownValue(list) + ")");
    for (size_t i = 0; i < list.size(); ++i) {
      const double x = list[i].is_number() ? list[i].get<double>() : NAN;
      if (!(x >= 0.0 && x == std::floor(x) && x < 1e9))
        s.fail("rows[" + std::to_string(i) + "]", "must be a row number, an integer >= 0 (got " + shownValue(list[i]) + ")");
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


}  // namespace

Scene readScene(const SceneDocument& document, const ForeignKeys& foreign) {
  const std::string& source = document.source;
  const std::string& baseDir = document.baseDir;
  const JsonSection top = document.top();
  top.allowKeys({"name", "cloth", "cloths", "material", "membrane", "bending", "tethers", "pins", "environment",
                 "colliders", "handles", "contact", "solver"},
                foreign.topLevel);
  if (!top.has("cloth") && !top.has("cloths")) top.fail("cloth", "is required (or 'cloths', a list of several)");
  if (top.has("cloth") && top.has("cloths")) top.fail("cloths", "cannot be given with 'cloth': put every cloth in 'cloths'");

  Scene scene;
  scene.name = top.string("name", std::filesystem::path(document.fileName).stem().string());
  ForceModels shared;  // what every cloth gets: aerodynamics
  if (top.has("environment")) scene.environment = parseEnvironment(top.child("environment"), shared);
  // The cloth's recipe: at the top level for "cloth", inside each entry of "cloths".
  std::vector<JsonSection> recipes;
  auto finish = [&](const JsonSection& recipe, ParsedCloth& cloth, bool entry) {
    if (!entry && recipe.has("material")) cloth.material = parseMaterial(recipe.child("material"));
    if (recipe.has("pins")) parsePins(recipe.child("pins"), cloth.model, cloth.pins);
    cloth.forces.aerodynamics = shared.aerodynamics;
    if (recipe.has("membrane")) parseMembrane(recipe.child("membrane"), cloth.forces);
    if (recipe.has("bending")) parseBending(recipe.child("bending"), cloth.forces);
    if (recipe.has("tethers")) cloth.forces.tethers = parseTethers(recipe.child("tethers"));
    if (cloth.material.tearStrain > 0.f) {  // solver/model/tearing.h
      if (cloth.forces.membrane || cloth.forces.trispring || cloth.forces.corotational)
        recipe.fail("membrane", "replaces the springs that the material's tearStrain breaks: a tearing cloth keeps its springs");
      if (cloth.forces.tethers)
        recipe.fail("tethers", "cannot hold a tearing cloth: they tie particles by index, so a torn-off piece would stay tied to its pin");
    }
    recipes.push_back(recipe);  // the force models wait for the handles' pins (below)
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
    if (!list.is_array() || list.empty()) top.fail("cloths", "must be a non-empty array of cloths (got " + shownValue(list) + ")");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = "cloths[" + std::to_string(i) + "]";
      if (!list[i].is_object()) throw InputError(source + ": " + path + " must be an object (got " + shownValue(list[i]) + ")");
      const JsonSection entry(source, list[i], path);
      ParsedCloth cloth;
      cloth.name = entry.string("name", "cloth" + std::to_string(i));
      parseCloth(entry, cloth, baseDir, true);
      if (entry.has("contact")) {
        if (!top.has("contact"))
          entry.fail("contact", "gives the cloth's own friction, which needs the scene's 'contact' section to turn contact on");
        cloth.friction = parseClothFriction(entry.child("contact"));
      }
      finish(entry, cloth, true);
      cloths.push_back(std::move(cloth));
    }
  }
  // Handles pin their particles before the force models are built, as withGridSize pins them: a
  // tether may hang from a handle (a cloth held only by handles can have tethers), and a scene reads
  // the same at its own size and at `--grid` of that size. The handles name particles of the
  // cloths together, so they are read against the cloths appended without their force models
  // (which change no particle), and each cloth then pins its share.
  if (top.has("handles")) {
    Scene layout;
    try {
      for (const ParsedCloth& cloth : cloths) appendCloth(layout.cloth, cloth.model);
    } catch (const InputError& e) {
      top.failBecause("cloths", e);
    }
    layout.handles = parseHandles(top, layout.cloth);
    for (const HandleGroup& group : handleGroups(layout)) {
      uint32_t first = 0;
      for (ParsedCloth& cloth : cloths) {
        const auto count = static_cast<uint32_t>(cloth.model.particleCount());
        std::vector<uint32_t> own;
        for (uint32_t p : group.particles)
          if (p >= first && p - first < count) own.push_back(p - first);
        pinParticles(cloth.model, own);
        first += count;
      }
    }
    scene.handles = std::move(layout.handles);
  }
  for (size_t i = 0; i < cloths.size(); ++i) {
    ParsedCloth& cloth = cloths[i];
    if (cloth.forces.tethers && std::count(cloth.model.pinned.begin(), cloth.model.pinned.end(), 1) == 0)
      recipes[i].fail("tethers", "need pinned particles (pins or handles) to hang from");
    applyForceModels(cloth.model, cloth.forces);
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
    if (!list.is_array()) top.fail("colliders", "must be an array (got " + shownValue(list) + ")");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = "colliders[" + std::to_string(i) + "]";
      if (!list[i].is_object()) {
        throw InputError(source + ": " + path + " must be an object (got " + shownValue(list[i]) + ")");
      }
      scene.colliders.push_back(parseCollider(JsonSection(source, list[i], path), baseDir));
    }
  }
  if (top.has("contact")) scene.contact = parseContact(top.child("contact"));
  for (size_t i = 0; i < cloths.size(); ++i)
    if (cloths[i].friction) {
      ClothFriction own = *cloths[i].friction;
      own.firstParticle = scene.parts[i].firstParticle;
      own.particleCount = scene.parts[i].particleCount;
      scene.contact.clothFriction.push_back(own);
    }
  if (top.has("solver")) scene.solver = parseSolver(top.child("solver"), foreign.solver);
  return scene;
}

Scene parseScene(const std::string& jsonText, const std::string& baseDir, const std::string& sourceName) {
  return readScene(parseSceneDocument(jsonText, baseDir, sourceName));
}

Scene loadScene(const std::string& path) { return readScene(loadSceneDocument(path)); }

}  // namespace weft
