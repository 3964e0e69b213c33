#include "demos/view/view_command.h"

#include <cstdio>
#include <filesystem>
#include <limits>

#include "demos/common/demo_scene.h"
#include "demos/common/frame_timing.h"
#include "demos/common/grid_calibration.h"
#include "demos/render/camera.h"
#include "demos/view/viewer.h"
#include "demos/view/window.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/model/grid_resize.h"
#include "solver/model/scene.h"

namespace weft {
namespace {

// "NAME" or "NAME:SUBSTEPS" (the scene's substeps when left out).
ViewContent::PaneSolver parsePaneSolver(const std::string& text, int sceneSubsteps) {
  const size_t colon = text.find(':');
  ViewContent::PaneSolver solver{parseIntegrator(text.substr(0, colon)), sceneSubsteps};
  if (colon == std::string::npos) return solver;
  const std::string count = text.substr(colon + 1);
  size_t used = 0;
  int substeps = 0;
  try {
    substeps = std::stoi(count, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != count.size() || count.empty() || substeps < 1 || substeps > 4096)
    throw InputError("--compare: '" + count + "' after '" + text.substr(0, colon) +
                     ":' must be a number of substeps from 1 to 4096");
  solver.substeps = substeps;
  return solver;
}

// "A,B" (each optionally A:SUBSTEPS) into two pane solvers; anything else is a clear error.
std::vector<ViewContent::PaneSolver> parseCompare(const std::string& text, int sceneSubsteps) {
  const size_t comma = text.find(',');
  if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos)
    throw InputError("--compare takes two integrators separated by a comma, such as explicit-euler:128,implicit-cg "
                     "(got '" + text + "')");
  return {parsePaneSolver(text.substr(0, comma), sceneSubsteps), parsePaneSolver(text.substr(comma + 1), sceneSubsteps)};
}

void checkOptions(const ViewOptions& options) {
  if (options.frames && *options.frames < 1)
    throw InputError("--frames must be at least 1 (got " + std::to_string(*options.frames) + ")");
  for (const std::string* path : {&options.screenshotPath, &options.recordPath}) {
    if (path->empty()) continue;
    auto parent = std::filesystem::path(*path).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent))
      throw InputError("cannot write '" + *path + "': its folder does not exist");
  }
  if (!options.replayPath.empty() && (!options.compare.empty() || options.integrator || options.grid ||
                                      options.recordFromStart || options.backend))
    throw InputError("--replay plays a recording back without a solver: it takes no --compare, --integrator, "
                     "--grid, --backend or --record-now");
  if (!options.draw.empty() && !drawModeNamed(options.draw))
    throw InputError("unknown --draw mode '" + options.draw + "' (known: " + kDrawModeNames + ")");
  if (options.msaa && *options.msaa != 1 && *options.msaa != 2 && *options.msaa != 4 && *options.msaa != 8)
    throw InputError("--msaa takes 1 (off), 2, 4 or 8 samples per pixel (got " + std::to_string(*options.msaa) + ")");
  if (!options.compare.empty() && options.integrator)
    throw InputError("--compare names both integrators; leave out --integrator");
  if (options.replayPath.empty() && options.scenePath.empty())
    throw InputError("weft view needs a scene file (or --replay FILE)");
}

ViewContent loadContent(const ViewOptions& options) {
  ViewContent content;
  if (!options.replayPath.empty()) {
    content.recording = std::make_unique<RecordingReader>(options.replayPath);
    if (content.recording->header().frameCount == 0)
      throw InputError("recording '" + options.replayPath + "' holds no frames");
    // The replay path sizes its drawer and buffers once, for frame 0's particles and triangles.
    if (content.recording->topologyChanges())
      throw InputError("recording '" + options.replayPath +
                       "': the viewer cannot replay a recording whose topology changes yet; 'weft replay --png' "
                       "renders its frames");
    if (!options.scenePath.empty()) {  // its camera and colliders
      DemoScene demo = loadDemoScene(options.scenePath);
      content.scene = std::move(demo.scene);
      content.camera = demo.camera;
    } else {
      content.camera = fitCamera(content.recording->frame(0));
      content.scene.colliders = {ColliderDesc{}};  // the ground every scene stands on
    }
    return content;
  }
  DemoScene demo = loadDemoScene(options.scenePath);
  content.scene = std::move(demo.scene);
  content.camera = demo.camera;
  content.calibration = demo.calibration;
  if (options.grid) {
    if (*options.grid < 2) throw InputError("--grid must be at least 2 (got " + std::to_string(*options.grid) + ")");
    content.scene = withGridSize(content.scene, static_cast<uint32_t>(*options.grid));
    content.gridNote = "grid size from --grid";
  }
  content.backend = options.backend ? parseBackend(*options.backend) : Backend::Gpu;
  const int substeps = content.scene.solver.substeps;
  if (!options.compare.empty())
    content.solvers = parseCompare(options.compare, substeps);
  else
    content.solvers = {{options.integrator ? parseIntegrator(*options.integrator) : content.scene.solver.integrator,
                        substeps}};
  return content;
}

// Frames timed per grid size: enough for a median, few enough that calibration takes seconds.
constexpr int kCalibrationFrames = 5;

// The scene's calibration section asks for the largest grid that keeps its frame rate on this
// device: measure, then rebuild the scene at that size. Timed with the first pane's integrator.
void calibrate(ViewContent& content, engine::Context& context, const engine::ShaderLibrary& shaders) {
  const CalibrationSpec& spec = *content.calibration;
  Scene timed = content.scene;
  timed.solver.integrator = content.solvers[0].integrator;
  timed.solver.substeps = content.solvers[0].substeps;
  std::printf("weft: calibrating the grid size for %g frames per second (%s, %s backend)\n", spec.targetFps,
              integratorName(timed.solver.integrator), backendName(content.backend));
  CalibrationResult result = calibrateGrid(
      spec,
      [&](uint32_t n) {
        // A size the device or the host cannot hold (solver/backend/memory_budget.h) is over any budget:
        // the search then looks below it.
        try {
          return measureFrameMs(timed, n, content.backend, &context, &shaders, kCalibrationFrames);
        } catch (const InputError& error) {
          std::printf("weft:   %u x %u: %s\n", n, n, error.what());
          return std::numeric_limits<double>::infinity();
        }
      },
      [](uint32_t n, double ms) {
        std::printf("weft:   %u x %u: %.2f ms per frame\n", n, n, ms);
        std::fflush(stdout);
      });
  content.scene = withGridSize(content.scene, result.grid);
  char note[256];
  if (result.withinBudget)
    std::snprintf(note, sizeof note, "grid %u x %u by calibration: the largest tried whose simulation fits %.1f ms "
                  "(%.2f ms per frame), %zu sizes tried", result.grid, result.grid, result.budgetMs, result.msPerFrame,
                  result.tried.size());
  else
    std::snprintf(note, sizeof note, "grid %u x %u, the smallest allowed: it needs %.2f ms per frame, over the "
                  "%.1f ms this frame rate leaves", result.grid, result.grid, result.msPerFrame, result.budgetMs);
  content.gridNote = note;
  std::printf("weft: %s\n", note);
}

}  // namespace

int viewCommand(const ViewOptions& options) {
  // Bad input first: a typo is reported whether or not a display exists.
  checkOptions(options);
  ViewContent content = loadContent(options);

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
  if (!content.recording && !options.grid && content.calibration) calibrate(content, context, shaders);
  Viewer viewer(context, shaders, std::move(content), options);
  return viewer.run();
}

}  // namespace weft
