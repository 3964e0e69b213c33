#include "demos/weft/obj_writer.h"

#include <cstdio>
#include <filesystem>

#include "engine/error.h"

namespace weft {

std::string frameObjName(int frame) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%05d.obj", frame);
  return name;
}

void writeFrameObj(const std::string& dir, int frame, const std::vector<glm::vec4>& positions,
                   const std::vector<glm::uvec3>& triangles) {
  std::filesystem::path path = std::filesystem::path(dir) / frameObjName(frame);
  std::string tmp = path.string() + ".tmp";
  FILE* file = std::fopen(tmp.c_str(), "w");
  if (!file) throw InputError("cannot write '" + path.string() + "'");
  std::fprintf(file, "# weft frame %d\n", frame);
  for (const glm::vec4& p : positions) std::fprintf(file, "v %.6f %.6f %.6f\n", p.x, p.y, p.z);
  for (const glm::uvec3& t : triangles) std::fprintf(file, "f %u %u %u\n", t.x + 1, t.y + 1, t.z + 1);
  bool ok = std::ferror(file) == 0;
  ok = std::fclose(file) == 0 && ok;
  std::error_code error;
  if (ok) std::filesystem::rename(tmp, path, error);
  if (!ok || error) {
    std::filesystem::remove(tmp, error);
    throw InputError("cannot write '" + path.string() + "'");
  }
}

}  // namespace weft
