#pragma once
// GLSL compiled at run time, for ShaderLibrary's shader folder. Built with shaderc when
// WEFT_RUNTIME_GLSL is on (runtime_glsl.cpp); without it (runtime_glsl_off.cpp) asking for one is
// an InputError, and weft runs its embedded SPIR-V only.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace weft::engine {

class GlslCompiler {
 public:
  virtual ~GlslCompiler() = default;
  // SPIR-V of `name` (a file in shaderDir, or one with kNoElementsVariant appended). InputError with
  // the compiler's text when it does not compile.
  virtual std::vector<uint32_t> compile(const std::string& shaderDir, const std::string& name) const = 0;
};

std::unique_ptr<GlslCompiler> makeGlslCompiler();

}  // namespace weft::engine
