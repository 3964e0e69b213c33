#include "demos/view/live_simulation.h"
#include "solver/model/elements.h"

#include "solver/gpu/gpu_solver.h"
#include "solver/integrators/integrator_unit.h"

namespace weft {

LiveSimulation::LiveSimulation(Scene scene, Backend backend, engine::Context* context,
                               const engine::ShaderLibrary* shaders)
    : scene_(std::move(scene)), backend_(backend), context_(context), shaders_(shaders),
      scenePins_(scene_.cloth.pinned) {
  rebuild(false);
}

LiveSimulation::~LiveSimulation() = default;

bool LiveSimulation::recordsIntoFrame() const {
  // A tearing cloth advances on the host: advance() reads the frame's tears and edits the topology
  // before the viewer draws it, where a frame recorded into the viewer's command buffer could not.
  return gpuSolver_ && !integrators::integratorUnit(scene_.solver.integrator).submitsOwnFrames() && !solver_->tears();
}

void LiveSimulation::setSettings(const SolverSettings& settings, const Environment& environment) {
  const Integrator integrator = scene_.solver.integrator;  // changes through setIntegrator only
  const bool sameDrag = environment.airDrag == scene_.environment.airDrag;
  scene_.solver = settings;
  scene_.solver.integrator = integrator;
  scene_.environment = environment;
  solver_->setParams(solverParams(scene_));
  if (sameDrag) {  // the springs' bounds stand: only the step changed
    stepLimit_.frameDt = scene_.solver.dt;
    stepLimit_.substeps = scene_.solver.substeps;
  } else {
    updateStepLimit();
  }
}

void LiveSimulation::updateStepLimit() {
  stepLimit_ = stepLimitFor(scene_.cloth, scene_.solver.integrator, scene_.environment.airDrag, scene_.solver.dt,
                            scene_.solver.substeps);
}

void LiveSimulation::setIntegrator(Integrator integrator) {
  if (integrator == scene_.solver.integrator) return;
  scene_.solver.integrator = integrator;
  rebuild(true);
}

SpringMaterial LiveSimulation::material() const {
  SpringMaterial m;
  // Scenes give each family one stiffness and every spring one damping: the first of each says it.
  for (auto it = scene_.cloth.springs.rbegin(); it != scene_.cloth.springs.rend(); ++it) {
    if (it->kind == SpringKind::Structural) m.structural = it->stiffness;
    if (it->kind == SpringKind::Shear) m.shear = it->stiffness;
    if (it->kind == SpringKind::Bend) m.bend = it->stiffness;
    m.damping = it->damping;
  }
  return m;
}

void LiveSimulation::setMaterial(const SpringMaterial& material) {
  if (material == this->material()) return;
  for (Spring& spring : scene_.cloth.springs) {
    spring.stiffness = spring.kind == SpringKind::Structural ? material.structural
                       : spring.kind == SpringKind::Shear    ? material.shear
                                                             : material.bend;
    spring.damping = material.damping;
  }
  rebuild(true);
}

void LiveSimulation::setPins(PinChoice pins) {
  if (pins == pins_ || (pins != PinChoice::Scene && !canChoosePins())) return;
  pins_ = pins;
  if (pins == PinChoice::Scene) {
    scene_.cloth.pinned = scenePins_;
  } else {
    scene_.cloth.pinned.assign(scene_.cloth.particleCount(), 0);
    const auto preset = static_cast<CornerPreset>(static_cast<int>(pins) - static_cast<int>(PinChoice::None));
    pinParticles(scene_.cloth, gridCorners(scene_.cloth, preset));
  }
  if (scene_.forces.tethers) replaceTethers(scene_.cloth, *scene_.forces.tethers);  // they hang from the pins
  rebuild(true);
}

void LiveSimulation::setContact(bool on) {
  if (on == scene_.contact.enabled) return;
  scene_.contact.enabled = on;
  rebuild(true);
}

void LiveSimulation::reset() { rebuild(false); }

void LiveSimulation::rebuild(bool keepState) {
  std::vector<glm::vec4> positions, velocities;
  double time = 0.0;
  if (keepState && solver_) {
    solver_->clearHandle();
    solver_->readState(positions, velocities);
    time = solver_->time();
  }
  solver_.reset();  // the old solver's buffers go before the new one allocates its own
  solver_ = makeSolver(scene_.cloth, solverParams(scene_), backend_, context_, shaders_);
  gpuSolver_ = dynamic_cast<GpuSolver*>(solver_.get());
  updateStepLimit();
  if (!keepState) return;
  solver_->setTime(time);  // moving colliders and handles go on from where they were
  // The carried state takes the new model's inverse masses: a newly pinned particle stays where
  // it is now, a released one falls from there.
  for (size_t i = 0; i < positions.size(); ++i) {
    positions[i].w = scene_.cloth.inverseMass(i);
    if (positions[i].w == 0.f) velocities[i] = glm::vec4(0.f);
  }
  solver_->writeState(positions, velocities);
}

}  // namespace weft
