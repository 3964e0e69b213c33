#include "solver/model/energy_bound.h"

#include <algorithm>
#include <cmath>

namespace weft {
namespace {

double kinetic(const std::vector<float>& masses, const std::vector<glm::vec4>& velocities) {
  double sum = 0;
  for (size_t i = 0; i < masses.size(); ++i) sum += 0.5 * masses[i] * glm::dot(glm::dvec3(velocities[i]), glm::dvec3(velocities[i]));
  return sum;
}

double gravitational(const std::vector<float>& masses, glm::dvec3 g, const std::vector<glm::vec4>& positions) {
  double sum = 0;
  for (size_t i = 0; i < masses.size(); ++i) sum -= masses[i] * glm::dot(g, glm::dvec3(positions[i]));
  return sum;
}

}  // namespace

EnergyBound::EnergyBound(const Scene& scene, const std::vector<glm::vec4>& positions,
                         const std::vector<glm::vec4>& velocities)
    : gravity_(scene.environment.gravity) {
  const ClothModel& cloth = scene.cloth;
  masses_.resize(cloth.masses.size());
  double totalMass = 0;
  glm::dvec3 low(1e300), high(-1e300);
  for (size_t i = 0; i < masses_.size(); ++i) {
    masses_[i] = cloth.pinned[i] ? 0.f : cloth.masses[i];
    totalMass += masses_[i];
    low = glm::min(low, glm::dvec3(positions[i]));
    high = glm::max(high, glm::dvec3(positions[i]));
  }
  double elastic = 0;
  for (const Spring& s : cloth.springs) {
    const double stretch = glm::distance(glm::dvec3(positions[s.a]), glm::dvec3(positions[s.b])) - s.restLength;
    elastic += 0.5 * s.stiffness * stretch * stretch;
  }
  startGravitational_ = gravitational(masses_, gravity_, positions);
  start_ = kinetic(masses_, velocities) + elastic;
  const glm::dvec3 wind(scene.environment.wind);
  const size_t free = static_cast<size_t>(std::count(cloth.pinned.begin(), cloth.pinned.end(), uint8_t{0}));
  windPower_ = free * double(scene.environment.airDrag) * glm::dot(wind, wind) / 4;
  const double size = std::max(glm::length(high - low), 0.01);  // m: a single particle still has a scale
  slack_ = 0.1 * totalMass * glm::length(gravity_) * size + 1e-6;
  const double step = double(scene.solver.dt) / std::max(scene.solver.substeps, 1);
  drift_ = totalMass * glm::dot(gravity_, gravity_) * step;
  bounded_ = !(scene.forces.aerodynamics && glm::dot(wind, wind) > 0);
  // A handle or a collider on a path does whatever work its path takes: nothing bounds it.
  if (!scene.handles.empty()) bounded_ = false;
  for (const ColliderDesc& c : scene.colliders)
    if (c.path.moves()) bounded_ = false;
}

double EnergyBound::excess(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) const {
  return kinetic(masses_, velocities) + gravitational(masses_, gravity_, positions) - startGravitational_;
}

double EnergyBound::limit(double t) const { return 2 * (start_ + windPower_ * t) + slack_ + drift_ * t; }

}  // namespace weft
