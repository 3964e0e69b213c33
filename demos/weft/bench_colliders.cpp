#include "demos/weft/bench_colliders.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <nlohmann/json.hpp>

#include "demos/weft/bench_measure.h"
#include "demos/weft/bench_record.h"
#include "demos/weft/output_paths.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/backend/solver.h"

namespace weft {
namespace {

using Json = nlohmann::ordered_json;

// A closed sphere of `rings` bands of 2 `rings` faces each, one vertex at each pole: 4 rings (rings
// - 1) faces, outward.
std::shared_ptr<ColliderMesh> sphereSurface(float radius, uint32_t rings) {
  auto mesh = std::make_shared<ColliderMesh>();
  const uint32_t around = 2 * rings;
  mesh->vertices.push_back({0.f, radius, 0.f});
  for (uint32_t j = 1; j < rings; ++j)
    for (uint32_t i = 0; i < around; ++i) {
      const float theta = glm::pi<float>() * float(j) / float(rings), phi = 2.f * glm::pi<float>() * float(i) / float(around);
      mesh->vertices.push_back(radius * glm::vec3(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)));
    }
  const uint32_t south = static_cast<uint32_t>(mesh->vertices.size());
  mesh->vertices.push_back({0.f, -radius, 0.f});
  auto at = [&](uint32_t j, uint32_t i) { return 1 + (j - 1) * around + i % around; };
  for (uint32_t i = 0; i < around; ++i) mesh->triangles.push_back({0u, at(1, i + 1), at(1, i)});
  for (uint32_t j = 1; j + 1 < rings; ++j)
    for (uint32_t i = 0; i < around; ++i) {
      mesh->triangles.push_back({at(j, i), at(j, i + 1), at(j + 1, i)});
      mesh->triangles.push_back({at(j, i + 1), at(j + 1, i + 1), at(j + 1, i)});
    }
  for (uint32_t i = 0; i < around; ++i) mesh->triangles.push_back({south, at(rings - 1, i), at(rings - 1, i + 1)});
  return mesh;
}

struct ColliderCase {
  std::string name;
  size_t faces = 0;
  bool moves = false;
  SolverParams params;  // the floor and the body
};

// A sphere 0.3 m in radius (thickness 2 mm, margin 5 mm) over a floor; `moves`: it turns a quarter
// turn and glides 10 cm in 2 s, so its grid is made again every frame.
ColliderCase sphereCase(uint32_t rings, bool moves) {
  ColliderCase c;
  ColliderDesc floor;
  floor.offset = -0.3f;
  floor.friction = 0.5f;
  ColliderDesc body;
  body.kind = ColliderDesc::Kind::Mesh;
  body.mesh = sphereSurface(0.3f, rings);
  body.thickness = 0.002f;
  body.margin = 0.005f;
  body.friction = 0.5f;
  if (moves)
    body.path.keys = {PathKey{0.0, 0.f, glm::vec3(0.f)}, PathKey{2.0, 0.5f * glm::pi<float>(), glm::vec3(0.1f, 0.f, 0.f)}};
  c.faces = body.mesh->triangles.size();
  c.moves = moves;
  c.name = std::string(moves ? "moving " : "") + "sphere, " + std::to_string(c.faces) + " faces";
  c.params.integrator = Integrator::Xpbd;
  c.params.iterations = 2;
  c.params.colliders = {floor, body};
  return c;
}

}  // namespace

int benchCollidersSuite(const BenchOptions& options) {
  const SuiteSetup setup = openSuite(options, "colliders");
  engine::Context* context = setup.context.get();
  const engine::ShaderLibrary* shaders = setup.shaders.get();
  const BenchEnvironment& environment = setup.environment;
  const uint32_t side = options.quick ? 16 : 64;
  const int substeps = 8, warmFrames = options.quick ? 2 : 10, frames = options.quick ? 3 : 20;
  std::printf("weft bench --suite colliders%s: Vulkan device %s (%s), CPU backend %u threads\n"
              "A %u² cloth, 1 m, dropped from 6 cm onto the body; xpbd, 2 iterations, %d substeps; %d frames timed "
              "after %d.\n\n",
              options.quick ? " --quick (a smaller cloth, a few frames: not the figures)" : "",
              context->deviceName().c_str(), context->deviceType().c_str(), environment.cpuThreads, side, substeps, frames,
              warmFrames);
  GridSpec grid;
  grid.width = grid.height = side;
  grid.origin = glm::vec3(-0.5f, 0.36f, -0.5f);
  grid.totalMass = 0.2f;
  const ClothModel model = buildGrid(grid, Material{1000.f, 250.f, 1.f, 0.02f});

  std::vector<ColliderCase> cases;
  for (uint32_t rings : options.quick ? std::vector<uint32_t>{16} : std::vector<uint32_t>{16, 32, 100})
    cases.push_back(sphereCase(rings, false));
  cases.push_back(sphereCase(options.quick ? 16 : 100, true));
  // Every face for every particle, past this many tests a step, would take minutes: left out.
  const double maxEveryFaceTests = 2e8;

  const auto start = std::chrono::steady_clock::now();
  Json rows = Json::array();
  std::printf("| body | backend | ms/frame, face grid | ms/frame, every face | every face / grid | ms/frame, floor only |\n"
              "|---|---|---|---|---|---|\n");
  for (const ColliderCase& c : cases) {
    for (Backend backend : {Backend::Cpu, Backend::Gpu}) {
      auto time = [&](const SolverParams& params, const char* what) {
        if (!options.quiet) {
          std::fprintf(stderr, "weft bench: %s, %s, %s ... (%.1f s elapsed)\n", c.name.c_str(), backendName(backend), what,
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
          std::fflush(stderr);
        }
        auto solver = makeSolver(model, params, backend, context, shaders);
        return timeFrames(*solver, 1.f / 60.f, substeps, frames, warmFrames).wallMsPerFrame;
      };
      const double gridMs = time(c.params, "face grid");
      const bool everyFace = double(c.faces) * model.particleCount() * substeps <= maxEveryFaceTests;
      double everyMs = 0;
      if (everyFace) {
        SolverParams params = c.params;
        params.colliderGrid = false;
        everyMs = time(params, "every face");
      }
      SolverParams floorOnly = c.params;
      floorOnly.colliders.pop_back();
      const double floorMs = time(floorOnly, "floor only");
      const double ratio = everyFace && gridMs > 0 ? everyMs / gridMs : 0;
      if (everyFace)
        std::printf("| %s | %s | %.1f | %.1f | %.1f | %.1f |\n", c.name.c_str(), backendName(backend), gridMs, everyMs, ratio,
                    floorMs);
      else
        std::printf("| %s | %s | %.1f | (left out) | | %.1f |\n", c.name.c_str(), backendName(backend), gridMs, floorMs);
      std::fflush(stdout);
      Json row = {{"body", c.name},       {"faces", c.faces},         {"moves", c.moves},
                  {"particles", model.particleCount()}, {"backend", backendName(backend)}, {"substeps", substeps},
                  {"frames", frames},     {"warmFrames", warmFrames}, {"msPerFrameGrid", gridMs}};
      row["msPerFrameEveryFace"] = everyFace ? Json(everyMs) : Json(nullptr);
      row["everyFaceOverGrid"] = everyFace ? Json(ratio) : Json(nullptr);
      row["msPerFrameFloorOnly"] = floorMs;
      rows.push_back(row);
    }
  }
  writeSuiteJson(options, environment, "colliders", rows);
  return 0;
}

}  // namespace weft
