#include "solver/backend/solver.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/error.h"
#include "solver/backend/backend_state.h"
#include "solver/cpu/cpu_solver.h"
#include "solver/gpu/gpu_solver.h"
#include "solver/integrators/integrator_unit.h"
#include "solver/model/settings_check.h"
#include "solver/model/tearing.h"

namespace weft {

Backend parseBackend(const std::string& name) {
  if (name == "cpu") return Backend::Cpu;
  if (name == "gpu") return Backend::Gpu;
  throw InputError("unknown backend '" + name + "' (known: cpu, gpu)");
}

const char* backendName(Backend backend) { return backend == Backend::Cpu ? "cpu" : "gpu"; }

void Solver::setParams(const SolverParams& params) {
  checkSettings(params, "solver settings");
  if (params.contact.enabled && !params_.contact.enabled)
    throw InputError("contact is turned on when the solver is made (its tables come from the cloth): "
                     "make a new solver with contact in its parameters");
  bool sameHandles = params.handles.size() == params_.handles.size();
  for (size_t h = 0; sameHandles && h < params.handles.size(); ++h)
    sameHandles = params.handles[h].particles == params_.handles[h].particles;
  if (!sameHandles)
    throw InputError("the handles' particles are pinned when the solver is made: make a new solver for other handles");
  // The cloths' own friction as given, or as tears extended it to their copies (params()).
  const std::vector<ClothFriction>& have = params_.contact.clothFriction;
  const std::vector<ClothFriction>& asked = params.contact.clothFriction;
  const size_t given = givenClothFriction_.value_or(have.size());
  const bool sameFriction = asked == have || (asked.size() == given && std::equal(asked.begin(), asked.end(), have.begin()));
  if (params.contact.enabled && !sameFriction)
    throw InputError("each cloth's own contact friction is chosen when the solver is made (it lies in the tables "
                     "contact builds from the cloth): make a new solver to change it");
  checkParams(params);
  std::vector<ClothFriction> kept = have;
  params_ = params;
  params_.contact.clothFriction = std::move(kept);
  kinematics_.setColliders(params_.colliders);
  kinematics_.setHandlePaths(params_.handles);
  onParamsChanged();
}

SolverParams solverParams(const Scene& scene) {
  SolverParams p;
  static_cast<SolverSettings&>(p) = scene.solver;
  p.environment = scene.environment;
  p.colliders = scene.colliders;
  p.handles = handleGroups(scene);
  p.contact = scene.contact;
  return p;
}

gpu::StepParams makeStepParams(const SolverParams& params, float dt, uint32_t particleCount, uint32_t colliderCount,
                               uint32_t elementRefs) {
  gpu::StepParams p{};
  p.gravity = glm::vec4(params.environment.gravity, 0.f);
  p.wind = glm::vec4(params.environment.wind, params.environment.airDrag);
  p.dt = dt;
  p.particleCount = particleCount;
  p.colliderCount = colliderCount;
  p.elementRefs = elementRefs;
  // The implicit solves hold contact pairs as elements (the units that say so): contact keeps each
  // vertex's nearest for the next step, and the gathers walk them.
  p.contactPairs = params.contact.enabled && integrators::integratorUnit(params.integrator).contactForces()
                       ? WEFT_CONTACT_PAIR_SLOTS
                       : 0u;
  p.constraintStiffness = params.constraintStiffness;
  p.relaxation = params.relaxation;
  p.omega = 1.f;
  p.mode = params.integrator == Integrator::ExplicitEuler ? WEFT_MODE_EXPLICIT_EULER : WEFT_MODE_SYMPLECTIC_EULER;
  return p;
}

void Solver::keepModelForTearing(const ClothModel& model) {
  if (!weft::tears(model)) return;
  checkTearable(model);
  model_ = std::make_shared<ClothModel>(model);
}

void Solver::noteTetherAnchors(const ClothModel& model) {
  tetherAnchors_.clear();
  for (const gpu::Element& e : model.elements)
    if (e.kind == WEFT_ELEMENT_TETHER) tetherAnchors_.push_back(e.nodes.y);
  std::sort(tetherAnchors_.begin(), tetherAnchors_.end());
  tetherAnchors_.erase(std::unique(tetherAnchors_.begin(), tetherAnchors_.end()), tetherAnchors_.end());
}

void Solver::checkHandle(uint32_t index, glm::vec3 target) const {
  if (index >= particleCount_) throw std::out_of_range("setHandle: no particle " + std::to_string(index));
  if (!std::isfinite(target.x) || !std::isfinite(target.y) || !std::isfinite(target.z))
    throw InputError("setHandle: the target for particle " + std::to_string(index) + " is not finite");
}

void Solver::checkWrittenState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) const {
  if (positions.size() != particleCount_ || velocities.size() != particleCount_)
    throw InputError("writeState: " + std::to_string(positions.size()) + " positions and " +
                     std::to_string(velocities.size()) + " velocities for a cloth of " + std::to_string(particleCount_) +
                     " particles");
  for (size_t i = 0; i < particleCount_; ++i) {
    const glm::vec4 &x = positions[i], &v = velocities[i];
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z) || !std::isfinite(v.x) ||
        !std::isfinite(v.y) || !std::isfinite(v.z))
      throw InputError("writeState: particle " + std::to_string(i) + "'s position or velocity is not finite");
    if (!std::isfinite(x.w) || x.w < 0.f)
      throw InputError("writeState: particle " + std::to_string(i) + "'s inverse mass " + std::to_string(x.w) +
                       " is not a finite number >= 0");
  }
  for (uint32_t anchor : tetherAnchors_)
    if (positions[anchor].w > 0.f)
      throw InputError("writeState: particle " + std::to_string(anchor) +
                       " anchors tethers and must stay pinned (inverse mass 0); a cloth that is to be let go "
                       "needs no tethers to that pin");
}

namespace {

// Each copy a tear or a cut made (particle firstNew + k, split from copiedFrom[k]) keeps the own
// contact friction of its particle's cloth: those are particle ranges, so the copies, appended past
// every cloth, are given ranges of their own after the `given` ones, which stay as the parameters
// gave them (consecutive copies of one cloth share one).
void followCopies(std::vector<ClothFriction>& cloths, size_t given, uint32_t firstNew,
                  const std::vector<uint32_t>& copiedFrom) {
  for (size_t k = 0; k < copiedFrom.size(); ++k) {
    const uint32_t copy = firstNew + static_cast<uint32_t>(k), source = copiedFrom[k];
    auto own = std::find_if(cloths.begin(), cloths.end(), [&](const ClothFriction& c) {
      return source >= c.firstParticle && source - c.firstParticle < c.particleCount;
    });
    if (own == cloths.end()) continue;
    ClothFriction range = *own;
    ClothFriction& last = cloths.back();
    if (cloths.size() > given && last.firstParticle + last.particleCount == copy && last.friction == range.friction &&
        last.staticFriction == range.staticFriction) {
      ++last.particleCount;
      continue;
    }
    range.firstParticle = copy;
    range.particleCount = 1;
    cloths.push_back(range);
  }
}

}  // namespace

size_t Solver::applyEdit(
    const std::function<TearEdit(ClothModel&, std::vector<glm::vec4>&, std::vector<glm::vec4>&)>& edit) {
  if (!model_) return 0;
  std::vector<glm::vec4> positions, velocities;
  readState(positions, velocities);
  const uint32_t firstNew = static_cast<uint32_t>(model_->particleCount());
  const TearEdit done = edit(*model_, positions, velocities);
  if (!done.changed()) return 0;
  if (!givenClothFriction_) givenClothFriction_ = params_.contact.clothFriction.size();
  followCopies(params_.contact.clothFriction, *givenClothFriction_, firstNew, done.copiedFrom);
  tornCount_ += done.brokenSprings + done.newParticles;
  particleCount_ = model_->particleCount();
  reloadTopology(*model_, positions, velocities);
  ++topologyVersion_;
  return done.brokenSprings + done.newParticles;
}

void Solver::applyTears(const std::vector<uint32_t>& springs) {
  if (springs.empty()) return;
  applyEdit([&](ClothModel& m, auto& x, auto& v) { return tearSprings(m, springs, x, v); });
}

size_t Solver::cut(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  return applyEdit([&](ClothModel& m, auto& x, auto& v) { return cutCloth(m, a, b, c, x, v); });
}

std::unique_ptr<Solver> makeSolver(const ClothModel& model, const SolverParams& params, Backend backend,
                                   engine::Context* context, const engine::ShaderLibrary* shaders) {
  checkSettings(params, "solver settings");
  if (backend == Backend::Cpu) return std::make_unique<CpuSolver>(model, params);
  if (!context || !shaders) throw std::invalid_argument("the GPU backend needs a Vulkan context and shaders");
  return std::make_unique<GpuSolver>(model, params, *context, *shaders);
}

}  // namespace weft
