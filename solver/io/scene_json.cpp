// The scene file's JSON: parsing with a nesting limit and messages that stay one short sentence,
// and JsonSection's checked reads.
#include "solver/io/scene_json.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "solver/io/input_file.h"
#include "solver/model/scene.h"
#include "solver/model/shown_text.h"

namespace weft {
namespace {

// A scene nests four levels at most (colliders[i].center); deeper input is refused while it is
// read, before a value nested 100000 deep exists to be walked.
constexpr int kMaxNesting = 32;

std::string shownScalar(const Json& value) {
  if (value.is_number_integer()) return value.dump();  // every digit: 1000001, not 1e+06
  if (value.is_number()) return shownNumber(value.get<double>());  // so 1e39 does not read "null"
  if (value.is_string()) return "\"" + excerpt(value.get_ref<const std::string&>()) + "\"";
  if (value.is_array()) return value.empty() ? "[]" : "[...]";
  if (value.is_object()) return value.empty() ? "{}" : "{...}";
  return value.dump();  // true, false, null
}

// A message longer than this is hard to take in at a glance; the rule tests/test_hostile_input.cpp holds.
constexpr size_t kMaxMessageChars = 200;

// The known key `key` is most likely a typo of: at most 2 edits away ignoring case (one more for
// long keys), or none.
std::string_view nearestKey(std::string_view key, const std::vector<std::string_view>& known) {
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

Json parseJson(const std::string& text, const std::string& source) {
  // nlohmann takes a NUL byte for the end of the input: whatever follows would be dropped unread.
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    throw InputError(source + ": " + malformedAt(text, nul, "a NUL byte (a JSON file is text)"));
  }
  struct TooDeep {};
  auto limitNesting = [](int depth, Json::parse_event_t event, Json&) {
    const bool opens = event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start;
    if (opens && depth >= kMaxNesting) throw TooDeep{};
    return true;
  };
  try {
    return Json::parse(text, limitNesting);
  } catch (const TooDeep&) {
    throw InputError(source + ": arrays and objects are nested more than " + std::to_string(kMaxNesting) +
                     " levels deep (a scene needs 4)");
  } catch (const Json::parse_error& e) {
    throw InputError(source + ": " + describeParseError(text, e));
  } catch (const Json::exception& e) {  // e.g. a number too large for a double
    std::string reason = e.what();
    if (const size_t bracket = reason.find("] "); bracket != std::string::npos) {
      reason = reason.substr(bracket + 2);
    }
    throw InputError(source + ": malformed JSON: " + quotedReason(reason));
  }
}

}  // namespace

// Never value.dump() on a structured value: it recurses, and a deep value takes the stack.
std::string shownValue(const Json& value) {
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

void JsonSection::fail(const std::string& key, const std::string& message) const {
  throw InputError(source_ + ": " + keyPath(key) + " " + message);
}

void JsonSection::failBecause(const std::string& key, const InputError& e) const {
  throw InputError(source_ + ": " + keyPath(key) + ": " + e.what());
}

std::string JsonSection::keyPath(const std::string& key) const {
  if (key.empty()) return path_;
  return path_.empty() ? key : path_ + "." + key;
}

void JsonSection::allowKeys(std::initializer_list<std::string_view> known,
                            const std::vector<std::string_view>& more) const {
  std::vector<std::string_view> all(known);
  all.insert(all.end(), more.begin(), more.end());
  for (const auto& item : object_.items()) {
    if (std::find(all.begin(), all.end(), item.key()) != all.end()) continue;
    std::string list;
    for (std::string_view k : all) list += (list.empty() ? "" : ", ") + std::string(k);
    const std::string unknown = source_ + ": unknown key '" + keyPath(excerpt(item.key())) + "'";
    std::string message = unknown + " (known: " + list + ")";
    if (message.size() > kMaxMessageChars) {
      const std::string_view near = nearestKey(item.key(), all);
      message = unknown + (near.empty() ? " (docs/scene-format.md lists the known keys)"
                                        : " (did you mean '" + std::string(near) + "'?)");
    }
    throw InputError(message);
  }
}

JsonSection JsonSection::child(const char* key) const {
  const Json& value = object_.at(key);
  if (!value.is_object()) fail(key, "must be an object (got " + shownValue(value) + ")");
  return JsonSection(source_, value, keyPath(key));
}

float JsonSection::number(const char* key, float fallback, Bound bound) const {
  if (!has(key)) return fallback;
  const Json& value = at(key);
  const char* kind = bound == Bound::Positive      ? "a positive number"
                     : bound == Bound::NonNegative ? "a number >= 0"
                                                   : "a number";
  if (!value.is_number()) fail(key, std::string("must be ") + kind + " (got " + shownValue(value) + ")");
  const float x = static_cast<float>(value.get<double>());
  const bool ok = std::isfinite(x) && (bound != Bound::Positive || x > 0.f) &&
                  (bound != Bound::NonNegative || x >= 0.f);
  if (!ok)
    fail(key, std::string("must be ") + kind + (std::isfinite(x) ? "" : " in float range") + " (got " +
                  shownValue(value) + ")");
  return x;
}

int JsonSection::integer(const char* key, int fallback, int minimum, int maximum) const {
  if (!has(key)) return fallback;
  const Json& value = at(key);
  // 8.0 is accepted: JSON writers do not always keep the integer/float distinction.
  const double x = value.is_number() ? value.get<double>() : NAN;
  if (x > maximum) fail(key, "must be at most " + std::to_string(maximum) + " (got " + shownValue(value) + ")");
  if (!(x >= minimum && x <= INT_MAX && x == std::floor(x))) {
    const std::string kind = minimum == 1   ? "a positive integer"
                             : minimum == 0 ? "an integer >= 0"
                                            : "an integer >= " + std::to_string(minimum);
    fail(key, "must be " + kind + " (got " + shownValue(value) + ")");
  }
  return static_cast<int>(x);
}

glm::vec3 JsonSection::vec3(const char* key, glm::vec3 fallback) const {
  if (!has(key)) return fallback;
  const std::vector<float> v = numbers(key, 3, Bound::Any, "3 finite numbers");
  return {v[0], v[1], v[2]};
}

std::vector<float> JsonSection::numbers(const char* key, size_t count, Bound bound, const char* what) const {
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
    fail(key, std::string("must be an array of ") + what + " (got " + shownValue(value) + ")");
  return out;
}

std::string JsonSection::string(const char* key, const std::string& fallback) const {
  if (!has(key)) return fallback;
  const Json& value = at(key);
  if (!value.is_string()) fail(key, "must be a string (got " + shownValue(value) + ")");
  return value.get<std::string>();
}

SceneDocument parseSceneDocument(const std::string& text, const std::string& baseDir, const std::string& fileName) {
  SceneDocument document;
  document.fileName = fileName.empty() ? "scene" : fileName;
  document.source = shownPath(document.fileName);
  document.baseDir = baseDir;
  document.root = parseJson(text, document.source);
  if (!document.root.is_object()) throw InputError(document.source + ": the top level must be a JSON object");
  return document;
}

SceneDocument loadSceneDocument(const std::string& path) {
  const std::string text = readInputFile(path, {"cannot open scene file", kMaxSceneBytes});
  const std::filesystem::path p(path);
  return parseSceneDocument(text, p.parent_path().string(), p.filename().string());
}

}  // namespace weft
