// OBJ files as cloth meshes: the file read and checked by weft, parsed by tinyobjloader, then built
// by buildMesh. Part of the scene reader (weft_scene), so the core library needs no OBJ parser.
#include "solver/io/obj_mesh.h"

#include <tiny_obj_loader.h>

#include <string>
#include <vector>

#include "weft/errors.h"
#include "solver/io/scene_reader.h"
#include "solver/model/cloth_model.h"
#include "solver/io/input_file.h"
#include "solver/io/obj_numbers.h"
#include "solver/model/scene.h"
#include "solver/model/shown_text.h"

namespace weft {

ClothModel loadMesh(const MeshSpec& spec, const Material& material) {
  // Read the file ourselves: the user gets the real reason (missing, a folder, a device, too
  // large), and parsing from a string keeps tinyobjloader from looking for .mtl files.
  return parseObjMesh(readInputFile(spec.path, {"cannot read mesh", kMaxObjBytes}), spec, material);
}

ClothModel parseObjMesh(const std::string& text, const MeshSpec& spec, const Material& material) {
  auto fail = [&](const std::string& reason) {
    return InputError("cannot read mesh '" + shownPath(spec.path) + "': " + reason);
  };
  if (!std::isfinite(spec.scale) || spec.scale <= 0.f) {
    throw fail("scale must be a positive number (got " + shownNumber(spec.scale) + ")");
  }
  if (!std::isfinite(spec.offset.x) || !std::isfinite(spec.offset.y) ||
      !std::isfinite(spec.offset.z)) {
    throw fail("offset must be finite");
  }
  try {
    checkObjNumbers(text);
  } catch (const InputError& e) {
    throw fail(e.what());
  }

  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(text, "", config)) {
    std::string reason = reader.Error();
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == '.')) reason.pop_back();
    if (const size_t nl = reason.find('\n'); nl != std::string::npos) reason.resize(nl);
    throw fail(reason.empty() ? "parse error" : reason);
  }

  const std::vector<float>& coords = reader.GetAttrib().vertices;
  const size_t vertexCount = coords.size() / 3;
  std::vector<glm::vec3> vertices(vertexCount);
  for (size_t i = 0; i < vertexCount; ++i) {
    const glm::vec3 p(coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]);
    vertices[i] = p * spec.scale + spec.offset;
  }

  std::vector<glm::uvec3> triangles;
  size_t faceNumber = 0;  // counted across shapes, as the file lists them
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    size_t next = 0;
    for (const unsigned char corners : shape.mesh.num_face_vertices) {
      ++faceNumber;
      if (corners != 3) {
        throw fail("face " + std::to_string(faceNumber) + " has " + std::to_string(corners) +
                   " vertices after triangulation");
      }
      glm::uvec3 tri;
      for (int k = 0; k < 3; ++k) {
        // tinyobjloader only warns about indices past the vertex list; they must not reach us.
        const int v = shape.mesh.indices[next + k].vertex_index;
        if (v < 0 || static_cast<size_t>(v) >= vertexCount) {
          throw fail("face " + std::to_string(faceNumber) + " refers to vertex " +
                     std::to_string(v + 1) + ", but the file has " + std::to_string(vertexCount) +
                     " vertices");
        }
        tri[k] = static_cast<uint32_t>(v);
      }
      triangles.push_back(tri);
      next += 3;
    }
  }
  if (triangles.empty()) throw fail("the file has no triangle faces");

  try {
    return buildMesh(vertices, triangles, material, spec.totalMass, spec.arealDensity);
  } catch (const InputError& e) {
    throw fail(e.what());
  }
}

ColliderMesh loadColliderMesh(const MeshSpec& spec) {
  // Read as a cloth mesh is (the same checks and messages), keeping only the surface.
  ClothModel model = loadMesh(spec, Material{});
  if (model.triangles.size() > kMaxColliderTriangles)
    throw InputError("cannot use mesh '" + shownPath(spec.path) + "' as a collider: it has " +
                     std::to_string(model.triangles.size()) + " triangles, more than " +
                     std::to_string(kMaxColliderTriangles) + " (each is sent to the device every step it moves): decimate it");
  ColliderMesh mesh;
  mesh.vertices = std::move(model.positions);
  mesh.triangles = std::move(model.triangles);
  return mesh;
}

}  // namespace weft
