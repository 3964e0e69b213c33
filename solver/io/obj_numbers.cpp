#include "solver/io/obj_numbers.h"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include "weft/errors.h"
#include "solver/model/shown_text.h"

namespace weft {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t'; }  // tinyobjloader's IS_SPACE
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Calls visit(number, line) for each line as tinyobjloader splits them: at \n, \r\n or a lone \r.
template <class Visit>
void forEachLine(std::string_view text, Visit&& visit) {
  size_t number = 1;
  for (size_t start = 0; start < text.size(); ++number) {
    size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    visit(number, text.substr(start, end - start));
    if (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n') ++end;
    start = end + 1;
  }
}

// The line's space-separated tokens after its keyword, up to a comment.
template <class Visit>
void forEachToken(std::string_view rest, Visit&& visit) {
  size_t i = 0;
  while (true) {
    while (i < rest.size() && isBlank(rest[i])) ++i;
    if (i == rest.size() || rest[i] == '#') return;
    size_t end = i;
    while (end < rest.size() && !isBlank(rest[end])) ++end;
    visit(rest.substr(i, end - i));
    i = end;
  }
}

// The line's keyword ("v", "vt", "vn", "f", ...) if one followed by a blank starts it, as
// tinyobjloader recognises them; the rest of the line in `rest`.
std::string_view keyword(std::string_view line, std::string_view& rest) {
  size_t start = 0;
  while (start < line.size() && isBlank(line[start])) ++start;
  size_t end = start;
  while (end < line.size() && !isBlank(line[end])) ++end;
  if (end == line.size()) return {};
  rest = line.substr(end);
  return line.substr(start, end - start);
}

size_t digitsAt(std::string_view s, size_t& i) {
  const size_t start = i;
  while (i < s.size() && isDigit(s[i])) ++i;
  return i - start;
}

// [+-] (digits [. [digits]] | . digits) [(e|E) [+-] digits], within float range. tinyobjloader
// parses this grammar; anything else it reads as a number's prefix or as 0.
bool isCoordinate(std::string_view token) {
  if (token.empty()) return false;
  size_t i = 0;
  if (token[i] == '+' || token[i] == '-') ++i;
  size_t digits = digitsAt(token, i);
  if (i < token.size() && token[i] == '.') digits += digitsAt(token, ++i);
  if (digits == 0) return false;
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
    if (digitsAt(token, i) == 0) return false;
  }
  if (i != token.size()) return false;
  double value = 0.0;  // from_chars: no locale, and no leading '+'
  const char* first = token.data() + (token[0] == '+' ? 1 : 0);
  const auto result = std::from_chars(first, token.data() + token.size(), value);
  return result.ec == std::errc() && std::fabs(value) <= FLT_MAX;
}

struct Counts {
  uint64_t vertices = 0, texcoords = 0, normals = 0;
};

class Checker {
 public:
  explicit Checker(const Counts& total) : total_(total) {}

  void line(size_t number, std::string_view text) {
    number_ = number;
    if (text.find('\0') != std::string_view::npos) fail("holds a NUL byte (an OBJ file is text)");
    std::string_view rest;
    const std::string_view word = keyword(text, rest);
    if (word == "v") {
      vertex(rest);
      ++seen_.vertices;
    } else if (word == "vt") {
      ++seen_.texcoords;
    } else if (word == "vn") {
      ++seen_.normals;
    } else if (word == "f") {
      face(rest);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("line " + std::to_string(number_) + " " + what);
  }

  void vertex(std::string_view rest) {
    int coordinates = 0;
    forEachToken(rest, [&](std::string_view token) {
      if (!isCoordinate(token))
        fail("has a vertex coordinate '" + excerpt(token) + "', which is not a decimal number within float range");
      ++coordinates;
    });
    if (coordinates < 3) fail("has a vertex of " + std::to_string(coordinates) + " coordinates, not 3");
  }

  void face(std::string_view rest) {
    int corners = 0;
    forEachToken(rest, [&](std::string_view corner) {
      ++corners;
      // "v", "v/vt", "v//vn" or "v/vt/vn"
      const size_t slash1 = corner.find('/');
      const size_t slash2 = slash1 == std::string_view::npos ? slash1 : corner.find('/', slash1 + 1);
      index(corner, corner.substr(0, slash1), total_.vertices, seen_.vertices, "vertex", "vertices");
      if (slash1 == std::string_view::npos) return;
      const std::string_view texcoord = corner.substr(slash1 + 1, slash2 - slash1 - 1);
      if (!texcoord.empty() || slash2 == std::string_view::npos)
        index(corner, texcoord, total_.texcoords, seen_.texcoords, "texture coordinate", "texture coordinates");
      if (slash2 != std::string_view::npos)
        index(corner, corner.substr(slash2 + 1), total_.normals, seen_.normals, "normal", "normals");
    });
    if (corners < 3) fail("has a face of " + std::to_string(corners) + " corners; a face needs at least 3");
  }

  // 1 to the file's count, or -1 back to the first of those read before this line.
  void index(std::string_view corner, std::string_view text, uint64_t total, uint64_t before, const char* one,
             const char* many) const {
    size_t i = text.empty() || (text[0] != '-' && text[0] != '+') ? 0 : 1;
    const bool negative = i == 1 && text[0] == '-';
    uint64_t magnitude = 0;
    const size_t start = i;
    for (; i < text.size() && isDigit(text[i]); ++i) {
      magnitude = magnitude * 10 + uint64_t(text[i] - '0');
      if (magnitude > UINT32_MAX) magnitude = uint64_t{UINT32_MAX} + 1;  // out of range, whatever the rest
    }
    if (i == start || i != text.size() || magnitude == 0)
      fail("has a face corner '" + excerpt(corner) + "' that is not an index (" + many +
           " are counted from 1, or back from -1)");
    const uint64_t count = negative ? before : total;
    if (magnitude > count) {
      const std::string counted = std::to_string(count) + " " + (count == 1 ? one : many);
      fail("refers to " + std::string(one) + " " + excerpt(text) + ", but " +
           (negative ? "only " + counted + (count == 1 ? " comes" : " come") + " before it" : "the file has " + counted));
    }
  }

  Counts total_, seen_;
  size_t number_ = 0;
};

}  // namespace

void checkObjNumbers(std::string_view text) {
  Counts total;  // positive indices may refer forward: tinyobjloader resolves them after reading
  forEachLine(text, [&](size_t, std::string_view line) {
    std::string_view rest;
    const std::string_view word = keyword(line, rest);
    total.vertices += word == "v";
    total.texcoords += word == "vt";
    total.normals += word == "vn";
  });
  Checker checker(total);
  forEachLine(text, [&](size_t number, std::string_view line) { checker.line(number, line); });
}

}  // namespace weft
