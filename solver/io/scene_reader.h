#pragma once
// The scene reader: scene files (JSON, docs/scene-format.md) and the OBJ meshes they name, read
// into the model's Scene (solver/model/scene.h).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/model/scene.h"

namespace weft {

// Reads an OBJ (scaled and moved by `spec`) as a collider's surface; InputError in one sentence for
// an unreadable file or one with more than kMaxColliderTriangles triangles.
ColliderMesh loadColliderMesh(const MeshSpec& spec);

// A scene is a page or two of JSON written by hand; the limit keeps a wrong path (a disk image, a
// log) from being read into memory whole.
constexpr uint64_t kMaxSceneBytes = uint64_t{16} << 20;

// Reads and validates a scene file. Relative mesh paths resolve against the scene file's folder.
// Missing file, not a regular file, over kMaxSceneBytes, malformed JSON, unknown keys or impossible
// values: InputError, one sentence that names the file and the offending key.
Scene loadScene(const std::string& path);
Scene parseScene(const std::string& jsonText, const std::string& baseDir, const std::string& sourceName);

// Keys of a scene file that belong to the program reading it rather than to the cloth: the scene
// reader accepts them unread, and names them among the known keys when it refuses an unknown one.
// The program reads their values from the same SceneDocument.
struct ForeignKeys {
  std::vector<std::string_view> topLevel;  // whole sections beside "cloth", "solver", ...
  std::vector<std::string_view> solver;    // keys inside "solver"
};

// The scene of a parsed file (solver/io/scene_json.h), with the same checks as loadScene; `foreign`
// keys are left to the caller.
struct SceneDocument;
Scene readScene(const SceneDocument& document, const ForeignKeys& foreign = {});

}  // namespace weft
