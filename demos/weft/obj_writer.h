#pragma once
// One Wavefront OBJ per frame for --obj-dir (vertices and triangles; normals left to the importer).
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "solver/model/scene.h"

namespace weft {

// "frame_NNNNN.obj": frame `frame`'s file name.
std::string frameObjName(int frame);

// Writes dir/frame_NNNNN.obj atomically (temporary file, then rename): the vertices
// [firstVertex, firstVertex + vertexCount) and the triangles among them (all when vertexCount is 0),
// as dir/PREFIX_frame_NNNNN.obj when a prefix is given.
void writeFrameObj(const std::string& dir, int frame, const std::vector<glm::vec4>& positions,
                   const std::vector<glm::uvec3>& triangles, const std::string& prefix = "", uint32_t firstVertex = 0,
                   uint32_t vertexCount = 0);

// One OBJ per cloth and frame: dir/frame_NNNNN.obj for a single cloth, dir/NAME_frame_NNNNN.obj
// for each of several (NAME: the cloth's name with anything but letters, digits, '-' and '_'
// replaced by '_', so a name cannot reach outside dir).
void writeClothObjs(const std::string& dir, int frame, const std::vector<glm::vec4>& positions, const Scene& scene);

}  // namespace weft
