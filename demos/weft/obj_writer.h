#pragma once
// One Wavefront OBJ per frame for --obj-dir (vertices and triangles; normals left to the importer).
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

// "frame_NNNNN.obj": frame `frame`'s file name.
std::string frameObjName(int frame);

// Writes dir/frame_NNNNN.obj atomically (temporary file, then rename).
void writeFrameObj(const std::string& dir, int frame, const std::vector<glm::vec4>& positions,
                   const std::vector<glm::uvec3>& triangles);

}  // namespace weft
