#pragma once
// Triangle-mesh cloths read from OBJ files (faces triangulated), built by the model's buildMesh.
// Collider meshes are read by loadColliderMesh (solver/io/scene_reader.h).
#include <cstdint>
#include <string>

#include "solver/model/cloth_model.h"

namespace weft {

// Large enough for a mesh at kMaxParticles vertices written with full float precision.
constexpr uint64_t kMaxObjBytes = uint64_t{512} << 20;

// Reads an OBJ file (faces triangulated) and calls buildMesh. Missing, not a regular file, over
// kMaxObjBytes, or malformed: InputError naming the file.
ClothModel loadMesh(const MeshSpec& spec, const Material& material);
// The same from the file's text (spec.path only names it in messages): what loadMesh does after reading.
ClothModel parseObjMesh(const std::string& text, const MeshSpec& spec, const Material& material);

}  // namespace weft
