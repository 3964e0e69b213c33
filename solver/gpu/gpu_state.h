#pragma once
// What an integrator step works on in the GPU backend: the state every integrator shares in
// storage buffers (struct of arrays of vec4, as the CPU backend's cpu/cpu_state.h), the kernels'
// specialization, and the recorder a pass sequence records itself with.
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <vulkan/vulkan_core.h>

#include "engine/buffer.h"
#include "engine/context.h"
#include "engine/gpu_timer.h"
#include "engine/program.h"
#include "engine/shader_library.h"
#include "shaders/shared.h"
#include "solver/backend/unit_resources.h"
#include "solver/model/elements.h"
#include "solver/model/scene.h"
#include "solver/model/spring_table.h"

namespace weft {

// The state every integrator shares. Ping-pong pairs: passes that gather neighbours read one
// buffer and write the other.
// A kernel that collides only in the last of its passes over a step (verlet_relax, rk4_stage,
// strain_limit), built twice: with the scene's collider kinds for that pass, and with none for the
// others, whose colliders' code a device that runs every branch under a mask (lavapipe) would
// otherwise run on every pass (GpuState::lastPassCollides).
struct LastPassCollides {
  engine::ComputeProgram inner, last;
  const engine::ComputeProgram& pass(bool isLast) const { return isLast ? last : inner; }
};

struct GpuState {
  engine::Buffer positions[2], velocities[2];
  int currentPositions = 0, currentVelocities = 0;
  engine::Buffer prevPositions, springRows, springs, springLinks, colliders;
  engine::Buffer colliderGrid, colliderCells;  // gpu::ColliderGrid and its lists (solver/model/collider_grid.h)
  engine::Buffer elements, elementRows, elementRefs;  // the element table and its incidence rows
  uint32_t elementRefCount = 0;                       // incidence entries (0: a cloth of springs only)
  // Each vertex's contact pairs kept for an implicit solve and their count (solver/contact/contact.h), bound
  // with the element tables: Element[N * WEFT_CONTACT_PAIR_SLOTS] and uint[N] when contact is on,
  // 16-byte placeholders otherwise.
  engine::Buffer contactPairs, contactPairCounts;
  // Strain limiting (solver/passes/strain_limit.h): each spring end's allowed lengths and each particle's
  // summed excess over them. Made only when some spring has a limit; its kernel on first use.
  engine::Buffer strainLimits, strainExcessSums;
  // Seed 004's force bounds, bound for every force pass: the table, or a one-entry placeholder.
  engine::Buffer springBounds;
  // The spring table as a grid stencil and each particle's rest lengths (SpringTable::grid: a
  // gpu::GridStencil of width 0 and one rest length when the cloth is not a grid), bound for every
  // pass; springKernel's variants read them instead of the rows.
  engine::Buffer gridStencil, gridRestLengths;
  bool hasGridStencil = false;
  std::unique_ptr<LastPassCollides> strainLimitPrograms;  // only its last correction collides
  // Tearing (solver/passes/tear_detection.h): each spring end's breaking length, and the list of the springs
  // that broke in the last frame. Made only when some spring tears.
  engine::Buffer tearLimits, tearList;
  std::unique_ptr<engine::ComputeProgram> tearDetectProgram;
  std::vector<engine::Buffer> scratch;  // per-integrator temporaries, vec4[N] each, made on first use
  // The host's copy of the tables above, for units that derive tables of their own from them
  // (xpbd's constraint colouring) when first used.
  std::shared_ptr<const SpringTable> hostSprings;
  std::shared_ptr<const ElementTable> hostElements;
  std::unique_ptr<UnitResources> contact;  // solver/contact/contact.h: its tables, hash grid and kernels, when contact is on
  std::unique_ptr<UnitResources> kinematics;  // solver/passes/handles.h: the handle table and kernel, when there are handles
  uint32_t particleCount = 0, colliderCount = 0;
  // The collider kinds in the colliders buffer and whether the collider grid is in use
  // (WEFT_SPEC_COLLIDER_KINDS): the kernels that collide are built for these alone.
  uint32_t colliderKinds = WEFT_ALL_COLLIDER_KINDS;
  const engine::Context* context = nullptr;
  const engine::ShaderLibrary* shaders = nullptr;
  std::array<std::unique_ptr<UnitResources>, kIntegratorCount> units;

  // The name to build solver kernel `file` from: its variant without element gathers for a cloth of
  // springs only without contact (engine::kNoElementsVariant), else the file itself.
  std::string kernel(const char* file) const;
  // The same for a kernel that gathers springs (WEFT_GRID_STENCIL_KERNELS in shaders/CMakeLists.txt):
  // its grid stencil variant (engine::kGridStencilVariant) when the cloth's springs are a grid's.
  std::string springKernel(const char* file) const;
  // A unit builds its kernels with specialization(); onParamsChanged drops the units when the
  // collider kinds change, so they are built again.
  // The element kinds the gathers may meet (WEFT_SPEC_ELEMENT_KINDS): those of the element table, and
  // contact pairs where contact is on. Fixed while the tables are (loadTables resets the units).
  uint32_t elementKinds = WEFT_ALL_ELEMENT_KINDS;
  // The specialization every solver kernel is built with: the collider kinds (none for a kernel that
  // does not collide: lastPassCollides's inner passes) and the element kinds. A kernel declares
  // those it reads; ComputeProgram leaves out the rest.
  std::array<engine::SpecConstant, 2> specialization(bool collides = true) const {
    return {{{WEFT_SPEC_COLLIDER_KINDS, collides ? colliderKinds : 0u}, {WEFT_SPEC_ELEMENT_KINDS, elementKinds}}};
  }
  // Solver kernel `name` (a file or its variant) built with specialization().
  engine::ComputeProgram program(const std::string& name) const;
  // Kernel `name` built for a step whose last pass alone collides (LastPassCollides).
  LastPassCollides lastPassCollides(const std::string& name) const;
  // Makes sure `count` scratch buffers exist. Not while recording.
  void ensureScratch(size_t count);
  // A pass's own buffers followed by the cloth's tables and the world, which any kernel may read:
  // spring rows, entries and links, the element table and its incidence rows, the colliders.
  // Every pass binds them all; reflection keeps those its kernel declares.
  std::vector<engine::BufferBinding> withTables(std::initializer_list<engine::BufferBinding> own) const;
  // The resources of unit `id`, of the unit's own type T, made by T(*this) on first use.
  template <class T>
  T& unit(Integrator id) {
    std::unique_ptr<UnitResources>& slot = units[static_cast<size_t>(id)];
    if (!slot) slot = std::make_unique<T>(*this);
    return static_cast<T&>(*slot);
  }

  const engine::Buffer& positionsIn() const { return positions[currentPositions]; }
  const engine::Buffer& positionsOut() const { return positions[1 - currentPositions]; }
  const engine::Buffer& velocitiesIn() const { return velocities[currentVelocities]; }
  const engine::Buffer& velocitiesOut() const { return velocities[1 - currentVelocities]; }
  void swapPositions() { currentPositions = 1 - currentPositions; }
  void swapVelocities() { currentVelocities = 1 - currentVelocities; }
};

// Everything a pass sequence needs to record itself into a command buffer it is given.
struct GpuRecorder {
  VkCommandBuffer cmd;
  GpuState& state;
  engine::GpuTimer* timer;  // null: no timestamps
  // The Vulkan entry points of the state's context, which `cmd` belongs to.
  const engine::VulkanApi& vk() const { return state.context->vk(); }
};

}  // namespace weft
