#include "demos/weft/bench_record.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "demos/weft/output_paths.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/shader_library.h"
#include "solver/cpu/simd/lanes.h"

#ifndef WEFT_VERSION_TEXT
#define WEFT_VERSION_TEXT "unknown"
#endif
#ifndef WEFT_GIT_COMMIT
#define WEFT_GIT_COMMIT "unknown"
#endif

namespace weft {
namespace {

using Json = nlohmann::ordered_json;

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

std::string isoUtcNow() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// A float setting as the digits it was given (0.001, not 0.0010000000474974513).
double setting(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", value);
  return std::strtod(text, nullptr);
}

Json optional(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

Json settingsJson(const BenchOptions& o) {
  return {{"grids", o.grids},
          {"integrators", o.integrators},
          {"iterations", o.iterations},
          {"tolerance", setting(o.tolerance)},
          {"maxIterations", o.maxIterations},
          {"chebyshevRho", setting(o.chebyshevRho)},
          {"relaxationRho", setting(o.relaxationRho)},
          {"acceleration", o.acceleration},
          {"preconditioner", o.preconditioner},
          {"momentum", setting(o.momentum)},
          {"substeps", o.substeps},
          {"frames", o.frames},
          {"backends", o.backends},
          {"device", o.device},
          {"shaderDir", o.shaderDir},
          {"springTable", o.springTable},
          {"jsonPath", o.jsonPath},
          {"csvPath", o.csvPath},
          {"plotPath", o.plotPath},
          {"quiet", o.quiet}};
}

Json rowJson(const BenchRow& row) {
  Json j = {{"grid", row.grid}, {"particles", row.particles}, {"backend", row.backend}};
  if (!row.notRun.empty()) {
    j["integrator"] = row.integrator;
    j["notRun"] = row.notRun;
    return j;
  }
  j["device"] = row.device;
  j["integrator"] = row.integrator;
  j["wallMsPerStep"] = row.wallMsPerStep;
  j["gpuMsPerStep"] = optional(row.gpuMsPerStep);
  j["particleStepsPerSecond"] = row.particleStepsPerSecond;
  j["copyGBps"] = row.copyGBps;
  j["medianSolveIterations"] = optional(row.medianSolveIterations);
  j["maxResidual"] = optional(row.maxResidual);
  j["stretchMean"] = optional(row.stretchMean);
  j["stretchMax"] = optional(row.stretchMax);
  j["dispatchesPerStep"] = optional(row.dispatchesPerStep);
  j["barriersPerStep"] = optional(row.barriersPerStep);
  j["boundBytesPerStep"] = optional(row.boundBytesPerStep);
  j["boundBufferBytes"] = row.boundBufferBytes ? Json(*row.boundBufferBytes) : Json(nullptr);
  Json passes = Json::array();
  for (const BenchPass& p : row.passes)
    passes.push_back({{"name", p.name}, {"msPerStep", p.msPerStep}, {"dispatchesPerStep", p.dispatchesPerStep},
                      {"bytesPerStep", p.bytesPerStep}, {"GBps", p.gbps}, {"ofCopy", p.ofCopy}});
  j["passes"] = passes;
  return j;
}

// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}
std::string number(const std::optional<double>& value) { return value ? number(*value) : ""; }

template <class T>
std::string joined(const std::vector<T>& values) {
  std::ostringstream out;
  for (size_t i = 0; i < values.size(); ++i) out << (i ? " " : "") << values[i];
  return out.str();
}

}  // namespace

BenchEnvironment benchEnvironment(const engine::Context* context) {
  BenchEnvironment env;
  env.weftVersion = WEFT_VERSION_TEXT;
  env.commit = WEFT_GIT_COMMIT;
  env.date = isoUtcNow();
  if (context) {
    const VkPhysicalDeviceProperties& p = context->properties();
    env.device = BenchDevice{context->deviceName(), context->deviceType(), p.driverVersion,
                             std::to_string(VK_API_VERSION_MAJOR(p.apiVersion)) + "." +
                                 std::to_string(VK_API_VERSION_MINOR(p.apiVersion)) + "." +
                                 std::to_string(VK_API_VERSION_PATCH(p.apiVersion))};
  }
  env.cpuModel = cpuModel();
  env.cpuThreads = std::thread::hardware_concurrency();
  env.cpuXpbdLanes = integrators::xpbdLaneWidth();
  return env;
}

Json environmentJson(const BenchEnvironment& env) {
  Json j;
  j["weft"] = env.weftVersion;
  j["commit"] = env.commit;
  j["date"] = env.date;
  if (env.device)
    j["device"] = {{"name", env.device->name}, {"type", env.device->type},
                   {"driverVersion", env.device->driverVersion}, {"apiVersion", env.device->apiVersion}};
  else
    j["device"] = nullptr;
  j["cpu"] = {{"model", env.cpuModel}, {"threads", env.cpuThreads}, {"xpbdLanes", env.cpuXpbdLanes}};
  return j;
}

Json benchJson(const BenchOptions& options, const BenchEnvironment& env, const std::vector<BenchRow>& rows) {
  Json j = environmentJson(env);
  j["settings"] = settingsJson(options);
  Json list = Json::array();
  for (const BenchRow& row : rows) list.push_back(rowJson(row));
  j["rows"] = list;
  return j;
}

std::string benchCsv(const BenchOptions& o, const BenchEnvironment& env, const std::vector<BenchRow>& rows) {
  std::ostringstream out;
  out << "weft,commit,date,cpu,cpuThreads,gpuDevice,"
         "grids,integrators,iterations,tolerance,maxIterations,chebyshevRho,relaxationRho,acceleration,momentum,"
         "preconditioner,substeps,frames,backends,deviceFilter,shaderDir,springTable,"
         "grid,particles,integrator,backend,device,notRun,wallMsPerStep,gpuMsPerStep,particleStepsPerSecond,copyGBps,"
         "medianSolveIterations,maxResidual,stretchMean,stretchMax,dispatchesPerStep,barriersPerStep,boundBytesPerStep,boundBufferBytes,"
         "passes(name:msPerStep:dispatchesPerStep:bytesPerStep:GBps:ofCopy;...)\n";
  const std::string head = csvField(env.weftVersion) + "," + csvField(env.commit) + "," + csvField(env.date) + "," +
                           csvField(env.cpuModel) + "," + std::to_string(env.cpuThreads) + "," +
                           csvField(env.device ? env.device->name : "") + "," + csvField(joined(o.grids)) + "," +
                           csvField(joined(o.integrators)) + "," + std::to_string(o.iterations) + "," +
                           number(setting(o.tolerance)) + "," + std::to_string(o.maxIterations) + "," +
                           number(setting(o.chebyshevRho)) + "," + number(setting(o.relaxationRho)) + "," + csvField(o.acceleration) +
                           "," + number(setting(o.momentum)) + "," + csvField(o.preconditioner) + "," + std::to_string(o.substeps) + "," +
                           std::to_string(o.frames) + "," + csvField(joined(o.backends)) + "," + csvField(o.device) +
                           "," + csvField(o.shaderDir) + "," + (o.springTable ? "true" : "false");
  for (const BenchRow& r : rows) {
    out << head << "," << r.grid << "," << r.particles << "," << csvField(r.integrator) << "," << csvField(r.backend)
        << "," << csvField(r.device) << "," << csvField(r.notRun) << ",";
    if (r.notRun.empty()) {
      std::string passes;
      for (const BenchPass& p : r.passes)
        passes += (passes.empty() ? "" : ";") + p.name + ":" + number(p.msPerStep) + ":" +
                  number(p.dispatchesPerStep) + ":" + number(p.bytesPerStep) + ":" + number(p.gbps) + ":" +
                  number(p.ofCopy);
      out << number(r.wallMsPerStep) << "," << number(r.gpuMsPerStep) << "," << number(r.particleStepsPerSecond)
          << "," << number(r.copyGBps) << "," << number(r.medianSolveIterations) << "," << number(r.maxResidual)
          << "," << number(r.stretchMean) << "," << number(r.stretchMax) << "," << number(r.dispatchesPerStep) << "," << number(r.barriersPerStep) << ","
          << number(r.boundBytesPerStep) << "," << (r.boundBufferBytes ? std::to_string(*r.boundBufferBytes) : "")
          << "," << csvField(passes);
    } else {
      out << ",,,,,,,,,,,,";
    }
    out << "\n";
  }
  return out.str();
}

void writeWholeFile(const std::string& path, const std::string& text, const std::string& what) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError("cannot write " + what + " '" + path + "': " + std::strerror(errno));
    out << text;
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw InputError("cannot write " + what + " '" + path + "': the write failed");
    }
  }
  std::error_code error;
  std::filesystem::rename(tmp, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw InputError("cannot write " + what + " '" + path + "': " + error.message());
  }
}

SuiteSetup::SuiteSetup() = default;
SuiteSetup::SuiteSetup(SuiteSetup&&) noexcept = default;
SuiteSetup::~SuiteSetup() = default;

SuiteSetup openSuite(const BenchOptions& options, const std::string& suite) {
  if (!options.csvPath.empty() || !options.plotPath.empty())
    throw InputError("--csv and --plot record the sweep; the " + suite + " suite writes --json only");
  if (options.springTable) throw InputError("--spring-table sets the sweep's cloths; the suites run their own");
  if (!options.jsonPath.empty()) checkOutputFile(options.jsonPath, "JSON");
  SuiteSetup setup;
  setup.context = std::make_unique<engine::Context>(engine::ContextOptions{.deviceName = options.device});
  setup.shaders = options.shaderDir.empty() ? std::make_unique<engine::ShaderLibrary>()
                                            : std::make_unique<engine::ShaderLibrary>(options.shaderDir);
  setup.environment = benchEnvironment(setup.context.get());
  return setup;
}

void writeSuiteJson(const BenchOptions& options, const BenchEnvironment& environment, const std::string& suite,
                    const nlohmann::ordered_json& rows, const nlohmann::ordered_json& settings) {
  if (options.jsonPath.empty()) return;
  nlohmann::ordered_json j = environmentJson(environment);
  j["suite"] = suite;
  j["quick"] = options.quick;
  for (const auto& [key, value] : settings.items()) j[key] = value;
  j["rows"] = rows;
  writeWholeFile(options.jsonPath, j.dump(2) + "\n", "JSON");
}

}  // namespace weft
