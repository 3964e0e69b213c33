#pragma once
// Adds element kinds (shaders/elements/) to a cloth and lays them out for the gather: each
// particle's CSR row lists (element, slot) pairs, so both backends sum an element's force on a
// particle in the same order, without atomics. Units: SI.
#include <cstdint>
#include <optional>
#include <vector>

#include "shaders/shared.h"
#include "solver/model/cloth_model.h"

namespace weft {

// Baraff-Witkin stretch (warp along the rest state's u, weft along v) and shear, as moduli per unit
// area. The rest (u, v) of each triangle: its rest positions in a frame whose u axis is the world
// x axis projected onto the triangle's plane (the grid's columns; for a mesh, the same rule).
struct MembraneSpec {
  float warpStiffness = 0.f;   // N/m
  float weftStiffness = 0.f;   // N/m
  float shearStiffness = 0.f;  // N/m
  float damping = 0.f;         // s, stiffness-proportional
};

// Discrete-shell bending across every interior edge (the model's bend pairs).
struct DihedralSpec {
  float modulus = 0.f;  // N m, bending stiffness B; the same B bends alike at any resolution
  float damping = 0.f;  // s, stiffness-proportional
};

// Plane-projection bending across every interior edge: each wing tip held to the plane of the
// opposite face. Scaled so the modulus is the dihedral's B: the same energy to first order.
struct PlaneBendSpec {
  float modulus = 0.f;  // N m, bending stiffness B
  float damping = 0.f;  // s, stiffness-proportional
};

// Quadratic (isometric) bending across every interior edge (Bergou et al. 2006): an energy
// quadratic in the positions, with the dihedral's B: the same energy for small folds.
struct QuadraticBendSpec {
  float modulus = 0.f;  // N m, bending stiffness B
  float damping = 0.f;  // s, stiffness-proportional
};

// An isotropic sheet: its Young's modulus (times thickness) and Poisson ratio, in plane stress. The
// trispring (each triangle's edges as springs, Delingette 2008) and the co-rotational linear
// membrane (Mueller & Gross 2004) both take one, so any mesh of the same sheet is as stiff.
struct IsotropicSheetSpec {
  float youngModulus = 0.f;  // N/m: the material's Young's modulus times its thickness
  float poissonRatio = 0.3f; // in [0, 1): below 1 the area modulus Y / (2 (1 - nu)) stays finite
  float damping = 0.f;       // s, stiffness-proportional
};
using TrispringSpec = IsotropicSheetSpec;

// Per-triangle drag and lift against the wind.
struct AeroSpec {
  float airDensity = 1.2f;       // kg/m^3
  float dragCoefficient = 1.f;   // C_D of a flat plate face-on
  float liftCoefficient = 0.5f;  // C_L
};

// Long-range attachments: each free particle may be at most (1 + maxStretch) times its rest
// distance from each of its `anchors` nearest pinned particles. One anchor leaves slack between
// two pins: a cloth hung from two corners keeps each half near its own corner, and the top edge's
// sag all goes into the springs where the halves meet (at 128^2, 16 substeps of xpbd: 26 % there);
// tied to both corners, every particle is held from both sides (6 %).
inline constexpr uint32_t kMaxTetherAnchors = 8;
struct TetherSpec {
  float stiffness = 0.f;    // N/m beyond the limit
  float maxStretch = 0.01f; // fraction of the rest distance
  uint32_t anchors = 1;     // the nearest pinned particles each free particle is tied to, 1..kMaxTetherAnchors
};

// The force models a scene asks for beyond the springs: kept with the scene so a grid rebuilt at
// another resolution gets the same ones. A membrane, trispring or co-rotational membrane replaces the structural and shear
// springs, dihedral or plane bending the bend springs (a scene gives at most one of each pair).
struct ForceModels {
  std::optional<MembraneSpec> membrane;
  std::optional<TrispringSpec> trispring;
  std::optional<IsotropicSheetSpec> corotational;
  std::optional<DihedralSpec> dihedral;
  std::optional<PlaneBendSpec> planeBending;
  std::optional<QuadraticBendSpec> quadraticBending;
  std::optional<AeroSpec> aerodynamics;
  std::optional<TetherSpec> tethers;
  bool any() const {
    return membrane || trispring || corotational || dihedral || planeBending || quadraticBending || aerodynamics ||
           tethers;
  }
};
// Drops the springs the models replace and adds their elements (tethers last: after the pins).
void applyForceModels(ClothModel& model, const ForceModels& models);

// Each adds its elements to model.elements. InputError for negative or non-finite values; a mesh
// without triangles, bend pairs or pins simply gets none of that kind.
void addMembrane(ClothModel& model, const MembraneSpec& spec);
void addDihedralBending(ClothModel& model, const DihedralSpec& spec);
void addPlaneBending(ClothModel& model, const PlaneBendSpec& spec);
void addQuadraticBending(ClothModel& model, const QuadraticBendSpec& spec);  // skips collapsed wings
void addTrisprings(ClothModel& model, const TrispringSpec& spec);
void addCorotational(ClothModel& model, const IsotropicSheetSpec& spec);  // skips triangles of no area  // skips triangles of no area
void addAerodynamics(ClothModel& model, const AeroSpec& spec);
void addTethers(ClothModel& model, const TetherSpec& spec);  // after the pins are set
// The model's tethers made again for the pins it has now (none where nothing is pinned): whoever
// changes a cloth's pins calls it, or the old tethers would hang from particles that are now free.
void replaceTethers(ClothModel& model, const TetherSpec& spec);

// Particles an element of this kind joins (the rest of Element.nodes repeat the first).
uint32_t elementNodeCount(uint32_t kind);

struct ElementTable {
  std::vector<gpu::Element> elements;  // at least one (an inert one when the cloth has none)
  std::vector<uint32_t> rows;          // N + 1 row starts into refs
  std::vector<uint32_t> refs;          // element << 2 | slot; at least one entry
  uint32_t kinds = 0;  // WEFT_ELEMENT_KIND_BIT of each kind among the cloth's elements (not the placeholder)
  // The CPU backend's contact elements (solver/contact/contact.h; the GPU's are buffers of GpuState): each
  // particle's WEFT_CONTACT_PAIR_SLOTS, itself node 0, and how many it holds. Empty without contact;
  // the gathers walk them after the particle's row.
  std::vector<gpu::Element> contactPairs;
  std::vector<uint32_t> contactPairCounts;

  // No particle has an element row or a contact pair: the cloth is springs alone, and the gathers
  // may skip the element walk entirely.
  bool springsOnly() const { return rows.back() == 0 && contactPairCounts.empty(); }
};
// Tethers are listed only at their free end: the anchor is pinned and takes no force.
ElementTable buildElementTable(const ClothModel& model);

}  // namespace weft
