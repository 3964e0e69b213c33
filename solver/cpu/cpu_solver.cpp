#include "solver/cpu/cpu_solver.h"

#include <chrono>
#include <fstream>
#include <stdexcept>
#include <string>

#include "solver/contact/contact.h"
#include "solver/passes/handles.h"
#include "solver/model/host_memory.h"
#include "solver/integrators/integrator_unit.h"
#include "solver/backend/memory_budget.h"
#include "solver/passes/strain_limit.h"
#include "solver/passes/tear_detection.h"

namespace weft {

CpuSolver::CpuSolver(const ClothModel& model, const SolverParams& params, unsigned threads) : pool_(threads) {
  // Before any allocation: past the host's memory the state would page the machine to a halt.
  MemoryNeed need = cpuStateNeed(stateSize(model));
  if (params.contact.enabled) need.add(contactMemoryNeed(model.particleCount(), model.triangles.size(), 0));
  checkHostFits(need, hostMemoryAvailable(), describeCloth(model));
  params_ = params;
  particleCount_ = model.particleCount();
  state_.positions = packPositions(model);
  state_.velocities = packVelocities(model);
  state_.positionsOut = state_.positions;
  state_.velocitiesOut = state_.velocities;
  state_.prevPositions = state_.positions;
  state_.springs = buildSpringTable(model);
  state_.elements = buildElementTable(model);
  keepModelForTearing(model);
  noteTetherAnchors(model);
  prepareContactCpu(state_, model, params_.contact);
  kinematics_ = Kinematics(params_.colliders, params_.handles, model.positions);
  onParamsChanged();
}

std::vector<uint32_t> CpuSolver::detectTears() { return detectTearsCpu(state_.springs, state_.positions); }

void CpuSolver::reloadTopology(const ClothModel& model, const std::vector<glm::vec4>& positions,
                               const std::vector<glm::vec4>& velocities) {
  state_.positions = state_.positionsOut = state_.prevPositions = positions;
  state_.velocities = state_.velocitiesOut = velocities;
  state_.springs = buildSpringTable(model);
  state_.elements = buildElementTable(model);
  // The units size their temporaries to the state on each step; nothing of the old size may stay.
  state_.scratch.clear();
  state_.blocks.clear();
  state_.springBlocks.clear();
  state_.strainExcessSums.clear();
  for (auto& unit : state_.units) unit.reset();
  prepareContactCpu(state_, model, params_.contact);
}

void CpuSolver::onParamsChanged() {
  state_.colliders = packColliders(kinematics_.collidersNow());
  state_.colliderGrid =
      params_.colliderGrid ? buildColliderGrid({&state_.colliders}, kColliderGridStaticStep) : ColliderGridData{};
  applyContactSettings(state_.contact, params_.contact);
  forgetContactPairsCpu(state_);  // kept for another integrator or another thickness
}

void CpuSolver::checkParams(const SolverParams& params) const { checkContactSettings(state_.contact, params.contact); }

ContactStats CpuSolver::lastContactStats() const { return contactStatsCpu(state_); }

std::vector<uint32_t> CpuSolver::lastContactMarks() const { return contactMarksCpu(state_); }

void CpuSolver::advance(float frameDt, int substeps) {
  advanceSteps(frameDt, substeps);
  if (tears()) applyTears(detectTears());
}

void CpuSolver::advanceSteps(float frameDt, int substeps) {
  const float dt = frameDt / static_cast<float>(substeps);
  gpu::StepParams step = makeStepParams(params_, dt, static_cast<uint32_t>(particleCount_),
                                        static_cast<uint32_t>(state_.colliders.size()), state_.elements.rows.back());
  const integrators::IntegratorUnit& unit = integrators::integratorUnit(params_.integrator);
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point from) { return std::chrono::duration<double, std::milli>(Clock::now() - from).count(); };
  auto start = Clock::now();
  const bool limited = hasStrainLimit(state_), contact = hasContact(state_), moving = kinematics_.active();
  // Before anything changes: a path that would carry a collider through the cloth is refused here.
  const std::vector<KinematicStep> plan =
      moving ? kinematics_.planFrame(frameDt, substeps, params_.colliderGrid) : std::vector<KinematicStep>{};
  if (contact) startContactFrameCpu(state_);
  if (!limited && !contact && !moving) {
    solveStats_ = unit.advanceCpu(state_, params_, step, frameDt, substeps, pool_);
    passTimes_ = {{std::string(integratorName(params_.integrator)), ms(start)}};
    kinematics_.finishFrame(frameDt);
    return;
  }
  // The kinematics, the strain limit and contact go with every step: the unit is asked for one step
  // at a time (an adaptive unit still lands each on its own sub-steps). Before it the colliders and
  // handles are put where they are at the step's end; after it the limit projects the result and
  // contact keeps it from crossing itself.
  double integratorMs = 0.0, limitMs = 0.0;
  ContactPassTimes contactTimes;
  solveStats_.clear();
  for (int s = 0; s < substeps; ++s) {
    start = Clock::now();
    if (contact) startContactStepCpu(state_);
    if (moving) applyKinematicStepCpu(state_, kinematics_, plan[static_cast<size_t>(s)]);
    const std::vector<SolveStats> stats = unit.advanceCpu(state_, params_, step, dt, 1, pool_);
    solveStats_.insert(solveStats_.end(), stats.begin(), stats.end());
    integratorMs += ms(start);
    start = Clock::now();
    if (limited) limitStrainCpu(state_, step, params_.strainLimitIterations, pool_);
    limitMs += ms(start);
    if (contact) {
      const ContactPassTimes t = resolveContactCpu(state_, dt, step.contactPairs != 0u, pool_);
      contactTimes.findMs += t.findMs;
      contactTimes.resolveMs += t.resolveMs;
    }
  }
  kinematics_.finishFrame(frameDt);
  passTimes_ = {{std::string(integratorName(params_.integrator)), integratorMs}};
  if (limited) passTimes_.emplace_back("strain_limit", limitMs);
  if (contact) {
    passTimes_.emplace_back(kContactFindPass, contactTimes.findMs);
    passTimes_.emplace_back(kContactResolvePass, contactTimes.resolveMs);
  }
}

void CpuSolver::readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const {
  positions = state_.positions;
  velocities = state_.velocities;
}

void CpuSolver::writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) {
  checkWrittenState(positions, velocities);
  state_.positions = positions;
  state_.velocities = velocities;
  forgetContactPairsCpu(state_);  // found about the positions that were
  integrators::integratorUnit(params_.integrator).stateWritten(state_);
}

void CpuSolver::setHandle(uint32_t index, glm::vec3 target) {
  checkHandle(index, target);
  if (handle_ && *handle_ != index) clearHandle();
  if (!handle_) {
    handleInvMass_ = state_.positions[index].w;
    handle_ = index;
  }
  state_.positions[index] = glm::vec4(target, 0.f);
  state_.velocities[index] = glm::vec4(0.f);
}

void CpuSolver::clearHandle() {
  if (!handle_) return;
  state_.positions[*handle_].w = handleInvMass_;
  handle_.reset();
}

uint64_t CpuSolver::stateBytes() const {
  auto bytes = [](const auto& v) { return uint64_t(v.size()) * sizeof(v[0]); };
  uint64_t total = bytes(state_.positions) + bytes(state_.velocities) + bytes(state_.positionsOut) +
                   bytes(state_.velocitiesOut) + bytes(state_.prevPositions) + bytes(state_.blocks) +
                   bytes(state_.springBlocks) + bytes(state_.colliders) +
                   (state_.colliderGrid.on() ? bytes(state_.colliderGrid.cells) : 0);
  for (const auto& s : state_.scratch) total += bytes(s);
  total += bytes(state_.springs.rows) + bytes(state_.springs.entries) + bytes(state_.springs.links) +
           bytes(state_.springs.grid.restLengths);
  total += bytes(state_.springs.strainLimits) + bytes(state_.strainExcessSums) + bytes(state_.springs.forceBounds);
  total += bytes(state_.elements.elements) + bytes(state_.elements.rows) + bytes(state_.elements.refs);
  total += bytes(state_.elements.contactPairs) + bytes(state_.elements.contactPairCounts);
  if (state_.contact) total += state_.contact->hostBytes();
  if (state_.cgCoarse) total += state_.cgCoarse->hostBytes();
  for (const auto& unit : state_.units)
    if (unit) total += unit->hostBytes();
  return total;
}

std::string CpuSolver::deviceName() const {
  // The processor's model name where Linux tells it, for the run summary and stats.
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(colon + 2) + " (" + std::to_string(pool_.size()) + " threads)";
    }
  return "CPU (" + std::to_string(pool_.size()) + " threads)";
}

}  // namespace weft
