// The integrators' and the CG preconditioners' names, as scene files, the command line and the library's settings spell them.
#include <iterator>
#include <string>
#include <vector>

#include "weft/errors.h"
#include "solver/model/scene.h"
#include "solver/model/shown_text.h"

namespace weft {
namespace {

#define WEFT_INTEGRATOR_NAME(id, name) name,
constexpr const char* kIntegratorNames[] = {WEFT_INTEGRATORS(WEFT_INTEGRATOR_NAME)};
#undef WEFT_INTEGRATOR_NAME
static_assert(std::size(kIntegratorNames) == kIntegratorCount, "one name per integrator");

}  // namespace

Integrator parseIntegrator(const std::string& name) {
  for (size_t i = 0; i < std::size(kIntegratorNames); ++i) {
    if (name == kIntegratorNames[i]) return static_cast<Integrator>(i);
  }
  std::string known;
  for (const char* n : kIntegratorNames) known += (known.empty() ? "" : ", ") + std::string(n);
  // A short excerpt: the list of names is most of what this sentence has to say.
  throw InputError("unknown integrator '" + excerpt(name, 16) + "' (known: " + known + ")");
}

const char* integratorName(Integrator integrator) {
  const auto i = static_cast<size_t>(integrator);
  return i < std::size(kIntegratorNames) ? kIntegratorNames[i] : "unknown";
}

std::vector<Integrator> allIntegrators() {
  std::vector<Integrator> all;
  for (size_t i = 0; i < kIntegratorCount; ++i) all.push_back(static_cast<Integrator>(i));
  return all;
}

std::vector<std::string> integratorNames() {
  return {std::begin(kIntegratorNames), std::end(kIntegratorNames)};
}

Preconditioner parsePreconditionerName(const std::string& name) {
  if (name == "block-jacobi") return Preconditioner::BlockJacobi;
  if (name == "two-level") return Preconditioner::TwoLevel;
  throw InputError("unknown preconditioner '" + excerpt(name, 16) + "' (known: block-jacobi, two-level)");
}

const char* preconditionerName(Preconditioner preconditioner) {
  return preconditioner == Preconditioner::TwoLevel ? "two-level" : "block-jacobi";
}

}  // namespace weft
