// Run-time GLSL compilation with shaderc (built when WEFT_RUNTIME_GLSL is on): what lets
// `--shader-dir` run edited shaders without a rebuild.
#include "engine/glsl_compiler.h"

#include <shaderc/shaderc.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/error.h"
#include "engine/shader_library.h"

namespace weft::engine {
namespace {

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

shaderc_shader_kind kindFor(const std::string& name) {
  auto ext = std::filesystem::path(name).extension().string();
  if (ext == ".vert") return shaderc_vertex_shader;
  if (ext == ".frag") return shaderc_fragment_shader;
  return shaderc_compute_shader;
}

// Resolves #include "x" against the shader folder, as glslc's -I does at build time.
class FolderIncluder : public shaderc::CompileOptions::IncluderInterface {
 public:
  explicit FolderIncluder(std::string dir) : dir_(std::move(dir)) {}
  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type, const char*, size_t) override {
    auto* result = new Result;
    auto path = std::filesystem::path(dir_) / requested;
    result->text = readText(path);
    if (result->text.empty()) {
      result->path.clear();  // an empty source name tells shaderc the include failed
      result->text = "cannot read include file " + path.string();
    } else {
      result->path = path.string();
    }
    result->source_name = result->path.c_str();
    result->source_name_length = result->path.size();
    result->content = result->text.c_str();
    result->content_length = result->text.size();
    result->user_data = nullptr;
    return result;
  }
  void ReleaseInclude(shaderc_include_result* data) override { delete static_cast<Result*>(data); }

 private:
  struct Result : shaderc_include_result {
    std::string path;
    std::string text;
  };
  std::string dir_;
};

class ShadercCompiler : public GlslCompiler {
 public:
  std::vector<uint32_t> compile(const std::string& shaderDir, const std::string& name) const override {
    std::string file = name;
    auto strip = [&file](const std::string& suffix) {  // the variant's suffix, if the name ends with it
      if (file.size() <= suffix.size() || !file.ends_with(suffix)) return false;
      file.resize(file.size() - suffix.size());
      return true;
    };
    const bool gridStencil = strip(kGridStencilVariant);  // the last suffix first
    const bool noElements = strip(kNoElementsVariant);
    auto path = std::filesystem::path(shaderDir) / file;
    std::string source = readText(path);
    if (source.empty()) throw InputError("cannot read shader '" + path.string() + "'");
    shaderc::CompileOptions options;
    options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
    options.SetOptimizationLevel(shaderc_optimization_level_performance);
    options.SetIncluder(std::make_unique<FolderIncluder>(shaderDir));
    if (noElements) options.AddMacroDefinition("WEFT_NO_ELEMENTS");
    if (gridStencil) options.AddMacroDefinition("WEFT_GRID_STENCIL");
    auto result = compiler_.CompileGlslToSpv(source, kindFor(file), path.string().c_str(), options);
    if (result.GetCompilationStatus() != shaderc_compilation_status_success)
      throw InputError("shader '" + path.string() + "' does not compile: " + result.GetErrorMessage());
    return {result.cbegin(), result.cend()};
  }

 private:
  shaderc::Compiler compiler_;  // kept warm: a new one costs ~70 ms
};

}  // namespace

std::unique_ptr<GlslCompiler> makeGlslCompiler() { return std::make_unique<ShadercCompiler>(); }

}  // namespace weft::engine
