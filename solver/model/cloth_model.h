#pragma once
// The cloth as a particle system: rest positions, masses, springs, triangles, bending neighbours and
// pins. Built once (from a grid or a triangle mesh), then handed to a backend. Units: SI.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/packing.hpp>

#include "shaders/shared.h"

namespace weft {

enum class SpringKind : uint8_t { Structural, Shear, Bend };

// How a material's strain limit acts (StrainLimitSpec): Provot's projection after each step, seed
// 004's bounded spring force (the deformation the force sees is clamped to the limit), or both.
enum class StrainLimitMode : uint8_t { Projection, Force, Both };

struct Spring {
  uint32_t a = 0;
  uint32_t b = 0;
  float restLength = 0.f;  // m
  float stiffness = 0.f;   // N/m
  float damping = 0.f;     // N s/m along the spring axis
  SpringKind kind = SpringKind::Structural;
  StrainLimitMode limitMode = StrainLimitMode::Projection;  // how stretchLimit acts (in the padding after kind)
  uint16_t tearStrainHalf = 0;  // tearStrain() as a half float
  // Strain limit as fractions of restLength (its material's, structural and shear springs only);
  // stretchLimit 0: not limited. Carried per spring because cloths of different materials share
  // one model and one solver.
  float stretchLimit = 0.f;
  float compressionLimit = 0.f;

  // Tearing (solver/model/tearing.h): the spring breaks once longer than (1 + tearStrain()) restLength
  // (its material's, structural springs only); 0: never. Kept as a half float in what would be
  // padding after `kind`, so a spring stays 32 bytes (a 4096^2 model 5.0 GB): a threshold needs no
  // more than its 11 bits (within 0.05 % of the material's value).
  float tearStrain() const { return glm::unpackHalf1x16(tearStrainHalf); }
  void setTearStrain(float strain) { tearStrainHalf = static_cast<uint16_t>(glm::packHalf1x16(strain)); }
};
static_assert(sizeof(Spring) == 32, "the host model's memory estimate (host_memory.cpp) and docs assume 32 bytes");

// Two triangles sharing the edge (v0, v1); a and b are the vertices opposite that edge.
// Kept for bending models that need the hinge (face angle, plane projection); the linear bend
// spring of a mesh joins a and b.
struct BendPair {
  uint32_t v0 = 0, v1 = 0;
  uint32_t a = 0, b = 0;
  uint32_t t0 = 0, t1 = 0;
};

// A strain limit on the structural and shear springs, [(1 - compression) L, (1 + stretch) L].
// Projection (Provot): after each step no such spring is left outside it, within the iterations'
// convergence. Force (seed 004): the spring force sees its deformation clamped to that range, so its
// magnitude never exceeds k stretch L (or k compression L); that caps the force, it does not keep the
// spring inside the range. stretch 0: off.
struct StrainLimitSpec {
  float stretch = 0.f;      // fraction of the rest length, > 0 when on
  float compression = 0.f;  // fraction of the rest length, [0, 1)
  StrainLimitMode mode = StrainLimitMode::Projection;
  bool enabled() const { return stretch > 0.f; }
};
inline bool projects(StrainLimitMode m) { return m != StrainLimitMode::Force; }
inline bool boundsForce(StrainLimitMode m) { return m != StrainLimitMode::Projection; }
// A spring whose strain limit is projected after each step / bounds its force.
inline bool projectsStrain(const Spring& s) { return s.stretchLimit > 0.f && projects(s.limitMode); }
inline bool boundsStrainForce(const Spring& s) { return s.stretchLimit > 0.f && boundsForce(s.limitMode); }

struct Material {
  float structuralStiffness = 2000.f;  // N/m
  float shearStiffness = 500.f;        // N/m
  float bendStiffness = 50.f;          // N/m
  float damping = 0.5f;                // N s/m, same for every spring
  StrainLimitSpec strainLimit;         // off unless the scene gives one
  float tearStrain = 0.f;              // structural and shear springs break past this stretch; 0: never
};

// The model's particle limit, for grids and meshes alike. Beyond it a uint32 index is still safe,
// but the model would take gigabytes; a typo in a scene (an extra digit) or a huge mesh should fail
// with a sentence, not with std::bad_alloc.
constexpr uint32_t kMaxParticles = uint32_t{1} << 24;

struct ClothModel {
  std::vector<glm::vec3> positions;   // rest (and initial) positions, m
  std::vector<glm::vec3> velocities;  // initial velocities, m/s (zero unless a scene says otherwise)
  std::vector<float> masses;          // kg per particle, > 0
  std::vector<uint8_t> pinned;        // 1 where the particle never moves (inverse mass 0)
  std::vector<Spring> springs;
  std::vector<glm::uvec3> triangles;  // counter-clockwise seen from the front
  std::vector<BendPair> bendPairs;
  // Membranes, hinges, tethers and aerodynamic triangles (solver/model/elements.h adds them).
  std::vector<gpu::Element> elements;
  uint32_t gridWidth = 0;   // particles per row when built from a grid, else 0
  uint32_t gridHeight = 0;  // rows when built from a grid, else 0

  size_t particleCount() const { return positions.size(); }
  float inverseMass(size_t i) const { return pinned[i] ? 0.f : 1.f / masses[i]; }
  float totalMass() const;
  size_t springCount(SpringKind kind) const;
};

// ---- Grids ----
enum class GridPlane : uint8_t { Horizontal, Vertical };  // XZ plane or XY plane

struct GridSpec {
  uint32_t width = 32;     // particles along x, >= 2
  uint32_t height = 32;    // particles along z (horizontal) or -y (vertical), >= 2
  float sizeX = 1.f;       // m, total extent along x
  float sizeY = 1.f;       // m, total extent along the other axis
  glm::vec3 origin{0.f};   // position of particle (0, 0), the "top-left" corner
  GridPlane plane = GridPlane::Horizontal;
  float totalMass = 0.f;   // kg; if 0, arealDensity is used
  float arealDensity = 0.2f;  // kg/m^2
};

// Regular grid with seed 004's three spring families: structural (4-neighbourhood), shear
// (diagonals) and bend (two apart along rows and columns). Two triangles per cell.
// Throws InputError on impossible values (fewer than 2x2 particles, non-positive size or mass).
ClothModel buildGrid(const GridSpec& spec, const Material& material);

// ---- Triangle meshes ----
struct MeshSpec {
  std::string path;        // OBJ file
  float scale = 1.f;
  glm::vec3 offset{0.f};
  float totalMass = 0.f;   // kg; if 0, arealDensity is used
  float arealDensity = 0.2f;  // kg/m^2, mass lumped to vertices by a third of each triangle's area
};

// Builds springs from a raw triangle list by the sorted edge-triple construction (seed 002): one
// structural spring per unique edge, one bend spring across each interior edge (between the two
// opposite vertices). Throws InputError for degenerate triangles (repeated index or zero area),
// out-of-range indices, edges shared by more than two triangles, and unreferenced-free empty input.
ClothModel buildMesh(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles,
                     const Material& material, float totalMass, float arealDensity);

// Unique edges of a triangle list, sorted, by the sorted edge-triple construction.
struct MeshTopology {
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // v0 < v1
  std::vector<BendPair> bendPairs;
  size_t boundaryEdges = 0;
};
MeshTopology buildTopology(const std::vector<glm::uvec3>& triangles, size_t vertexCount);

// Shared by buildGrid and buildMesh. validateMaterial: InputError for negative or non-finite
// stiffness or damping, or a strain limit outside stretch > 0, compression in [0, 1). lumpMasses: a third of each triangle's area times arealDensity to each
// corner, rescaled so the sum is totalMass when totalMass > 0; InputError for impossible values.
void validateMaterial(const Material& material);
// Gives the structural and shear springs the material's strain limit (bend springs stay free: a fold
// legitimately compresses them). Both builders call it last.
void applyStrainLimit(ClothModel& model, const StrainLimitSpec& limit);
// Gives the structural and shear springs the material's tear strain (solver/model/tearing.h). Bend springs do
// not break on their own: they go when a crack separates their ends.
void applyTearStrain(ClothModel& model, float tearStrain);
std::vector<float> lumpMasses(const std::vector<glm::vec3>& positions,
                              const std::vector<glm::uvec3>& triangles, float totalMass,
                              float arealDensity);

// ---- Several cloths ----
// Appends `part` to `into` as one more particle range: its springs, triangles, bend pairs and
// elements follow with their indices shifted, so one solver steps both with one dispatch per pass.
// The result is no longer a single grid (gridWidth and gridHeight become 0) unless `into` was empty.
void appendCloth(ClothModel& into, const ClothModel& part);

// ---- Pins ----
enum class CornerPreset : uint8_t { None, One, Two, Three, Four };
// Grid corners in the order: (0,0), (W-1,0), (W-1,H-1), (0,H-1); "Two" pins the top edge's ends.
std::vector<uint32_t> gridCorners(const ClothModel& model, CornerPreset preset);
// Every particle of the given grid rows (row 0 holds the grid's origin). InputError for a mesh or
// a row past the last.
std::vector<uint32_t> gridRows(const ClothModel& model, const std::vector<uint32_t>& rows);
// Marks the given particles pinned. Out-of-range index: InputError.
void pinParticles(ClothModel& model, const std::vector<uint32_t>& indices);

}  // namespace weft
