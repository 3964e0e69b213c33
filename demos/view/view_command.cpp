#include "demos/view/view_command.h"

#include <cstdio>
#include <filesystem>

#include "demos/view/viewer.h"
#include "demos/view/window.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/scene.h"

namespace weft {

int viewCommand(const ViewOptions& options) {
  // Bad input first: a typo is reported whether or not a display exists.
  Scene scene = loadScene(options.scenePath);
  if (options.integrator) scene.solver.integrator = parseIntegrator(*options.integrator);
  Backend backend = options.backend ? parseBackend(*options.backend) : Backend::Gpu;
  if (options.frames && *options.frames < 1)
    throw InputError("--frames must be at least 1 (got " + std::to_string(*options.frames) + ")");
  if (!options.screenshotPath.empty()) {
    auto parent = std::filesystem::path(options.screenshotPath).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent))
      throw InputError("cannot write PNG '" + options.screenshotPath + "': its folder does not exist");
  }

  if (!Window::initGlfw()) {
    std::fprintf(stderr, "%s\n", kNoDisplayMessage);
    return kNoDisplayExit;
  }
  engine::ContextOptions contextOptions{.deviceName = options.device, .validation = options.validate};
  contextOptions.instanceExtensions = Window::requiredInstanceExtensions();
  contextOptions.deviceExtensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  engine::Context context(contextOptions);
  std::printf("weft: Vulkan device %s (%s)\n", context.deviceName().c_str(), context.deviceType().c_str());
  engine::ShaderLibrary shaders;
  Viewer viewer(context, shaders, std::move(scene), backend, options);
  return viewer.run();
}

}  // namespace weft
