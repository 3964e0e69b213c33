#include "engine/shader_library.h"

#include <filesystem>

#include "engine/error.h"
#include "engine/glsl_compiler.h"

namespace weft::engine {

ShaderLibrary::ShaderLibrary() = default;
ShaderLibrary::ShaderLibrary(std::string shaderDir) : shaderDir_(std::move(shaderDir)) {
  if (!shaderDir_.empty()) {
    if (!std::filesystem::is_directory(shaderDir_))
      throw InputError("shader folder '" + shaderDir_ + "' does not exist");
    compiler_ = makeGlslCompiler();
  }
}
ShaderLibrary::~ShaderLibrary() = default;
ShaderLibrary::ShaderLibrary(ShaderLibrary&&) noexcept = default;
ShaderLibrary& ShaderLibrary::operator=(ShaderLibrary&&) noexcept = default;

std::vector<uint32_t> ShaderLibrary::load(const std::string& name) const {
  if (compiler_) return compiler_->compile(shaderDir_, name);
  for (const EmbeddedShader& shader : embeddedShaders())
    if (name == shader.name) return {shader.words, shader.words + shader.wordCount};
  throw std::logic_error("no embedded shader named '" + name + "'");
}

}  // namespace weft::engine
