#pragma once
// The same cloth stepped on the CPU (all cores), with the same settings and the same results as
// weft::GpuCloth to within float rounding: for hosts without a GPU, and to check one against the other.
#include <cstddef>
#include <memory>
#include <vector>

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
  void setHandle(uint32_t index, glm::vec3 target);
  void releaseHandle();
  void readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities) const;
  void writeState(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities);
  size_t particleCount() const;

 private:
  std::unique_ptr<detail::CpuClothImpl> impl_;
};

}  // namespace weft
