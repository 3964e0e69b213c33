#pragma once
// Where SPIR-V comes from: the table embedded at build time (cmake/embed_shaders.cmake), or, with a
// shader folder set (`--shader-dir`), GLSL compiled at run time by shaderc so shaders can be edited
// without rebuilding.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace weft::engine {

class GlslCompiler;

// Appended to a kernel's file name, it names the kernel built with WEFT_NO_ELEMENTS defined: the
// variant for a cloth of springs only (shaders/element_gather.glsl).
constexpr const char* kNoElementsVariant = "+no-elements";
// Appended after it (or alone), it names the kernel built with WEFT_GRID_STENCIL defined: the variant
// that finds a regular grid's springs from the particle's index (shaders/grid_stencil.h).
constexpr const char* kGridStencilVariant = "+grid-stencil";

struct EmbeddedShader {
  const char* name;  // file name, e.g. "verlet_relax.comp"
  const uint32_t* words;
  size_t wordCount;
};
std::span<const EmbeddedShader> embeddedShaders();  // generated at build time

class ShaderLibrary {
 public:
  ShaderLibrary();  // embedded SPIR-V only
  explicit ShaderLibrary(std::string shaderDir);  // compile GLSL from this folder at run time
  ~ShaderLibrary();
  ShaderLibrary(ShaderLibrary&&) noexcept;
  ShaderLibrary& operator=(ShaderLibrary&&) noexcept;

  // SPIR-V for a shader file name, or a file name with kNoElementsVariant and/or kGridStencilVariant
  // appended, in that order. Unknown name or
  // compile error: InputError with the compiler's text.
  std::vector<uint32_t> load(const std::string& name) const;
  const std::string& shaderDir() const { return shaderDir_; }

 private:
  std::string shaderDir_;
  std::unique_ptr<GlslCompiler> compiler_;  // one warm compiler: a new one costs ~70 ms
};

}  // namespace weft::engine
