#include "demos/weft/obj_writer.h"

#include <cstdio>
#include <cctype>
#include <filesystem>

#include "engine/error.h"

namespace weft {

std::string frameObjName(int frame) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%05d.obj", frame);
  return name;
}

void writeFrameObj(const std::string& dir, int frame, const std::vector<glm::vec4>& positions,
                   const std::vector<glm::uvec3>& triangles, const std::string& prefix, uint32_t firstVertex,
                   uint32_t vertexCount) {
  const std::string name = frameObjName(frame);
  std::filesystem::path path = std::filesystem::path(dir) / (prefix.empty() ? name : prefix + "_" + name);
  const size_t end = vertexCount == 0 ? positions.size() : size_t{firstVertex} + vertexCount;
  std::string tmp = path.string() + ".tmp";
  FILE* file = std::fopen(tmp.c_str(), "w");
  if (!file) throw InputError("cannot write '" + path.string() + "'");
  std::fprintf(file, "# weft frame %d\n", frame);
  for (size_t i = firstVertex; i < end; ++i)
    std::fprintf(file, "v %.6f %.6f %.6f\n", positions[i].x, positions[i].y, positions[i].z);
  for (const glm::uvec3& t : triangles) {
    if (t.x < firstVertex || t.x >= end) continue;  // another cloth's triangle
    const glm::uvec3 local = t - glm::uvec3(firstVertex - 1);  // OBJ counts from 1
    std::fprintf(file, "f %u %u %u\n", local.x, local.y, local.z);
  }
  bool ok = std::ferror(file) == 0;
  ok = std::fclose(file) == 0 && ok;
  std::error_code error;
  if (ok) std::filesystem::rename(tmp, path, error);
  if (!ok || error) {
    std::filesystem::remove(tmp, error);
    throw InputError("cannot write '" + path.string() + "'");
  }
}

void writeClothObjs(const std::string& dir, int frame, const std::vector<glm::vec4>& positions, const Scene& scene) {
  if (scene.parts.size() <= 1) {
    writeFrameObj(dir, frame, positions, scene.cloth.triangles);
    return;
  }
  for (const ClothPart& part : scene.parts) {
    std::string prefix = part.name;
    for (char& c : prefix)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    writeFrameObj(dir, frame, positions, scene.cloth.triangles, prefix, part.firstParticle, part.particleCount);
  }
}

}  // namespace weft
