#pragma once
// The record of a `weft bench` run: what ran where (version, commit, date, device, CPU, settings)
// and its rows, as JSON (--json) and CSV (--csv), each file written whole or not at all.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "demos/weft/bench_command.h"

namespace weft {

namespace engine {
class Context;
class ShaderLibrary;
}

// One timed pass of a GPU row, per step (means over the measured frames).
struct BenchPass {
  std::string name;
  double msPerStep = 0;          // GPU timestamps
  double dispatchesPerStep = 0;
  double bytesPerStep = 0;       // bound bytes: the sizes of the buffers each dispatch binds, summed
  double gbps = 0;               // bytesPerStep / msPerStep
  double ofCopy = 0;             // gbps / the row's copy bandwidth
};

struct BenchRow {
  int grid = 0;
  uint32_t particles = 0;
  std::string integrator, backend, device;
  std::string notRun;  // non-empty: why the row was not measured (the numbers below are unset)
  double wallMsPerStep = 0;
  std::optional<double> gpuMsPerStep;
  double particleStepsPerSecond = 0;
  double copyGBps = 0;
  std::optional<double> medianSolveIterations, maxResidual;
  // The structural springs' stretch after the last measured frame (solver/model/stretch.h): what the budget holds.
  std::optional<double> stretchMean, stretchMax;
  // GPU rows: what one step records (RecordStats), per step.
  std::optional<double> dispatchesPerStep, barriersPerStep, boundBytesPerStep;
  std::optional<uint64_t> boundBufferBytes;  // the distinct buffers the frames bound, their sizes summed
  std::vector<BenchPass> passes;
};

struct BenchDevice {
  std::string name, type;
  uint32_t driverVersion = 0;
  std::string apiVersion;  // "1.3.255"
};

struct BenchEnvironment {
  std::string weftVersion, commit, date;  // date: ISO-8601 UTC of the run
  std::optional<BenchDevice> device;      // none without the GPU backend
  std::string cpuModel;                   // /proc/cpuinfo's "model name", or "unknown"
  unsigned cpuThreads = 0;
  int cpuXpbdLanes = 1;  // the CPU backend's xpbd lanes (16 with AVX-512, 8 with AVX2, 4 with SSE2; cpu/simd/lanes.h)
};

// `context` null: no GPU backend in the run.
BenchEnvironment benchEnvironment(const engine::Context* context);

// What a suite (`--suite NAME`, which writes --json only) runs on: the Vulkan device options.device
// names, the shaders (options.shaderDir or the embedded ones) and the record of both. InputError
// for --csv or --plot, or a --json file that cannot be written, before anything is made.
struct SuiteSetup {
  std::unique_ptr<engine::Context> context;
  std::unique_ptr<engine::ShaderLibrary> shaders;
  BenchEnvironment environment;
  SuiteSetup();
  SuiteSetup(SuiteSetup&&) noexcept;
  ~SuiteSetup();
};
SuiteSetup openSuite(const BenchOptions& options, const std::string& suite);
// The suite's record to options.jsonPath, when given: the environment, the suite's name, --quick,
// the suite's own settings and its rows.
void writeSuiteJson(const BenchOptions& options, const BenchEnvironment& environment, const std::string& suite,
                    const nlohmann::ordered_json& rows,
                    const nlohmann::ordered_json& settings = nlohmann::ordered_json::object());

// weft, commit, date, device (null without one) and cpu: the head of every record the bench writes.
nlohmann::ordered_json environmentJson(const BenchEnvironment& env);
nlohmann::ordered_json benchJson(const BenchOptions& options, const BenchEnvironment& env,
                                 const std::vector<BenchRow>& rows);
// A header line, then one line per row with the environment and the settings in every line, so
// that the files of several runs concatenate (less their header lines) into one table.
std::string benchCsv(const BenchOptions& options, const BenchEnvironment& env, const std::vector<BenchRow>& rows);

// Writes `text` to path.tmp and renames it into place; InputError naming `what` and the path when
// it cannot.
void writeWholeFile(const std::string& path, const std::string& text, const std::string& what);

}  // namespace weft
