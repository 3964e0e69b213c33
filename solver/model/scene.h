#pragma once
// A scene: the cloth, its surroundings and how it steps: the model's vocabulary of settings, which
// the scene reader (solver/io/scene_reader.h) produces and the solver takes.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "solver/model/cloth_model.h"
#include "solver/model/elements.h"
#include "solver/model/motion.h"

namespace weft {

// A triangle-mesh collider's surface as read (an OBJ), shared by every pose of it.
struct ColliderMesh {
  std::vector<glm::vec3> vertices;  // m
  std::vector<glm::uvec3> triangles;
};

// A cloth particle tests the triangles of mesh colliders near it (solver/model/collider_grid.h), but each
// triangle is 112 bytes of the colliders' buffer, and a moving one is sent to the device every step.
inline constexpr size_t kMaxColliderTriangles = size_t(1) << 18;

struct ColliderDesc {
  enum class Kind : uint8_t { Plane, Sphere, Capsule, Box, Mesh } kind = Kind::Plane;
  glm::vec3 normal{0.f, 1.f, 0.f};  // plane: unit normal pointing out of the solid
  float offset = 0.f;               // plane: dot(normal, x) >= offset is free space
  glm::vec3 center{0.f};            // sphere, box; capsule: one end of its axis
  glm::vec3 end{0.f};               // capsule: the other end of its axis
  float radius = 0.f;               // sphere, capsule: m
  glm::vec3 halfExtents{0.f};       // box: m along its own axes
  glm::quat rotation{1.f, 0.f, 0.f, 0.f};  // box: its axes' turn from the world's
  std::shared_ptr<const ColliderMesh> mesh;  // mesh: its surface as read (a sequence's: as it is now)
  RigidPose meshPose;                         // mesh: where that surface is now
  float thickness = 0.f;                      // mesh: m; the solid is every point within half of it of the surface
  // mesh: an animated body, as a sequence of shapes of the same triangles played at `sequenceRate`
  // frames a second from the solver's start (the vertices in between, straight), held at the last
  // or looped. Empty: the surface keeps its shape.
  std::vector<std::shared_ptr<const ColliderMesh>> sequence;
  float sequenceRate = 0.f;
  bool sequenceLoops = false;
  float friction = 0.3f;            // Coulomb coefficient of sliding
  float staticFriction = -1.f;      // of sticking; below friction (as by default) it is friction
  float margin = 0.005f;            // m kept between cloth and surface
  RigidPath path;                   // how it moves (solver/model/kinematics.h); no keys: it stays
};

// The point of a collider that a pose's interpolation moves straight: a sphere's or box's centre, a
// capsule's midpoint, the point of a plane nearest the origin, a mesh's mean vertex.
glm::vec3 colliderReference(const ColliderDesc& collider);
// The collider moved by `pose`.
ColliderDesc posedCollider(const ColliderDesc& collider, const RigidPose& pose);
// A mesh collider's vertices where its pose puts them.
std::vector<glm::vec3> posedMeshVertices(const ColliderDesc& mesh);
// The collider with its surface as its sequence has it `seconds` after the start (itself when it has
// no sequence).
ColliderDesc colliderAtTime(const ColliderDesc& collider, double seconds);

// Pinned particles carried along a path (solver/model/kinematics.h): the scene's "handles".
struct HandleGroup {
  std::vector<uint32_t> particles;  // indices into the scene's model, each pinned
  RigidPath path;
};

// A handle as the scene file gave it, kept so withGridSize can pick the same places again.
struct HandleSpec {
  std::vector<uint32_t> indices;  // particle indices of the scene's model
  std::vector<int> rows;          // grids only: whole rows; negative counts from the last (-1)
  RigidPath path;                 // its center given in the file, or the particles' centroid
  bool centerGiven = false;
};

struct Environment {
  glm::vec3 gravity{0.f, -9.81f, 0.f};  // m/s^2
  glm::vec3 wind{0.f};                  // m/s
  float airDrag = 0.f;                  // kg/s per particle: f = -airDrag (v - wind)
};

// Contact between primitives of the cloths that share no corner: within one cloth and between
// cloths (solver/contact/contact.h, docs/contact.md). Off unless the scene has a "contact" section.
// A cloth's own Coulomb coefficients against other cloth (and itself): its particles
// [firstParticle, firstParticle + particleCount). A pair of cloths slides with the geometric mean of
// their coefficients (contactPairFriction in shaders/contact.h).
struct ClothFriction {
  uint32_t firstParticle = 0, particleCount = 0;
  float friction = 0.3f;
  float staticFriction = 0.3f;  // >= friction
  bool operator==(const ClothFriction&) const = default;
};

struct ContactSpec {
  bool enabled = false;
  float thickness = 0.002f;  // m: pairs nearer than this are pushed apart
  float radius = 0.f;        // m: pairs nearer than this limit each other's moves; 0: half the mean edge length, at least twice the thickness
  float friction = 0.3f;        // Coulomb coefficient of sliding between cloth and cloth
  float staticFriction = 0.3f;  // Coulomb coefficient of sticking, >= friction
  // Cloths with coefficients of their own (a scene's per-cloth "contact"); the others use the two
  // above. Chosen when the solver is made, like the tables contact builds from the cloth.
  std::vector<ClothFriction> clothFriction;
};

// The integrators, one line each: X(Enumerator, "name as scene files and the command line spell it").
// This list is where an integrator is registered: the enumeration, the names and the solver's
// registry (solver/integrators/registry.cpp, which finds each unit by its enumerator) all expand
// it. Adding an integrator is its folder under solver/integrators/ and a line here
// (docs/extending.md).
#define WEFT_INTEGRATORS(X)                  \
  X(ExplicitEuler, "explicit-euler")         \
  X(SymplecticEuler, "symplectic-euler")     \
  X(Verlet, "verlet")                        \
  X(Rk4, "rk4")                              \
  X(ImplicitCg, "implicit-cg")               \
  X(NonlinearCg, "nonlinear-cg")             \
  X(NewtonChebyshev, "newton-chebyshev")     \
  X(Imex, "imex")                            \
  X(Xpbd, "xpbd")

#define WEFT_INTEGRATOR_ENUMERATOR(id, name) id,
enum class Integrator : uint8_t { WEFT_INTEGRATORS(WEFT_INTEGRATOR_ENUMERATOR) };
#undef WEFT_INTEGRATOR_ENUMERATOR
#define WEFT_INTEGRATOR_ONE(id, name) +1
constexpr size_t kIntegratorCount = 0 WEFT_INTEGRATORS(WEFT_INTEGRATOR_ONE);
#undef WEFT_INTEGRATOR_ONE
// Every integrator, in the list's order.
std::vector<Integrator> allIntegrators();

// How the Jacobi iterations of newton-chebyshev's linear solves and Verlet's relaxation are
// accelerated (docs/integrators.md): Chebyshev's semi-iteration with the rho keys' spectral radius
// estimates, Nesterov's momentum, or not at all.
enum class Acceleration : uint8_t { Chebyshev, Nesterov, None };
// The preconditioner of implicit CG's linear solves (implicit-cg, imex; cg_solve.h): each particle's
// 3x3 block inverted (both backends), or that plus a coarse correction over aggregates of particles
// (solver/integrators/common/cg/cg_coarse.h; the CPU backend only).
enum class Preconditioner : uint8_t { BlockJacobi, TwoLevel };
// "block-jacobi" or "two-level"; anything else: InputError naming both.
Preconditioner parsePreconditionerName(const std::string& name);
const char* preconditionerName(Preconditioner preconditioner);
// The integrators whose steps solve with implicit CG (cg_solve.h), which the preconditioner is for.
inline bool solvesWithCg(Integrator integrator) {
  return integrator == Integrator::ImplicitCg || integrator == Integrator::Imex;
}
// SolverSettings::momentum for the (k - 1) / (k + 2) schedule rather than a fixed momentum.
constexpr float kMomentumSchedule = -1.f;

// Parses "explicit-euler", "symplectic-euler", "verlet", "rk4", "implicit-cg", "nonlinear-cg",
// "newton-chebyshev", "imex", "xpbd"; unknown name: InputError listing the names.
Integrator parseIntegrator(const std::string& name);
const char* integratorName(Integrator integrator);
std::vector<std::string> integratorNames();

// Upper bounds on the solver's loop counts, for scene files and command-line flags alike: far above
// what any scene needs, low enough that a typo (80000 for 8) is refused instead of running for hours.
constexpr int kMaxSubsteps = 10000;         // steps per frame
constexpr int kMaxIterations = 10000;       // Verlet relaxation iterations; implicit solves' maxIterations
constexpr int kMaxNewtonIterations = 100;   // Newton-Chebyshev: Newton iterations per step

// How a cloth steps: one vocabulary for the scene reader (solver/io/scene_reader.h), the solver
// (SolverParams below) and the public API (weft::StepSettings wraps it). Each field says which
// integrators read it.
struct SolverSettings {
  Integrator integrator = Integrator::Verlet;
  float dt = 1.f / 60.f;   // s per frame (what a host advances by; Solver::advance takes it per call)
  int substeps = 8;        // steps per frame; each advances dt / substeps (likewise)
  int iterations = 10;     // Verlet constraint-relaxation iterations per substep; xpbd: Gauss-Seidel sweeps
  float constraintStiffness = 1.f;  // Verlet: (0, 1]
  float relaxation = 1.5f;          // Verlet Jacobi averaging over-relaxation, [1, 2)
  float relaxationRho = 0.f;        // Verlet: Chebyshev acceleration of the Jacobi relaxation, [0, 1); 0: off
  // implicit-cg, newton-chebyshev: the relative residual at which a solve stops; nonlinear-cg:
  // every particle's velocity error per step (m/s)
  float tolerance = 1e-3f;
  int maxIterations = 200;          // implicit solves: iteration cap per step (Newton-Chebyshev: Jacobi iterations)
  // implicit-cg, imex: their CG solves' preconditioner. TwoLevel runs on the CPU backend only; the
  // GPU backend refuses it (checkParams) for an integrator that solves with CG.
  Preconditioner preconditioner = Preconditioner::BlockJacobi;
  // implicit-cg: start each solve from the last one's answer where that leaves the smaller residual
  // (solver/integrators/common/cg/cg_solve.h). Off, every solve starts from zero, as Baraff &
  // Witkin's plain PCG: for tests and benchmarks that measure the warm start.
  bool cgWarmStart = true;
  int newtonIterations = 2;         // Newton-Chebyshev: Newton iterations per step
  float chebyshevRho = 0.999f;      // Newton-Chebyshev: Jacobi spectral radius estimate, [0, 1); 0: plain Jacobi
  Acceleration acceleration = Acceleration::Chebyshev;  // of both Jacobi solves (Newton's, Verlet's)
  float momentum = kMomentumSchedule;  // Nesterov: fixed momentum in [0, 1), or kMomentumSchedule
  float velocityScale = 0.01f;      // nonlinear-cg: velocity residual scale k (s): position tolerance = k * velocity tolerance
  float relativeTolerance = 0.f;    // nonlinear-cg: also below this fraction of each step's explicit move, [0, 1); 0: off
  // Jacobi iterations of the strain limit after each step; the limits themselves are the model's
  // (per spring, where a material has one), none: no pass at all
  int strainLimitIterations = 8;
  // The hash grid over mesh colliders' faces (solver/model/collider_grid.h). Off, every particle tests
  // every face, with the same result, only slower: for benchmarks and tests that measure the grid.
  bool colliderGrid = true;
};

// The pins as the scene file gave them, kept so withGridSize can pin the same places again.
struct PinSpec {
  CornerPreset corners = CornerPreset::None;
  std::vector<uint32_t> indices;  // particle indices of the scene's cloth
  std::vector<uint32_t> rows;     // whole grid rows, counted from the first (a clamped edge)
};

// Largest side of the square grids withGridSize builds: 4096^2 is the model's limit of 2^24 particles.
constexpr uint32_t kMaxGridSide = 4096;

// One cloth of a scene: where its particles and triangles sit in the scene's model. A scene's
// cloths are particle ranges of one model, so one solver steps them all.
struct ClothPart {
  std::string name;
  uint32_t firstParticle = 0, particleCount = 0;
  uint32_t firstTriangle = 0, triangleCount = 0;
};

// Everything a solver steps by, the same for both backends: how it steps (SolverSettings, no
// field of it copied) and what surrounds the cloth.
struct SolverParams : SolverSettings {
  Environment environment;
  std::vector<ColliderDesc> colliders;
  std::vector<HandleGroup> handles;  // particles carried along paths (solver/model/kinematics.h); fixed at creation
  ContactSpec contact;
};

struct Scene {
  std::string name;
  ClothModel cloth;              // every cloth of the scene, one after another
  std::vector<ClothPart> parts;  // one per cloth, in the file's order
  // The (first) cloth's recipe, so it can be rebuilt at another resolution (withGridSize).
  Material material;
  ForceModels forces;            // membrane, dihedral bending, tethers, aerodynamics (applied to cloth)
  std::optional<GridSpec> grid;  // set when the cloth is a grid (with the file's mass rule)
  PinSpec pins;
  glm::vec3 initialVelocity{0.f};  // m/s, every particle
  Environment environment;
  std::vector<ColliderDesc> colliders;
  std::vector<HandleSpec> handles;
  ContactSpec contact;
  SolverSettings solver;
};

// The particles of each handle of the scene, with its path (its center the particles' centroid
// unless the file gave one). InputError for a row past the grid.
std::vector<HandleGroup> handleGroups(const Scene& scene);

}  // namespace weft
