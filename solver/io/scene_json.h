#pragma once
// Strict reading of a scene file's JSON, shared by every reader of a part of the file: the cloth's
// (solver/io/scene_reader.cpp) and a program's own sections beside it. The text is parsed with a nesting
// limit, and each object is read through a JsonSection whose typed, checked reads stop at the first
// typo or impossible value with one InputError sentence naming the file and the key.
#include <climits>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "weft/errors.h"
#include "solver/io/scene_reader.h"
#include "solver/model/shown_text.h"  // shownNumber, excerpt

namespace weft {

using Json = nlohmann::json;

// A JSON value as messages show it: a scalar, or the items of an array or object one level deep,
// cut to a few dozen characters.
std::string shownValue(const Json& value);

enum class Bound { Any, NonNegative, Positive };

// One JSON object and its key path ("colliders[1]"), with typed, checked reads of its members.
// Holds references: the source name and the object must outlive it.
class JsonSection {
 public:
  JsonSection(const std::string& source, const Json& object, std::string path)
      : source_(source), object_(object), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  // Another function's sentence about this key's value, with the file and key in front.
  [[noreturn]] void failBecause(const std::string& key, const InputError& e) const;
  std::string keyPath(const std::string& key) const;
  bool has(const char* key) const { return object_.contains(key); }
  const std::string& source() const { return source_; }
  const Json& at(const char* key) const { return object_.at(key); }

  // Refuses a key that is neither in `known` nor in `more` (keys another reader of the file owns).
  // The message names the known ones, or, where they would make the sentence too long to read (the
  // solver's), the nearest one when the key looks like a typo of it.
  void allowKeys(std::initializer_list<std::string_view> known, const std::vector<std::string_view>& more = {}) const;

  JsonSection child(const char* key) const;
  float number(const char* key, float fallback, Bound bound = Bound::Any) const;
  int integer(const char* key, int fallback, int minimum, int maximum = INT_MAX) const;
  glm::vec3 vec3(const char* key, glm::vec3 fallback) const;
  std::vector<float> numbers(const char* key, size_t count, Bound bound, const char* what) const;
  std::string string(const char* key, const std::string& fallback) const;

 private:
  const std::string& source_;
  const Json& object_;
  std::string path_;
};

// A scene file parsed once, for every reader of a part of it (readScene in solver/model/scene.h, a
// program's own sections).
struct SceneDocument {
  std::string fileName;  // as given, "scene" when none: the scene's default name is its stem
  std::string source;    // the file as messages name it (shown_text.h's shownPath)
  std::string baseDir;   // relative mesh paths resolve against it
  Json root;             // an object
  JsonSection top() const { return JsonSection(source, root, ""); }
};

// A NUL byte, arrays and objects nested deeper than a scene needs, malformed JSON (with the line and
// column) or a top level that is not an object: InputError naming the file.
SceneDocument parseSceneDocument(const std::string& text, const std::string& baseDir, const std::string& fileName);
// The file read first: missing, not a regular file or over kMaxSceneBytes is an InputError too.
SceneDocument loadSceneDocument(const std::string& path);

}  // namespace weft
