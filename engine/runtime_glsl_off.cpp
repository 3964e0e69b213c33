// Built when WEFT_RUNTIME_GLSL is off: weft runs the SPIR-V it embedded at build time, only.
#include "engine/error.h"
#include "engine/glsl_compiler.h"

namespace weft::engine {

std::unique_ptr<GlslCompiler> makeGlslCompiler() {
  throw InputError("this weft was built without run-time GLSL compilation (WEFT_RUNTIME_GLSL=OFF), so it cannot "
                   "load shaders from a folder; it runs the shaders built into it");
}

}  // namespace weft::engine
