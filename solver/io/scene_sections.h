#pragma once
// The sections of a scene file (docs/scene-format.md) that io/scene_reader.cpp assembles a scene
// from. Each reads one JSON section strictly: an unknown key or an impossible value is an
// InputError, one sentence naming the file and the key.
#include <string>
#include <string_view>
#include <vector>

#include "solver/io/scene_json.h"
#include "solver/model/scene.h"

namespace weft::scene_sections {

Material parseMaterial(const JsonSection& s);
void parseMembrane(const JsonSection& s, ForceModels& forces);
void parseBending(const JsonSection& s, ForceModels& forces);
TetherSpec parseTethers(const JsonSection& s);
// An OBJ named by `pathKey` (none: the caller names it), with its "scale" and "offset"; relative
// paths resolve against `baseDir`, the scene file's folder.
MeshSpec readMeshSpec(const JsonSection& s, const char* pathKey, const std::string& baseDir);
Environment parseEnvironment(const JsonSection& s, ForceModels& forces);
ClothFriction parseClothFriction(const JsonSection& s);
ContactSpec parseContact(const JsonSection& s);
// The "handles" of the top-level section `top`, over the particles of `model`.
std::vector<HandleSpec> parseHandles(const JsonSection& top, const ClothModel& model);
ColliderDesc parseCollider(const JsonSection& s, const std::string& baseDir);
// "solver": `foreignKeys` are the program's own keys there, accepted unread.
SolverSettings parseSolver(const JsonSection& s, const std::vector<std::string_view>& foreignKeys);

}  // namespace weft::scene_sections
