#pragma once
// The public face of weft: make a solver for a scene on a backend, advance it, read its state.
//
//   weft::Scene scene = weft::loadScene("cloth.json");
//   auto solver = weft::makeSolver(scene, weft::Backend::Gpu, &context);
//   solver->advance(scene.solver.dt, scene.solver.substeps);   // one frame
//   solver->readState(positions, velocities);
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "solver/model/kinematics.h"
#include "solver/model/scene.h"
#include "solver/model/tearing.h"

namespace weft {

namespace engine {
class Context;
class ShaderLibrary;
}  // namespace engine

enum class Backend : uint8_t { Cpu, Gpu };
Backend parseBackend(const std::string& name);  // "cpu" | "gpu"; else InputError
const char* backendName(Backend backend);

// The solver's parameters (SolverParams, solver/model/scene.h) of a scene: its SolverSettings with
// its environment, colliders, handles and contact.
SolverParams solverParams(const Scene& scene);

// What the iterative solve of one step did (implicit integrators; empty for the others).
struct SolveStats {
  int iterations = 0;
  float residual = 0.f;  // implicit-cg: relative to the step's initial one; nonlinear-cg: max |r_i| / k (m/s)
  bool converged = false;
  float dt = 0.f;        // s, the step actually taken
};

// What contact did in the last advance() (solver/contact/contact.h), summed over its steps.
struct ContactStats {
  uint64_t contactVertices = 0;  // vertices pushed apart, summed over the steps
  uint64_t limitedVertices = 0;  // vertices whose move the bound cut short, summed over the steps
  uint64_t nearVertices = 0;     // vertices with a pair within the radius (contacts found), summed over the steps
  uint64_t crowdedVertices = 0;  // vertices with more candidate pairs than their search's slots, summed over
                                 // the steps: the pairs past them only limited the move (docs/contact.md)
  uint64_t searchSteps = 0;      // steps that searched for candidate pairs; the others evaluated the list of an
                                 // earlier one, which still held every pair within the radius (docs/contact.md)
  uint64_t unstoredSteps = 0;    // GPU: steps whose pairs within the radius passed the room the device keeps
                                 // for their states (ContactParams::pairStateCapacity), and were evaluated
                                 // at each corner instead: slower, the same result (docs/contact.md)
  float minDistance = 0.f;       // m: the smallest distance between primitives sharing no corner,
                                 // at a step's start (the radius when none came nearer)
};

// Per-pass timings of the last advance(): GPU timestamps on the GPU backend, wall-clock on the CPU.
using PassTimes = std::vector<std::pair<std::string, double>>;  // name, ms
// Contact is timed in two parts on both backends: finding the pairs (the drift since the list was
// made, and in a step that searches, the hash grid, the search and the incidence table) and
// resolving them (each listed pair's cull and evaluation, then each vertex's bounded move).
inline constexpr const char* kContactFindPass = "contact_find";
inline constexpr const char* kContactResolvePass = "contact_resolve";
struct ContactPassTimes {
  double findMs = 0.0, resolveMs = 0.0;
};
// The two parts' times summed over a frame's passes (one of each a step).
inline ContactPassTimes contactPassTimes(const PassTimes& passes) {
  ContactPassTimes t;
  for (const auto& [name, ms] : passes) {
    if (name == kContactFindPass) t.findMs += ms;
    if (name == kContactResolvePass) t.resolveMs += ms;
  }
  return t;
}

class Solver {
 public:
  virtual ~Solver() = default;
  // Advances by `frameDt` seconds in `substeps` equal steps. The GPU backend records all substeps
  // into one command buffer and waits once: no host round trip inside the frame.
  virtual void advance(float frameDt, int substeps) = 0;
  // Positions (xyz m, w inverse mass) and velocities (xyz m/s) of every particle.
  virtual void readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const = 0;
  // InputError, with nothing written, for a state the solver cannot take: another particle count, a
  // coordinate, velocity or inverse mass that is not finite, a negative inverse mass, or a tether's
  // anchor given an inverse mass (its tethers were built for a pin; xpbd lets them share it within
  // a colour, so a free anchor would be moved by several at once).
  virtual void writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) = 0;
  virtual PassTimes lastPassTimes() const = 0;
  // One entry per step of the last advance() for implicit integrators, else empty.
  virtual std::vector<SolveStats> lastSolveStats() const { return solveStats_; }
  // What contact did in the last advance() (zeros when the scene has no contact). The GPU backend
  // reads it from the device when asked.
  virtual ContactStats lastContactStats() const { return {}; }
  // What contact did to each particle in the last advance(): WEFT_CONTACT_MARK_* bits (shaders/shared.h),
  // or-ed over its steps. Empty when the scene has no contact. The GPU backend reads them from the device.
  virtual std::vector<uint32_t> lastContactMarks() const { return {}; }
  virtual Backend backend() const = 0;
  virtual std::string deviceName() const = 0;

  // A moving pin (what the viewer's mouse grab uses): particle `index` gets inverse mass 0, zero
  // velocity and position `target`, and keeps them, so steps leave it there. Calling it again moves
  // the target; another index releases the previous particle first. clearHandle() gives the particle
  // its own inverse mass back and lets it move. The CPU backend applies both at once; the GPU backend
  // at the start of the next advance() or recordAdvance() (or GpuSolver::recordHandle).
  virtual void setHandle(uint32_t index, glm::vec3 target) = 0;
  virtual void clearHandle() = 0;
  std::optional<uint32_t> handle() const { return handle_; }

  // Moving colliders and handles (solver/model/kinematics.h). A collider's (a handle's) pose at the end
  // of the next advance(), instead of where its path puts it: the host of an animated body sets it
  // every frame, and the steps between go there in a straight line, turning the shorter way.
  // std::out_of_range for an index past the scene's colliders (handles).
  void setColliderPose(size_t index, const RigidPose& pose) { kinematics_.setColliderPose(index, pose); }
  void setColliderVertices(size_t index, const std::vector<glm::vec3>& vertices) {
    kinematics_.setColliderVertices(index, vertices);
  }
  void setHandlePose(size_t index, const RigidPose& pose) { kinematics_.setHandlePose(index, pose); }
  const Kinematics& kinematics() const { return kinematics_; }
  double time() const { return kinematics_.time(); }  // s advanced since the solver was made
  // Continues the scene's paths from `time` s (a solver made again mid-run); the colliders take their
  // poses then from the next step on.
  void setTime(double time) { kinematics_.setTime(time); }

  const SolverParams& params() const { return params_; }
  // InputError, with nothing changed, for a setting out of its range (solver/model/settings_check.h,
  // as makeSolver), contact turned on in a solver made without it (its tables
  // come from the cloth: solver/contact/contact.h), contact settings the cloth refuses (a radius or thickness
  // out of proportion to its edges, other per-cloth friction), or other handles (the cloth's pins).
  void setParams(const SolverParams& params);
  size_t particleCount() const { return particleCount_; }

  // Tearing (solver/model/tearing.h), for a cloth whose material has a tearStrain: after each advance()
  // the springs stretched past it break, and where a crack separates triangles the particles on it
  // split. cut() breaks every spring whose segment crosses the triangle (a, b, c) now. Either may add
  // particles (particleCount() grows: new ones follow the old, whose indices stay) and change the
  // triangles; topologyVersion() counts those changes, for a renderer to rebuild its index buffer.
  // The GPU backend reads one counter per frame to know whether any spring broke.
  bool tears() const { return model_ != nullptr; }
  // The cloth as it is now (its triangles, springs and masses); null unless tears().
  const ClothModel* tornModel() const { return model_.get(); }
  uint64_t topologyVersion() const { return topologyVersion_; }
  size_t tornCount() const { return tornCount_; }  // particles split and springs removed since creation
  size_t cut(glm::vec3 a, glm::vec3 b, glm::vec3 c);  // particles split and springs removed; 0 unless tears()
  // For a host recording frames into its own command buffer (GpuSolver::recordAdvance): applies the
  // tears the last recorded frame found, once that frame has finished. advance() does it itself.
  void applyRecordedTears() { applyTears(detectTears()); }

 protected:
  // Keeps a copy of the model when it tears (and refuses what tearing cannot follow): the backends'
  // constructors call it.
  void keepModelForTearing(const ClothModel& model);
  // The particles the model's tethers hang from, for checkWrittenState: the backends' constructors call it.
  void noteTetherAnchors(const ClothModel& model);
  // setHandle's refusals, before a backend changes anything: std::out_of_range for an index past the
  // particles, InputError for a target that is not finite.
  void checkHandle(uint32_t index, glm::vec3 target) const;
  // writeState's refusals (above), before a backend writes anything.
  void checkWrittenState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) const;
  // The springs past their breaking length at the end of the last frame, ascending model indices.
  virtual std::vector<uint32_t> detectTears() = 0;
  // Rebuilds the backend's tables and state for the edited model (particles appended, springs and
  // elements changed), continuing from `positions` and `velocities`.
  virtual void reloadTopology(const ClothModel& model, const std::vector<glm::vec4>& positions,
                              const std::vector<glm::vec4>& velocities) = 0;
  // Breaks `springs` and splits what they separate (tearSprings), then reloads the backend.
  void applyTears(const std::vector<uint32_t>& springs);
  // Reads the state, lets `edit` change the model and the state, and reloads the backend if it did.
  size_t applyEdit(const std::function<TearEdit(ClothModel&, std::vector<glm::vec4>&, std::vector<glm::vec4>&)>& edit);

  virtual void onParamsChanged() {}
  // InputError for parameters the backend's tables refuse, before setParams changes anything.
  virtual void checkParams(const SolverParams&) const {}
  SolverParams params_;
  size_t particleCount_ = 0;
  std::vector<SolveStats> solveStats_;
  Kinematics kinematics_;  // moving colliders and handles: the backends' constructors make it
  std::optional<uint32_t> handle_;  // the held particle
  std::vector<uint32_t> tetherAnchors_;  // ascending, each once
  float handleInvMass_ = 0.f;       // its own inverse mass, restored on release
  std::shared_ptr<ClothModel> model_;  // tearing cloths only: the topology as it is now
  uint64_t topologyVersion_ = 0;
  size_t tornCount_ = 0;
  // How many cloths' own friction entries the parameters had before tears gave copies theirs
  // (unset until the first tear).
  std::optional<size_t> givenClothFriction_;
};

// GPU backend needs a context (owned by the caller, who may have borrowed the device from a host
// application) and the shader library to build its programs from.
std::unique_ptr<Solver> makeSolver(const ClothModel& model, const SolverParams& params, Backend backend,
                                   engine::Context* context = nullptr, const engine::ShaderLibrary* shaders = nullptr);

}  // namespace weft
