#pragma once
// How text from a user's file or command line appears inside an error sentence. A message is one
// sentence for a person to read, so an echoed key, value or path is cut to a few dozen characters
// (a megabyte-long key must not become a megabyte-long message) and carries printable ASCII only
// (other bytes as \n, \t or \xNN: no terminal escapes, no UTF-8 sequence cut in half).
#include <cstddef>
#include <string>
#include <string_view>

namespace weft {

constexpr size_t kShownTextChars = 40;
constexpr size_t kShownPathChars = 64;

// The start of `text`, escaped, at most maxChars characters, then "..." when cut.
std::string excerpt(std::string_view text, size_t maxChars = kShownTextChars);

// The end of `path`, escaped, at most kShownPathChars characters, "..." in front when cut: the file
// name is the part that tells which file.
std::string shownPath(std::string_view path);

// A number as messages show it, as a stream prints it (six significant digits): 0.5, 1e+39, nan.
std::string shownNumber(double value);

}  // namespace weft
