#pragma once
// One live simulation as the viewer drives it: a scene, its solver on one backend, and the edits the
// panel makes while it runs. Settings the solver reads every step (dt, substeps, iterations,
// tolerance, gravity, wind, drag) change in place; edits that change what the solver built from the
// cloth (integrator, spring stiffness or damping, pins, contact) rebuild the solver and carry the current
// positions and velocities over, so the cloth does not jump. No window here: testable headless.
#include <memory>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "demos/common/step_limit_text.h"
#include "solver/model/scene.h"
#include "solver/backend/solver.h"

namespace weft {

class GpuSolver;

namespace engine {
class Context;
class ShaderLibrary;
}  // namespace engine

// The stiffness (N/m) and damping (N s/m) of each spring family, as the panel shows them.
struct SpringMaterial {
  float structural = 0.f, shear = 0.f, bend = 0.f;
  float damping = 0.f;
  bool operator==(const SpringMaterial&) const = default;
};

// Pins the panel can choose: the scene's own, or a grid corner preset (grids only).
enum class PinChoice : uint8_t { Scene, None, One, Two, Three, Four };

class LiveSimulation {
 public:
  // The GPU backend needs the context and shaders; both must outlive this.
  LiveSimulation(Scene scene, Backend backend, engine::Context* context, const engine::ShaderLibrary* shaders);
  ~LiveSimulation();
  LiveSimulation(const LiveSimulation&) = delete;
  LiveSimulation& operator=(const LiveSimulation&) = delete;

  Solver& solver() { return *solver_; }
  const Solver& solver() const { return *solver_; }
  GpuSolver* gpuSolver() const { return gpuSolver_; }  // the solver when on the GPU backend
  const Scene& scene() const { return scene_; }
  Backend backend() const { return backend_; }

  // The GPU backend can record this integrator's frame into the caller's command buffer; the
  // others (CPU backend, implicit-cg's chunked convergence checks, nonlinear-cg's retries) advance
  // on the host with advance().
  bool recordsIntoFrame() const;

  // In place: the next step uses them. Substeps and dt are the viewer's, kept in the scene.
  void setSettings(const SolverSettings& settings, const Environment& environment);
  // Rebuilds (the device must be idle: the old solver's buffers go away).
  void setIntegrator(Integrator integrator);
  void setMaterial(const SpringMaterial& material);
  void setPins(PinChoice pins);
  // Self-collision and cloth-cloth contact on or off (solver/contact/contact.h): rebuilds, carrying the state
  // over. On, with the scene's own contact section, or contact's defaults where it has none.
  void setContact(bool on);
  bool contact() const { return scene_.contact.enabled; }
  // Back to the scene's initial state with the current settings, material and pins.
  void reset();

  // The integrator's stable step on the cloth's springs at the current substeps and dt
  // (step_limit_text.h), kept up to date by the edits: the panel warns from it.
  const StepLimit& stepLimit() const { return stepLimit_; }

  SpringMaterial material() const;
  PinChoice pins() const { return pins_; }
  bool canChoosePins() const { return scene_.cloth.gridWidth > 0; }  // presets need grid corners

 private:
  void rebuild(bool keepState);
  void updateStepLimit();  // after an edit of the integrator, the springs, the pins, dt, substeps or drag

  Scene scene_;           // current: edits land here
  Backend backend_;
  engine::Context* context_;
  const engine::ShaderLibrary* shaders_;
  std::vector<uint8_t> scenePins_;  // the scene file's pins, for PinChoice::Scene
  PinChoice pins_ = PinChoice::Scene;
  StepLimit stepLimit_;
  std::unique_ptr<Solver> solver_;
  GpuSolver* gpuSolver_ = nullptr;
};

}  // namespace weft
