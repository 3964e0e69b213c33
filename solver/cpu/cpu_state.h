#pragma once
// What an integrator step works on in the CPU backend: std::vectors in exactly the GPU layout (struct
// of arrays of vec4, gpu/gpu_state.h), so each integrator's CPU loop and GPU passes read alike.
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "shaders/shared.h"
#include "solver/backend/unit_resources.h"
#include "solver/model/collider_grid.h"
#include "solver/model/elements.h"
#include "solver/model/scene.h"
#include "solver/model/spring_table.h"

namespace weft {

struct CpuState {
  std::vector<glm::vec4> positions, velocities;        // current state
  std::vector<glm::vec4> positionsOut, velocitiesOut;  // written by a pass, then swapped in
  std::vector<glm::vec4> prevPositions;                // Verlet: positions at the step's start
  std::vector<std::vector<glm::vec4>> scratch;         // per-integrator temporaries (RK4 stages)
  std::vector<glm::mat3> blocks;                       // implicit CG: inverse diagonal blocks
  std::vector<glm::vec4> springBlocks;                 // implicit CG: each spring end's system block
  float adaptiveDt = 0.f;  // adaptive integrators: the next step to try, s (0: the requested one)
  SpringTable springs;
  ElementTable elements;
  std::vector<gpu::Collider> colliders;
  ColliderGridData colliderGrid;  // over the mesh faces among the colliders (solver/model/collider_grid.h)
  std::vector<float> strainExcessSums;  // strain limiting: each particle's summed |excess| (strain_limit.h)
  std::array<std::unique_ptr<UnitResources>, kIntegratorCount> units;
  std::unique_ptr<UnitResources> contact;  // solver/contact/contact.h: its tables and hash grid, when contact is on
  std::unique_ptr<UnitResources> cgCoarse;  // implicit CG's two-level preconditioner (cg_coarse.h), on first use

  // The resources of unit `id`, of the unit's own type T, made by T(*this) on first use.
  template <class T>
  T& unit(Integrator id) {
    std::unique_ptr<UnitResources>& slot = units[static_cast<size_t>(id)];
    if (!slot) slot = std::make_unique<T>(*this);
    return static_cast<T&>(*slot);
  }
  void swapPositions() { std::swap(positions, positionsOut); }
  void swapVelocities() { std::swap(velocities, velocitiesOut); }
};

}  // namespace weft
