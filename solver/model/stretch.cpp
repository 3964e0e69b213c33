#include "solver/model/stretch.h"

#include <algorithm>

namespace weft {

StretchStats structuralStretch(const ClothModel& model, const std::vector<glm::vec4>& positions) {
  StretchStats stats;
  double sum = 0;
  for (const Spring& s : model.springs) {
    if (s.kind != SpringKind::Structural || s.restLength <= 0.f) continue;
    const double length = glm::distance(glm::dvec3(glm::vec3(positions[s.a])), glm::dvec3(glm::vec3(positions[s.b])));
    const double strain = length / double(s.restLength) - 1.0;
    sum += std::max(strain, 0.0);
    stats.max = std::max(stats.max, strain);
    ++stats.springs;
  }
  if (stats.springs > 0) stats.mean = sum / double(stats.springs);
  return stats;
}

void WorstStretch::add(int frame, const StretchStats& stats) {
  if (stats.springs == 0) return;
  if (meanFrame == 0 || stats.mean > mean) {
    mean = stats.mean;
    meanFrame = frame;
  }
  if (maxFrame == 0 || stats.max > max) {
    max = stats.max;
    maxFrame = frame;
  }
}

}  // namespace weft
