#pragma once
// What the public types (include/weft/) hold: the internal model, context and solvers. Only the
// library's own sources include this header.
#include <memory>
#include <vector>

#include "engine/buffer.h"
#include "engine/context.h"
#include "engine/program.h"
#include "engine/shader_library.h"
#include "solver/model/cloth_model.h"
#include "solver/gpu/gpu_solver.h"
#include "solver/backend/solver.h"
#include "weft/settings.h"

namespace weft::detail {

struct FabricData {
  ClothModel model;
  std::vector<uint32_t> indices;  // the model's triangles, flattened for an index buffer
};

struct DeviceImpl {
  std::unique_ptr<engine::Context> context;
  engine::ShaderLibrary shaders;  // the embedded SPIR-V
};

// What a weft::GpuCloth holds: the solver and the buffers a renderer reads.
struct GpuClothImpl {
  engine::Context* context = nullptr;
  const engine::ShaderLibrary* shaders = nullptr;
  std::unique_ptr<GpuSolver> solver;
  uint32_t particleCount = 0;
  uint32_t indexCount = 0;
  engine::Buffer ownPositions;  // unless the host gave its own
  VkBuffer positions = VK_NULL_HANDLE;
  VkDeviceSize positionOffset = 0;
  engine::Buffer indices, normals, vertexTriRows, vertexTris;
  engine::ComputeProgram normalsProgram;
  int preparedSubsteps = 0;  // recordStep may record up to this many steps without allocating

  // What a drawer pulls positions from: the cloth's own output buffer, or (when the positions go
  // to a buffer of the host's) the solver's current one, which holds the same numbers.
  const engine::Buffer& drawPositions() const { return ownPositions ? ownPositions : solver->positionBuffer(); }
};


// The public settings as the solver's parameters; InputError for an unknown integrator.
SolverParams toSolverParams(const StepSettings& settings);
// A host's collider transform as the solver's pose for its next frame: InputError for scale, shear,
// a reflection or an index past the colliders.
void setColliderTransform(Solver& solver, size_t index, const glm::mat4& transform);
void setColliderVertices(Solver& solver, size_t index, const std::vector<glm::vec3>& vertices);
// What contact did in the solver's last advance, as the public summary.
ContactReport contactReport(const Solver& solver);

}  // namespace weft::detail
