#pragma once
// The same cloth stepped on the CPU (all cores), with the same settings and the same results as
// weft::GpuCloth to within float rounding: for hosts without a GPU, and to check one against the other.
#include <cstddef>
#include <memory>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "weft/fabric.h"
#include "weft/settings.h"

namespace weft {

namespace detail {
struct CpuClothImpl;
}

class CpuCloth {
 public:
  CpuCloth(const Fabric& fabric, const StepSettings& settings);  // InputError for refused settings
  ~CpuCloth();
  CpuCloth(CpuCloth&&) noexcept;
  CpuCloth& operator=(CpuCloth&&) noexcept;

  void step(float frameDt, int substeps);  // SolveError when an adaptive step cannot be taken
  void setSettings(const StepSettings& settings);
  // Moves collider `index` of the settings: `transform` (rotation and translation only, applied to
  // the collider as the settings give it) is where it is at the end of the next frame. The frame's
  // steps take it there in a straight line, turning the shorter way, and friction drags the cloth
  // with its surface. An animated body's host calls it every frame. InputError for a transform
  // with scale or shear, or an index past the colliders.
  void setColliderTransform(size_t index, const glm::mat4& transform);
  // As GpuCloth::setColliderVertices: a mesh collider's vertices at the end of the next frame.
  void setColliderVertices(size_t index, const std::vector<glm::vec3>& vertices);
  // As GpuCloth's: setHandle refuses an index past the particles and a target that is not finite;
  // writeState refuses what GpuCloth::writeState refuses, with nothing written.
  void setHandle(uint32_t index, glm::vec3 target);
  void releaseHandle();
  void readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const;
  void writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities);
  size_t particleCount() const;
  // What contact did in the last step() (docs/contact.md): a summary, and one ContactMark bit set per
  // particle (empty without contact).
  ContactReport contactReport() const;
  std::vector<uint32_t> contactMarks() const;

 private:
  std::unique_ptr<detail::CpuClothImpl> impl_;
};

}  // namespace weft
