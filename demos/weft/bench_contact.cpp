#include "demos/weft/bench_contact.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "demos/weft/bench_measure.h"
#include "demos/weft/bench_record.h"
#include "demos/weft/output_paths.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/backend/solver.h"
#include "solver/model/stretch.h"

namespace weft {
namespace {

using Json = nlohmann::ordered_json;

// A contact workload: the cloth, its solver settings and the frames it is timed over.
struct ContactCase {
  std::string name;
  ClothModel model;
  SolverParams params;
  int substeps = 16;
  int warmFrames = 0;
  int frames = 60;
};

Material stripMaterial() { return Material{2000.f, 500.f, 5.f, 0.f}; }

SolverParams contactSolver() {
  SolverParams params;
  params.integrator = Integrator::Xpbd;
  params.iterations = 1;
  params.environment.airDrag = 2e-5f;
  ColliderDesc floor;
  floor.friction = 0.5f;
  params.colliders = {floor};
  params.contact.enabled = true;
  params.contact.thickness = 0.004f;
  return params;
}

// demos/scenes/drop_pile.json's strip (10 x 100 particles, 0.2 x 2 m, dropped upright beside a small
// sphere), its first second: the fall, the landing and the pile. `quick`: the first quarter second.
ContactCase pile(bool quick) {
  ContactCase c;
  c.name = "pile (drop_pile.json), 1,000 particles";
  GridSpec grid;
  grid.width = 10;
  grid.height = 100;
  grid.sizeX = 0.2f;
  grid.sizeY = 2.f;
  grid.origin = glm::vec3(-0.1f, 2.2f, 0.f);
  grid.plane = GridPlane::Vertical;
  c.model = buildGrid(grid, stripMaterial());
  c.params = contactSolver();
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = glm::vec3(0.f, 0.04f, 0.03f);
  sphere.radius = 0.05f;
  c.params.colliders.push_back(sphere);
  c.frames = quick ? 15 : 60;
  return c;
}

// A square sheet n^2, 1 m, dropped flat from 0.6 m onto a sphere of 0.2 m: its flaps swing down and
// meet under it (the second contact scene). Timed after it has landed (warm frames), where
// self-contact has the most pairs.
ContactCase sheet(int n, bool quick) {
  ContactCase c;
  c.name = std::to_string(n) + "² sheet onto a sphere";
  GridSpec grid;
  grid.width = grid.height = static_cast<uint32_t>(n);
  grid.origin = glm::vec3(-0.5f, 0.6f, -0.5f);
  grid.arealDensity = 0.2f;
  c.model = buildGrid(grid, stripMaterial());
  c.params = contactSolver();
  ColliderDesc sphere;
  sphere.kind = ColliderDesc::Kind::Sphere;
  sphere.center = glm::vec3(0.05f, 0.2f, 0.03f);
  sphere.radius = 0.2f;
  c.params.colliders.push_back(sphere);
  c.warmFrames = quick ? 2 : 30;
  c.frames = quick ? 3 : 10;
  return c;
}

// demos/scenes/twist.json (40², 16 steps a frame) at n^2: a 1 m square whose first and last rows are
// handles turning against each other about the cloth's axis and coming together (the twisting test
// of C-IPC and OGC). Timed from the start: its first `frames` frames, while the sheet starts to turn.
// Every size is the scene's physical problem, as the targets' cloths are (benchGrid), so that a row
// times a cloth that holds (its stretch columns say whether it did), with the edge h = 1/(n-1) m:
// - the steps a frame grow as 1/h: the handles' move in a step stays the same fraction of an edge,
//   and one xpbd iteration a step carries their pull about an edge into the cloth;
// - the bend springs' stiffness grows as 1/h^2, which keeps the sheet's bending rigidity: with the
//   scene's 2 N/m a 256² sheet folds at the grid's own scale and tears its springs apart;
// - the air drag, which acts per particle, shrinks with the particle's mass: the same damping rate;
// - the thickness is the scene's 3 mm, or a quarter of the edge where that is less, so that the
//   contact radius (twice the thickness, at least half the mean edge) stays half an edge, as in the
//   scene: a radius of a whole edge lists a flat cloth's own neighbours around every vertex.
// Measured (CPU backend, 10 frames, contact off): the scene's settings at 256² stretch the cloth by
// 19.6 % mean and 1,348 % in its longest spring; these hold it to 0.43 % and 14 % (the scene at 40²:
// 0.34 % and 7.5 %).
ContactCase twist(int n, bool quick) {
  ContactCase c;
  const float scale = float(n - 1) / 39.f;  // the scene's edge over this cloth's
  const float thickness = std::min(0.003f, 0.25f / float(n - 1));
  c.substeps = std::max(1, static_cast<int>(std::lround(16.f * scale)));
  char name[128];
  std::snprintf(name, sizeof name, thickness < 0.003f ? "twist %d² (twist.json, %d steps, thickness %.2f mm)" : "twist %d² (twist.json, %d steps)",
                n, c.substeps, 1e3 * thickness);
  c.name = name;
  GridSpec grid;
  grid.width = grid.height = static_cast<uint32_t>(n);
  grid.origin = glm::vec3(-0.5f, 1.f, -0.5f);
  grid.totalMass = 0.2f;
  c.model = buildGrid(grid, Material{2000.f, 500.f, 2.f * scale * scale, 0.05f});
  c.params = contactSolver();
  for (float side : {-1.f, 1.f}) {
    HandleGroup handle;
    handle.particles = gridRows(c.model, {side < 0.f ? 0u : static_cast<uint32_t>(n - 1)});
    pinParticles(c.model, handle.particles);
    handle.path.center = glm::vec3(0.f, 1.f, 0.5f * side);
    handle.path.axis = glm::vec3(0.f, 0.f, 1.f);
    handle.path.keys = {PathKey{0.0, 0.f, glm::vec3(0.f)}, PathKey{4.0, side * 6.2831853f, glm::vec3(0.f, 0.f, -0.25f * side)}};
    c.params.handles.push_back(handle);
  }
  c.params.colliders.clear();
  c.params.environment.gravity = glm::vec3(0.f);
  c.params.environment.airDrag = 5e-4f * (40.f * 40.f) / float(n * n);
  c.params.contact.thickness = thickness;
  c.params.contact.friction = c.params.contact.staticFriction = 0.2f;  // the scene's
  c.frames = quick ? 3 : 10;
  return c;
}
}  // namespace

int benchContactSuite(const BenchOptions& options) {
  const double bound = suiteRowSeconds(options);
  const SuiteSetup setup = openSuite(options, "contact");
  engine::Context* context = setup.context.get();
  const engine::ShaderLibrary* shaders = setup.shaders.get();
  const BenchEnvironment& environment = setup.environment;
  std::printf("weft bench --suite contact%s: Vulkan device %s (%s), CPU backend %u threads\n\n",
              options.quick ? " --quick (smaller cloths, a few frames: not the figures)" : "",
              context->deviceName().c_str(), context->deviceType().c_str(), environment.cpuThreads);
  std::vector<ContactCase> cases;
  cases.push_back(pile(options.quick));
  for (int n : options.quick ? std::vector<int>{16} : std::vector<int>{32, 64})
    cases.push_back(sheet(n, options.quick));
  for (int n : options.quick ? std::vector<int>{16} : std::vector<int>{64, 128, 256})
    cases.push_back(twist(n, options.quick));

  const auto start = std::chrono::steady_clock::now();
  const int total = static_cast<int>(cases.size()) * 4;
  int done = 0;
  Json rows = Json::array();
  // The stretch columns: the structural springs' after the last timed frame, mean / max (solver/model/stretch.h),
  // with contact on and off. A cloth that does not hold (a fine twist at the scene's substeps)
  // has long edges, which widen the search's cells: its contact time is not that of a cloth that holds.
  std::printf("| cloth | backend | ms/frame, contact on | of which contact (find + resolve) | ms/frame, off | on / off | stretch on, mean / max | "
              "stretch off |\n|---|---|---|---|---|---|---|---|\n");
  for (const ContactCase& c : cases) {
    for (Backend backend : {Backend::Cpu, Backend::Gpu}) {
      double ms[2] = {0, 0}, contactMs = 0, findMs = 0, resolveMs = 0;
      StretchStats stretch[2];
      std::string notMeasured[2];  // why contact on [0] or off [1] was not measured; empty: it was
      for (bool on : {true, false}) {
        ++done;
        if (!options.quiet) {
          std::fprintf(stderr, "weft bench: [%d/%d] %s, %s, contact %s ... (%.1f s elapsed)\n", done, total, c.name.c_str(),
                       backendName(backend), on ? "on" : "off",
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
          std::fflush(stderr);
        }
        SolverParams params = c.params;
        params.contact.enabled = on;
        auto solver = makeSolver(c.model, params, backend, context, shaders);
        const FrameTimes t = timeFrames(*solver, 1.f / 60.f, c.substeps, c.frames, c.warmFrames, {}, bound);
        if (t.stopped) {
          notMeasured[on ? 0 : 1] = notMeasuredPastBound(t, bound);
          continue;
        }
        ms[on ? 0 : 1] = t.wallMsMean;
        stretch[on ? 0 : 1] = structuralStretch(c.model, t.positions);
        if (on) {  // the contact pass's mean time a frame: GPU time on the device, wall time on the CPU backend
          const ContactPassTimes parts = contactPassTimes(t.passTotals);
          findMs = parts.findMs / c.frames;
          resolveMs = parts.resolveMs / c.frames;
          contactMs = findMs + resolveMs;
        }
      }
      auto cell = [&](int k, const char* pattern, double value) {
        if (!notMeasured[k].empty()) return notMeasured[k];
        char text[32];
        std::snprintf(text, sizeof text, pattern, value);
        return std::string(text);
      };
      const bool both = notMeasured[0].empty() && notMeasured[1].empty();
      const double ratio = both && ms[1] > 0 ? ms[0] / ms[1] : 0;
      auto stretchCell = [&](int k) {
        if (!notMeasured[k].empty()) return std::string("-");
        char text[48];
        std::snprintf(text, sizeof text, "%.2f %% / %.1f %%", 100 * stretch[k].mean, 100 * stretch[k].max);
        return std::string(text);
      };
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", c.name.c_str(), backendName(backend), cell(0, "%.1f", ms[0]).c_str(),
                  notMeasured[0].empty() ? (cell(0, "%.1f", contactMs) + " (" + cell(0, "%.1f", findMs) + " + " + cell(0, "%.1f", resolveMs) + ")").c_str() : "-", cell(1, "%.2f", ms[1]).c_str(),
                  both ? cell(0, "%.1f", ratio).c_str() : "-", stretchCell(0).c_str(), stretchCell(1).c_str());
      std::fflush(stdout);
      Json row = {{"cloth", c.name},
                  {"particles", c.model.particleCount()},
                  {"backend", backendName(backend)},
                  {"substeps", c.substeps},
                  {"frames", c.frames},
                  {"warmFrames", c.warmFrames}};
      if (notMeasured[0].empty()) {
        row["msPerFrameContact"] = ms[0];
        row["msPerFrameContactPass"] = contactMs;
        row["msPerFrameContactFind"] = findMs;
        row["msPerFrameContactResolve"] = resolveMs;
        row["stretchContact"] = {{"mean", stretch[0].mean}, {"max", stretch[0].max}};
      } else {
        row["contactNotMeasured"] = notMeasured[0];
      }
      if (notMeasured[1].empty()) {
        row["msPerFrameNoContact"] = ms[1];
        row["stretchNoContact"] = {{"mean", stretch[1].mean}, {"max", stretch[1].max}};
      } else row["noContactNotMeasured"] = notMeasured[1];
      if (both) row["ratio"] = ratio;
      rows.push_back(row);
    }
  }
  writeSuiteJson(options, environment, "contact", rows, Json{{"rowSeconds", bound}});
  return 0;
}

}  // namespace weft
