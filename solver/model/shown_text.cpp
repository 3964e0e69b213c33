#include "solver/model/shown_text.h"

#include <cstdio>
#include <sstream>

namespace weft {
namespace {

std::string escaped(char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\t': return "\\t";
    case '\r': return "\\r";
    default: break;
  }
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return std::string(1, c);
  char hex[5];
  std::snprintf(hex, sizeof hex, "\\x%02x", byte);
  return hex;
}

}  // namespace

std::string excerpt(std::string_view text, size_t maxChars) {
  std::string out;
  for (char c : text) {
    std::string piece = escaped(c);
    if (out.size() + piece.size() > maxChars) return out + "...";
    out += piece;
  }
  return out;
}

std::string shownPath(std::string_view path) {
  std::string tail;  // built backwards, piece by piece, so no escape is cut in half
  for (size_t i = path.size(); i-- > 0;) {
    std::string piece = escaped(path[i]);
    if (tail.size() + piece.size() > kShownPathChars) return "..." + tail;
    tail.insert(0, piece);
  }
  return tail;
}

std::string shownNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace weft
