#pragma once
// What tinyobjloader does not check in an OBJ file's numbers. It reads a coordinate it cannot
// parse (nan, inf, 0x1p3, a word) as 0, reads indices with atoi (4294967297 becomes vertex 1, a
// 30-digit index the last vertex), and skips faces of fewer than three corners or with an index
// past the end. So a typo would become a vertex at the origin, a triangle on other vertices or a
// missing face; these checks run on the text first and name the line instead.
#include <string_view>

namespace weft {

// Every vertex ("v") has at least three coordinates, each a decimal number within float range;
// every face ("f") has at least three corners, each "v", "v/vt", "v//vn" or "v/vt/vn" with
// indices from 1 to the file's count, or from -1 back to the first (counting from the line).
// No NUL bytes. The first line that breaks a rule: InputError "line N: ...".
void checkObjNumbers(std::string_view text);

}  // namespace weft
