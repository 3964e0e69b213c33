// weft::CpuCloth: the CPU backend behind the public settings.
#include "weft/cpu_cloth.h"

#include <cmath>
#include <string>

#include "engine/error.h"
#include "solver/api/api_internal.h"

namespace weft {

namespace detail {
struct CpuClothImpl {
  std::unique_ptr<Solver> solver;
};
}  // namespace detail

CpuCloth::CpuCloth(const Fabric& fabric, const StepSettings& settings)
    : impl_(std::make_unique<detail::CpuClothImpl>()) {
  impl_->solver = makeSolver(fabric.data().model, detail::toSolverParams(settings), Backend::Cpu);
}
CpuCloth::~CpuCloth() = default;
CpuCloth::CpuCloth(CpuCloth&&) noexcept = default;
CpuCloth& CpuCloth::operator=(CpuCloth&&) noexcept = default;

void CpuCloth::step(float frameDt, int substeps) {
  if (!(frameDt > 0.f) || !std::isfinite(frameDt))
    throw InputError("CpuCloth::step: frameDt must be a positive number of seconds");
  if (substeps < 1 || substeps > kMaxSubsteps)
    throw InputError("CpuCloth::step: substeps must be in [1, " + std::to_string(kMaxSubsteps) + "]");
  impl_->solver->advance(frameDt, substeps);
}
void CpuCloth::setSettings(const StepSettings& settings) { impl_->solver->setParams(detail::toSolverParams(settings)); }
void CpuCloth::setColliderTransform(size_t index, const glm::mat4& transform) {
  detail::setColliderTransform(*impl_->solver, index, transform);
}
void CpuCloth::setColliderVertices(size_t index, const std::vector<glm::vec3>& vertices) {
  detail::setColliderVertices(*impl_->solver, index, vertices);
}
void CpuCloth::setHandle(uint32_t index, glm::vec3 target) { impl_->solver->setHandle(index, target); }
void CpuCloth::releaseHandle() { impl_->solver->clearHandle(); }
void CpuCloth::readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const {
  impl_->solver->readState(positions, velocities);
}
void CpuCloth::writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) {
  impl_->solver->writeState(positions, velocities);
}
size_t CpuCloth::particleCount() const { return impl_->solver->particleCount(); }
ContactReport CpuCloth::contactReport() const { return detail::contactReport(*impl_->solver); }
std::vector<uint32_t> CpuCloth::contactMarks() const { return impl_->solver->lastContactMarks(); }

}  // namespace weft
