// `weft run` end to end: good runs write whole outputs with the right numbers; every kind of bad
// input gives one clear sentence, a non-zero exit and no half-written file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include "demos/render/palette.h"
#include "weft/version.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct Result {
  int exitCode;
  std::string output;
};

Result shell(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

Result weft(const std::string& args) { return shell(std::string(WEFT_BINARY) + " " + args); }

// For input that could block: killed after `seconds` (exit status 124) rather than hanging the suite.
Result weftWithin(int seconds, const std::string& args) {
  // -k: a run that finishes its frame after the SIGTERM (demos/weft/interrupt.h) gets a SIGKILL 10 s on.
  return shell("timeout -k 10 " + std::to_string(seconds) + " " + WEFT_BINARY + " " + args);
}

// A `weft` started in the background with its output in a file, so that a test can signal it mid-run.
class Background {
 public:
  Background(const std::vector<std::string>& args, const std::string& logPath) {
    std::vector<std::string> all = {WEFT_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
    if (posix_spawn(&pid_, argv[0], &files, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&files);
  }
  ~Background() {
    if (pid_ > 0 && !status_) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  bool started() const { return pid_ > 0; }
  void signal(int number) const { ::kill(pid_, number); }
  // The wait status once it has ended; nullopt while it runs, after `seconds` of waiting.
  std::optional<int> wait(double seconds) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!status_) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
      else if (std::chrono::steady_clock::now() > deadline) break;
      else std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return status_;
  }

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

std::string scene(const std::string& name) { return std::string(WEFT_SOURCE_DIR) + "/demos/scenes/" + name; }

fs::path tempDir() { return weft::test::scratchDir("weft_cli_"); }

fs::path writeFile(const std::string& name, const std::string& text) {
  fs::path path = tempDir() / name;
  std::ofstream(path) << text;
  return path;
}

const char* kSmallScene = R"({"cloth": {"grid": {"width": 8, "height": 6, "size": [0.5, 0.4]}},
  "pins": {"corners": 2}, "solver": {"frames": 5}})";

// --version prints the project's version (CMakeLists.txt's project(VERSION), <weft/version.h>) and
// succeeds, though every other call needs a subcommand, as a packager's smoke test expects; --help
// lists it.
TEST(Cli, VersionPrintsTheProjectsVersionAndSucceeds) {
  const Result r = weft("--version");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, std::string("weft ") + WEFT_VERSION_STRING + "\n");
  const Result help = weft("--help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_THAT(help.output, HasSubstr("--version"));
}

TEST(Cli, RunWritesStatsPngAndObjFramesWithTheRightNumbers) {
  fs::path dir = tempDir();
  fs::path stats = dir / "stats.json", png = dir / "final.png", objs = dir / "objs";
  fs::path small = writeFile("small.json", kSmallScene);
  Result r = weft("run " + small.string() + " --backend cpu --quiet --stats " + stats.string() + " --png " +
                  png.string() + " --obj-dir " + objs.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("48 particles"));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["particles"], 48);
  EXPECT_EQ(j["steps"], 5 * j["substeps"].get<int>());
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["nonFinite"], false);
  EXPECT_GT(j["medianWallMsPerStep"].get<double>(), 0.0);
  EXPECT_GE(j["finalKineticEnergy"].get<double>(), 0.0);
  // pinned at the top corners, the rest has fallen below them
  EXPECT_LT(j["positionMin"][1].get<double>(), j["positionMax"][1].get<double>());
  std::ifstream pngFile(png, std::ios::binary);
  char signature[8] = {};
  pngFile.read(signature, 8);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  int objCount = 0;
  for (const auto& entry : fs::directory_iterator(objs)) objCount += entry.path().extension() == ".obj";
  EXPECT_EQ(objCount, 5);
  // an OBJ holds every particle and every triangle of the frame
  std::ifstream obj(objs / "frame_00005.obj");
  int vertices = 0, faces = 0;
  for (std::string line; std::getline(obj, line);) {
    vertices += line.rfind("v ", 0) == 0;
    faces += line.rfind("f ", 0) == 0;
  }
  EXPECT_EQ(vertices, 48);
  EXPECT_EQ(faces, 2 * 7 * 5);
}

// A contact scene's run reports its contact: the stats JSON's nearest distance (above zero, at most the
// radius), the vertices pushed apart once the strip lands on the floor, and the pass's time; the
// summary line shows the nearest in mm. A scene without contact writes null.
TEST(Cli, RunReportsContactInTheStatsAndTheSummary) {
  fs::path dir = tempDir();
  fs::path stats = dir / "contact.json";
  Result r = weft("run " + std::string(WEFT_SOURCE_DIR) + "/demos/scenes/drop_pile.json --backend cpu --frames 30 --quiet --stats " +
                  stats.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("mm nearest"));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  ASSERT_TRUE(j["contact"].is_object()) << j.dump();
  EXPECT_GT(j["contact"]["minDistance"].get<double>(), 0.0);
  EXPECT_LE(j["contact"]["minDistance"].get<double>(), 0.013);  // the radius: half the mean edge, 1.2 cm
  EXPECT_GT(j["contact"]["contactVertices"].get<double>(), 0.0) << "the strip lands at 0.2 s";
  // Every vertex pushed had a pair within the radius; most near ones are not pushed.
  EXPECT_GT(j["contact"]["nearVertices"].get<double>(), j["contact"]["contactVertices"].get<double>());
  EXPECT_EQ(j["contact"]["crowdedVertices"].get<double>(), 0.0) << "the search's slots hold every candidate of the pile";
  EXPECT_EQ(j["contact"]["unstoredSteps"].get<double>(), 0.0) << "the CPU backend evaluates each pair once, always";
  EXPECT_GT(j["contact"]["medianMsPerStep"].get<double>(), 0.0);
  // The pass's two parts: finding the pairs and resolving them, each timed (solver.h).
  EXPECT_GT(j["contact"]["medianFindMsPerStep"].get<double>(), 0.0);
  EXPECT_GT(j["contact"]["medianResolveMsPerStep"].get<double>(), 0.0);
  EXPECT_THAT(r.output, testing::ContainsRegex("ms/step \\(find [0-9.]+, resolve [0-9.]+\\)"));
  fs::path small = writeFile("small.json", kSmallScene);
  r = weft("run " + small.string() + " --backend cpu --quiet --stats " + stats.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(nlohmann::json::parse(std::ifstream(stats))["contact"].is_null());
  EXPECT_THAT(r.output, Not(HasSubstr("nearest")));
}

// The stats' "rest": the largest move of any free particle in each of the run's last second of
// frames. A cloth falling freely under symplectic Euler (no drag, nothing pinned, its springs never
// stretched) moves by g h^2 (N(N+1) - M(M+1)) / 2 in the frame from step M to step N, the same for
// every particle: 90 frames at 60 fps keep frames 31 to 90, whose median is the mean of frames 60
// and 61, whose 90th percentile (nearest rank) is frame 84 and whose largest is frame 90. Pinned
// particles are left out: with all but particle 5 pinned and particle 11 (no spring joins it to 5)
// carried by a handle at 2 m/s (33 mm a frame), particle 5, sagging from its springs, is reported.
TEST(Cli, StatsReportHowFarTheClothStillMovesInItsLastSecond) {
  fs::path dir = tempDir();
  fs::path stats = dir / "rest.json";
  fs::path falling = writeFile("falling.json", R"({"cloth": {"grid": {"width": 4, "height": 3, "size": [0.3, 0.2]}},
    "environment": {"gravity": [0, -9.81, 0], "airDrag": 0.0},
    "solver": {"integrator": "symplectic-euler", "dt": 0.0166666667, "substeps": 4, "frames": 90}})");
  Result r = weft("run " + falling.string() + " --backend cpu --quiet --stats " + stats.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  ASSERT_TRUE(j["rest"].is_object()) << j.dump();
  const double h = 0.0166666667 / 4, g = 9.81;
  auto frameMove = [&](int frame) {
    const double n = 4.0 * frame, m = n - 4.0;
    return 0.5 * g * h * h * (n * (n + 1) - m * (m + 1));
  };
  EXPECT_EQ(j["rest"]["frames"], 60);
  EXPECT_NEAR(j["rest"]["medianMaxMove"].get<double>(), 0.5 * (frameMove(60) + frameMove(61)), 1e-4 * frameMove(60));
  EXPECT_NEAR(j["rest"]["p90MaxMove"].get<double>(), frameMove(84), 1e-4 * frameMove(84));
  EXPECT_NEAR(j["rest"]["maxMove"].get<double>(), frameMove(90), 1e-4 * frameMove(90));
  // The summary line gives the median in mm a frame, to four digits.
  const size_t at = r.output.find("| rest ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const double shown = std::stod(r.output.substr(at + 7));
  EXPECT_NEAR(shown, 1e3 * j["rest"]["medianMaxMove"].get<double>(), 1e-3 * shown) << r.output;
  EXPECT_EQ(r.output.compare(r.output.find(' ', at + 7), 10, " mm/frame\n"), 0) << r.output;

  fs::path held = writeFile("held.json", R"({"cloth": {"grid": {"width": 4, "height": 3, "size": [0.3, 0.2]}},
    "pins": {"indices": [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]},
    "handles": [{"indices": [11], "path": {"keys": [{"time": 0}, {"time": 1, "offset": [0, 0, 2]}]}}],
    "solver": {"frames": 30}})");
  r = weft("run " + held.string() + " --backend cpu --quiet --stats " + stats.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  j = nlohmann::json::parse(std::ifstream(stats));
  ASSERT_TRUE(j["rest"].is_object()) << j.dump();
  EXPECT_EQ(j["rest"]["frames"], 30) << "a run shorter than a second keeps every frame";
  EXPECT_EQ(j["rest"]["maxMoveParticle"], 5);
  EXPECT_GT(j["rest"]["maxMove"].get<double>(), 0.0) << "particle 5 sags from its springs";
  EXPECT_LT(j["rest"]["maxMove"].get<double>(), 0.03) << "the handle's particle is not counted";
}

// The main job's scene (scripts/run.sh, hanging.json) holds its cloth: over its whole run, the
// worst frame's longest spring stretches at most 10 %. (The Verlet 8 x 10 it had before reached
// 47.6 %.) Both backends step it to the same bits, so the CPU backend's run stands for both.
TEST(Cli, TheMainJobsClothHoldsWithinTenPercentAtItsWorstFrame) {
  const fs::path stats = tempDir() / "main_job.json";
  Result r = weft("run " + scene("hanging.json") + " --backend cpu --quiet --stats " + stats.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["frames"], 240) << "the scene's own frame count";
  const nlohmann::json worst = j["worstStretch"];
  ASSERT_TRUE(worst.is_object()) << j.dump();
  EXPECT_LE(worst["max"].get<double>(), 0.10) << "the longest spring at the worst frame, as a fraction";
  EXPECT_GT(worst["max"].get<double>(), 0.0);
}

// The stats give the worst frame's stretch beside the last frame's: the cloth of hanging_xpbd.json
// at 16², falling from the horizontal, stretches most as it swings taut (frame 28) and less by its
// 40th. The same run cut short after each of its frames ends with that frame's stretch
// (finalStretch), so the worst of those forty runs, and the frame it came in, must be what the
// whole run reports.
TEST(Cli, RunReportsTheWorstFramesStretchAndTheFrameItCameIn) {
  const int frames = 40;
  const fs::path stats = tempDir() / "worst_stretch.json";
  auto run = [&](int n) {
    Result r = weft("run " + scene("hanging_xpbd.json") + " --grid 16 --backend cpu --quiet --frames " + std::to_string(n) +
                    " --stats " + stats.string());
    EXPECT_EQ(r.exitCode, 0) << r.output;
    return std::make_pair(r.output, nlohmann::json::parse(std::ifstream(stats)));
  };
  double mean = -1, max = -1;
  int meanFrame = 0, maxFrame = 0;
  for (int n = 1; n <= frames; ++n) {
    const nlohmann::json last = run(n).second["finalStretch"];
    ASSERT_TRUE(last.is_object());
    if (last["mean"].get<double>() > mean) mean = last["mean"].get<double>(), meanFrame = n;
    if (last["max"].get<double>() > max) max = last["max"].get<double>(), maxFrame = n;
  }
  const auto [output, j] = run(frames);
  const nlohmann::json worst = j["worstStretch"];
  ASSERT_TRUE(worst.is_object()) << j.dump();
  EXPECT_EQ(worst["mean"].get<double>(), mean);
  EXPECT_EQ(worst["meanFrame"], meanFrame);
  EXPECT_EQ(worst["max"].get<double>(), max);
  EXPECT_EQ(worst["maxFrame"], maxFrame);
  EXPECT_LT(maxFrame, frames) << "the cloth stretches most before its last frame";
  EXPECT_GT(max, 1.2 * j["finalStretch"]["max"].get<double>()) << "and less by the end";
  char shown[96];
  std::snprintf(shown, sizeof shown, "(worst %.2f %% at frame %d, %.1f %% at frame %d)", 100 * mean, meanFrame, 100 * max, maxFrame);
  EXPECT_THAT(output, HasSubstr(shown));
}

// An implicit run's stats summarise its solves: the count, median, histogram and the two ends of
// the run; --stats-steps all adds every step, as the stats listed them before.
TEST(Cli, StatsSummariseTheSolvesAndListEveryStepOnlyWhenAsked) {
  fs::path implicit = writeFile("implicit.json", R"({"cloth": {"grid": {"width": 8, "height": 6, "size": [0.5, 0.4]}},
    "pins": {"corners": 2}, "solver": {"integrator": "implicit-cg", "frames": 20, "substeps": 8}})");
  const fs::path stats = tempDir() / "implicit_stats.json", all = tempDir() / "implicit_all.json";
  Result r = weft("run " + implicit.string() + " --backend cpu --quiet --stats " + stats.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  nlohmann::json solve = nlohmann::json::parse(std::ifstream(stats))["solve"];
  EXPECT_EQ(solve["solves"], 160);
  EXPECT_FALSE(solve.contains("steps"));
  ASSERT_EQ(solve["firstSteps"].size(), 50u);
  ASSERT_EQ(solve["lastSteps"].size(), 50u);
  EXPECT_EQ(solve["firstSteps"][0]["step"], 1);
  EXPECT_EQ(solve["lastSteps"][0]["step"], 111);
  EXPECT_EQ(solve["lastSteps"][49]["step"], 160);
  int histogramTotal = 0, mostIterations = 0;
  for (const auto& bar : solve["iterationHistogram"]) {
    histogramTotal += bar["solves"].get<int>();
    mostIterations = std::max(mostIterations, bar["iterations"].get<int>());
  }
  EXPECT_EQ(histogramTotal, 160);
  EXPECT_EQ(solve["maxIterations"], mostIterations);
  EXPECT_GT(solve["medianIterations"].get<double>(), 0.0);

  Result everyStep = weft("run " + implicit.string() + " --backend cpu --quiet --stats-steps all --stats " + all.string());
  ASSERT_EQ(everyStep.exitCode, 0) << everyStep.output;
  nlohmann::json allSolve = nlohmann::json::parse(std::ifstream(all))["solve"];
  ASSERT_EQ(allSolve["steps"].size(), 160u);
  // The CPU backend is deterministic: the same run's step 160, whichever list holds it.
  EXPECT_EQ(allSolve["steps"][159]["iterations"], solve["lastSteps"][49]["iterations"]);
  EXPECT_EQ(allSolve["steps"][159]["residual"], solve["lastSteps"][49]["residual"]);

  Result bad = weft("run " + implicit.string() + " --backend cpu --stats-steps some");
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_EQ(bad.output, "weft: --stats-steps must be 'ends' or 'all' (got 'some')\n");
}

TEST(Cli, GpuRunUnderValidationIsClean) {
  fs::path small = writeFile("small_gpu.json", kSmallScene);
  fs::path stats = tempDir() / "gpu_stats.json";
  Result r = weft("run " + small.string() + " --backend gpu --validate --quiet --stats " + stats.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("Vulkan device"));
  EXPECT_THAT(r.output, Not(HasSubstr("validation")));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_GT(j["medianGpuMsPerStep"].get<double>(), 0.0);
  EXPECT_TRUE(j["medianGpuMsPerStepByPass"].contains("verlet_relax"));
}

TEST(Cli, RecordThenReplay) {
  fs::path small = writeFile("record.json", kSmallScene);
  fs::path recording = tempDir() / "run.weftrec", png = tempDir() / "replay.png";
  Result run = weft("run " + small.string() + " --backend cpu --quiet --record " + recording.string());
  ASSERT_EQ(run.exitCode, 0) << run.output;
  Result replay = weft("replay " + recording.string() + " --frame 3 --png " + png.string());
  ASSERT_EQ(replay.exitCode, 0) << replay.output;
  EXPECT_THAT(replay.output, HasSubstr("48 particles"));
  EXPECT_THAT(replay.output, HasSubstr("6 frames"));  // the initial state and 5 simulated frames
  EXPECT_TRUE(fs::exists(png));
  Result past = weft("replay " + recording.string() + " --frame 6");
  EXPECT_EQ(past.exitCode, 1);
  EXPECT_THAT(past.output, HasSubstr("past the recording's last frame (5)"));
}

// RGBA8 pixels of a PNG (empty when it cannot be read).
std::vector<unsigned char> pngPixels(const fs::path& png) {
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
  if (!pixels) return {};
  std::vector<unsigned char> out(pixels, pixels + size_t(w) * h * 4);
  stbi_image_free(pixels);
  return out;
}

// The fraction of pixels whose colour differs by more than a few levels in some channel.
double differingPixels(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  if (a.size() != b.size() || a.empty()) return 1.0;
  size_t differ = 0;
  for (size_t p = 0; p < a.size(); p += 4)
    for (size_t c = 0; c < 3; ++c)
      if (std::abs(int(a[p + c]) - int(b[p + c])) > 8) {
        ++differ;
        break;
      }
  return double(differ) / double(a.size() / 4);
}

// `weft run --png --draw contacts` marks the particles contact touched in the last frame: the
// pile's layers, in the overlay's colours, where the shaded picture of the same frame has none. The
// mode is refused in one sentence where it cannot mean anything.
TEST(Cli, RunDrawsTheLastFramesContactsIntoThePngWhenAsked) {
  const std::string pile = std::string(WEFT_SOURCE_DIR) + "/demos/scenes/drop_pile.json";
  const fs::path marked = tempDir() / "pile_contacts.png", shaded = tempDir() / "pile_shaded.png";
  Result r = weft("run " + pile + " --backend cpu --frames 40 --quiet --draw contacts --png " + marked.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  r = weft("run " + pile + " --backend cpu --frames 40 --quiet --png " + shaded.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  auto count = [](const std::vector<unsigned char>& pixels, glm::vec3 colour) {
    const glm::ivec3 c = glm::ivec3(glm::round(colour * 255.f));
    int n = 0;
    for (size_t p = 0; p + 3 < pixels.size(); p += 4)
      n += std::abs(pixels[p] - c.r) <= 2 && std::abs(pixels[p + 1] - c.g) <= 2 && std::abs(pixels[p + 2] - c.b) <= 2;
    return n;
  };
  const std::vector<unsigned char> withMarks = pngPixels(marked), without = pngPixels(shaded);
  EXPECT_GT(count(withMarks, weft::palette::kContactNear), 200);
  EXPECT_GT(count(withMarks, weft::palette::kContactPushed), 50);
  EXPECT_EQ(count(without, weft::palette::kContactNear), 0);
  EXPECT_EQ(count(without, weft::palette::kContactPushed), 0);

  const fs::path small = writeFile("small_draw.json", kSmallScene);
  Result noContact = weft("run " + small.string() + " --backend cpu --quiet --draw contacts --png " + shaded.string());
  EXPECT_EQ(noContact.exitCode, 1);
  EXPECT_EQ(noContact.output, "weft: --draw contacts marks what contact did, and this scene has no contact section\n");
  Result noPng = weft("run " + small.string() + " --backend cpu --quiet --draw wireframe");
  EXPECT_EQ(noPng.exitCode, 1);
  EXPECT_EQ(noPng.output, "weft: --draw says how the PNG is drawn: give --png too\n");
  Result unknown = weft("run " + small.string() + " --backend cpu --quiet --draw sketch --png " + shaded.string());
  EXPECT_EQ(unknown.exitCode, 1);
  EXPECT_EQ(unknown.output, "weft: unknown --draw mode 'sketch' (known: shaded, wireframe, springs, contacts)\n");
}

// A recorded frame replayed with its scene is the picture `weft run --png` drew of it: the scene's
// camera, and a sphere gliding 0.6 m on its path drawn where the path had it at that frame, not
// where it started (which would move a large patch of the picture).
TEST(Cli, ReplayWithItsSceneDrawsTheFrameAsTheRunDid) {
  fs::path scene = writeFile("replay_scene.json", R"({
    "cloth": {"grid": {"width": 6, "height": 6, "size": [0.3, 0.3], "origin": [-0.15, 0.8, -0.15], "plane": "horizontal"}},
    "colliders": [{"type": "plane"},
                  {"type": "sphere", "center": [-0.3, 0.3, 0], "radius": 0.2,
                   "path": {"keys": [{"time": 0, "offset": [0, 0, 0]}, {"time": 0.5, "offset": [0.6, 0, 0]}]}}],
    "solver": {"integrator": "xpbd", "frames": 30},
    "camera": {"eye": [0, 0.6, 2.0], "target": [0, 0.3, 0], "fovY": 50}})");
  fs::path recording = tempDir() / "glide.weftrec", ran = tempDir() / "glide_run.png",
           replayed = tempDir() / "glide_replay.png", first = tempDir() / "glide_first.png";
  Result run = weft("run " + scene.string() + " --backend cpu --quiet --record " + recording.string() + " --png " + ran.string());
  ASSERT_EQ(run.exitCode, 0) << run.output;
  Result replay = weft("replay " + recording.string() + " --scene " + scene.string() + " --png " + replayed.string());
  ASSERT_EQ(replay.exitCode, 0) << replay.output;
  Result start = weft("replay " + recording.string() + " --frame 0 --scene " + scene.string() + " --png " + first.string());
  ASSERT_EQ(start.exitCode, 0) << start.output;
  const std::vector<unsigned char> runPixels = pngPixels(ran);
  EXPECT_LT(differingPixels(runPixels, pngPixels(replayed)), 0.001);
  EXPECT_GT(differingPixels(runPixels, pngPixels(first)), 0.02) << "the sphere should have moved across the picture";

  Result missing = weft("replay " + recording.string() + " --scene " + (tempDir() / "none.json").string());
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_THAT(missing.output, HasSubstr("none.json"));
}

// The particle and triangle counts `weft replay` prints for its frame ("2304 particles, 4418 triangles").
std::pair<long, long> replayedCounts(const std::string& output) {
  std::smatch m;
  if (!std::regex_search(output, m, std::regex(R"(\| (\d+) particles, (\d+) triangles \|)"))) return {-1, -1};
  return {std::stol(m[1]), std::stol(m[2])};
}

// A tearing cloth is recorded in format version 2, which carries each tear's particles and triangles:
// replay reads the last frame with its own counts and renders it with its own triangles.
TEST(Cli, RecordATearingClothThenReplayIt) {
  const fs::path recording = tempDir() / "tear.weftrec", png = tempDir() / "tear_last.png";
  fs::remove(png);
  Result run = weft("run " + scene("tear.json") + " --backend cpu --quiet --frames 40 --record " + recording.string());
  ASSERT_EQ(run.exitCode, 0) << run.output;
  uint32_t header[3] = {};  // version, particles at frame 0, frames
  std::ifstream(recording, std::ios::binary).seekg(8).read(reinterpret_cast<char*>(header), sizeof header);
  EXPECT_EQ(header[0], 2u);
  EXPECT_EQ(header[1], 48u * 48u);
  EXPECT_EQ(header[2], 41u);  // the initial state and 40 simulated frames

  Result first = weft("replay " + recording.string() + " --frame 0");
  ASSERT_EQ(first.exitCode, 0) << first.output;
  EXPECT_EQ(replayedCounts(first.output), std::make_pair(2304L, 2L * 47 * 47));
  Result last = weft("replay " + recording.string() + " --png " + png.string());
  ASSERT_EQ(last.exitCode, 0) << last.output;
  EXPECT_THAT(last.output, HasSubstr("| frame 40 | "));
  EXPECT_THAT(last.output, HasSubstr("from 2304 particles and 4418 triangles at frame 0"));
  const auto [particles, triangles] = replayedCounts(last.output);
  EXPECT_GT(particles, 2304) << last.output;  // the tears split particles
  EXPECT_GT(triangles, 0);
  EXPECT_GT(fs::file_size(png), 1000u);

  // The viewer sizes its buffers once: it refuses such a recording at open, display or not.
  Result view = shell("env -u DISPLAY " + std::string(WEFT_BINARY) + " view --replay " + recording.string());
  EXPECT_EQ(view.exitCode, 1);
  EXPECT_THAT(view.output, HasSubstr("recording '" + recording.string() +
                                     "': the viewer cannot replay a recording whose topology changes yet"));
}

// A recording (docs/recording-format.md) of `frames` frames of one particle at the origin. Sparse:
// only the header and the last frame are written, so 2^31 frames cost no disk.
fs::path sparseRecording(const std::string& name, uint32_t frames) {
  const fs::path path = tempDir() / name;
  char header[64] = {};
  std::memcpy(header, "WEFTREC", 8);
  const uint32_t fields[6] = {1, 1, frames, 0, 0, 1};  // version, particles, frames, triangles, (dt), substeps
  std::memcpy(header + 8, fields, sizeof fields);
  const float dt = 1.f / 60.f;
  std::memcpy(header + 24, &dt, sizeof dt);
  uint32_t checksum = 2166136261u;  // FNV-1a over the frame's 12 zero bytes
  for (int i = 0; i < 12; ++i) checksum *= 16777619u;
  const uint64_t size = 64 + uint64_t{frames} * 16;
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(header, sizeof header);
  fs::resize_file(path, size);
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(static_cast<std::streamoff>(size - sizeof checksum));
  file.write(reinterpret_cast<const char*>(&checksum), sizeof checksum);
  return path;
}

TEST(Cli, ReplayCountsFramesPast2To31) {
  const fs::path path = sparseRecording("long.weftrec", 1u << 31);
  Result last = weft("replay " + path.string());
  EXPECT_EQ(last.exitCode, 0) << last.output;
  EXPECT_THAT(last.output, HasSubstr("2147483648 frames of"));
  EXPECT_THAT(last.output, HasSubstr("| frame 2147483647\n"));
  Result chosen = weft("replay " + path.string() + " --frame 2147483647");
  EXPECT_EQ(chosen.exitCode, 0) << chosen.output;
  Result past = weft("replay " + path.string() + " --frame 2147483648");
  EXPECT_EQ(past.exitCode, 1);
  EXPECT_THAT(past.output, HasSubstr("--frame 2147483648 is past the recording's last frame (2147483647)"));
  fs::remove(path);
}

TEST(Cli, GridOverridesTheSceneGridSize) {
  fs::path stats = tempDir() / "grid_stats.json";
  Result r = weft("run " + scene("large_grid.json") + " --backend cpu --quiet --frames 2 --grid 20 --stats " +
                  stats.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["particles"], 400);
  EXPECT_EQ(j["gridWidth"], 20);
  EXPECT_EQ(j["gridHeight"], 20);
  // 20 x 20: 2 * 20 * 19 structural, 2 * 19^2 shear, 2 * 20 * 18 bend springs
  EXPECT_EQ(j["springs"], 760 + 722 + 720);
  // The same 2.4 m sheet (x from -1.2 to 1.2 m), free-falling from y = 1.9 m for 2 frames: the springs
  // stay at rest, so it drops as one body by g t^2 / 2 (Verlet's start-up adds 0.3 mm).
  const double t = 2.0 / 60.0;
  EXPECT_NEAR(j["positionMin"][0].get<double>(), -1.2, 1e-3);
  EXPECT_NEAR(j["positionMax"][0].get<double>(), 1.2, 1e-3);
  EXPECT_NEAR(j["positionMax"][1].get<double>(), 1.9 - 0.5 * 9.81 * t * t, 1e-3);

  Result mesh = weft("run " + scene("mesh_flag.json") + " --backend cpu --grid 20");
  EXPECT_EQ(mesh.exitCode, 1);
  EXPECT_THAT(mesh.output, HasSubstr("--grid: cannot change the grid size of scene 'mesh_flag': its cloth is a mesh"));
  for (const char* n : {"1", "5000", "-4"}) {
    Result bad = weft("run " + scene("hanging.json") + " --backend cpu --grid " + n);
    EXPECT_EQ(bad.exitCode, 1) << n;
    EXPECT_THAT(bad.output, HasSubstr("--grid")) << n;
  }
}

TEST(Cli, MissingSceneFile) {
  Result r = weft("run /nonexistent/scene.json");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("cannot open scene file"));
}

TEST(Cli, MalformedScene) {
  Result r = weft("run " + writeFile("bad.json", "{\"cloth\": {\"grid\": ").string());
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("malformed JSON"));
}

TEST(Cli, FifosAndDevicesAreRefusedAtOnce) {
  const fs::path fifo = tempDir() / "input.fifo";
  fs::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const fs::path meshScene = writeFile("fifo_mesh.json", R"({"cloth": {"mesh": {"path": "input.fifo"}}})");
  const std::vector<std::string> commands = {"run " + fifo.string(), "run /dev/zero",
                                             "run " + meshScene.string() + " --backend cpu", "replay " + fifo.string(),
                                             "replay /dev/zero"};
  for (const std::string& args : commands) {
    Result r = weftWithin(20, args);
    EXPECT_EQ(r.exitCode, 1) << args << ": " << r.output;
    EXPECT_THAT(r.output, HasSubstr("': it is not a regular file (a device, FIFO or socket)\n")) << args;
  }
  fs::remove(fifo);
}

TEST(Cli, ImpossibleValuesInTheScene) {
  Result zeroGrid = weft("run " + writeFile("zero.json", R"({"cloth": {"grid": {"width": 0, "height": 4}}})").string());
  EXPECT_EQ(zeroGrid.exitCode, 1);
  EXPECT_THAT(zeroGrid.output, HasSubstr("width"));
  Result negativeMass =
      weft("run " + writeFile("mass.json", R"({"cloth": {"grid": {"width": 4, "height": 4}, "totalMass": -1}})").string());
  EXPECT_EQ(negativeMass.exitCode, 1);
  EXPECT_THAT(negativeMass.output, HasSubstr("totalMass"));
}

TEST(Cli, MissingMeshFile) {
  Result r = weft("run " + writeFile("mesh.json", R"({"cloth": {"mesh": {"path": "no_such.obj"}}})").string() +
                  " --backend cpu");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("no_such.obj"));
}

TEST(Cli, UnknownIntegratorBackendAndDevice) {
  Result integrator = weft("run " + scene("hanging.json") + " --integrator leapfrog");
  EXPECT_EQ(integrator.exitCode, 1);
  EXPECT_THAT(integrator.output, HasSubstr("unknown integrator 'leapfrog'"));
  Result backend = weft("run " + scene("hanging.json") + " --backend tpu");
  EXPECT_EQ(backend.exitCode, 1);
  EXPECT_THAT(backend.output, HasSubstr("unknown backend 'tpu'"));
  Result device = weft("run " + scene("hanging.json") + " --device no-such-gpu --frames 1");
  EXPECT_EQ(device.exitCode, 1);
  EXPECT_THAT(device.output, HasSubstr("no Vulkan device matches 'no-such-gpu'"));
}

TEST(Cli, ImpossibleFlags) {
  for (const char* flag : {"--frames 0", "--dt -0.1", "--substeps 0", "--iterations -3"}) {
    Result r = weft("run " + scene("hanging.json") + " --backend cpu " + flag);
    EXPECT_EQ(r.exitCode, 1) << flag;
    EXPECT_THAT(r.output, HasSubstr("must")) << flag;
  }
}

// A flag the parser cannot read is bad input like any other: status 1 and a sentence naming it,
// not the parser's own status numbers; --help still succeeds.
TEST(Cli, UnparsableFlagsAreBadInputWithStatusOne) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run " + scene("hanging.json") + " --frames abc", "--frames"},
      {"run " + scene("hanging.json") + " --no-such-flag", "--no-such-flag"},
      {"run", "scene is required"},
      {"bench --grids", "--grids"},
  };
  for (const auto& [args, named] : cases) {
    Result r = weft(args);
    EXPECT_EQ(r.exitCode, 1) << args << ": " << r.output;
    EXPECT_THAT(r.output, HasSubstr(named)) << args;
  }
  Result help = weft("run --help");
  EXPECT_EQ(help.exitCode, 0) << help.output;
  EXPECT_THAT(help.output, HasSubstr("--substeps"));
}

// The scene reader's bounds hold for the flags too, each refused in one sentence that names it.
TEST(Cli, LoopCountFlagsOverTheirBoundsAreRefused) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--substeps 80000", "--substeps must be from 1 to 10000 (got 80000)"},
      {"--iterations 10001", "--iterations must be from 0 to 10000 (got 10001)"},
      {"--max-iterations 10001", "--max-iterations must be from 1 to 10000 (got 10001)"},
      {"--frames 1000001", "--frames must be from 1 to 1000000 (got 1000001)"},
  };
  for (const auto& [flag, message] : cases) {
    Result r = weftWithin(20, "run " + scene("hanging.json") + " --backend cpu --quiet " + flag);
    EXPECT_EQ(r.exitCode, 1) << flag << ": " << r.output;
    EXPECT_EQ(r.output, "weft: " + message + "\n") << flag;
  }
}

TEST(Cli, OutputIntoAMissingFolderFailsBeforeRunningAndLeavesNothing) {
  Result r = weft("run " + scene("hanging.json") + " --backend cpu --png /nonexistent/dir/out.png");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_THAT(r.output, HasSubstr("folder does not exist"));
  EXPECT_FALSE(fs::exists("/nonexistent/dir/out.png"));
}

// Every output is tried before the first frame: an unwritable place gets one line and exit 1 at once,
// not after a run of a million frames (the scene's), and the run prints nothing else.
TEST(Cli, UnwritableOutputsAreRefusedBeforeTheRun) {
  if (!fs::is_directory("/sys/kernel")) GTEST_SKIP() << "no /sys: no folder that even root cannot write";
  const fs::path long_ = writeFile("long.json", R"({"cloth": {"grid": {"width": 32, "height": 32}},
    "solver": {"frames": 1000000}})");
  const fs::path folder = tempDir() / "a_folder";
  fs::create_directories(folder);
  // /sys refuses new files even to root (EACCES; EROFS where it is mounted read-only).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--png /sys/kernel/weft.png", "cannot write PNG '/sys/kernel/weft.png': "},
      {"--stats /sys/kernel/weft.json", "cannot write stats '/sys/kernel/weft.json': "},
      {"--record /sys/kernel/weft.weftrec", "cannot write recording '/sys/kernel/weft.weftrec': "},
      {"--obj-dir /sys/kernel", "cannot write OBJ frames into '/sys/kernel': "},
      {"--stats " + folder.string(), "cannot write stats '" + folder.string() + "': it is a folder"},
      {"--record " + folder.string(), "cannot write recording '" + folder.string() + "': it is a folder"},
  };
  for (const auto& [flag, message] : cases) {
    Result r = weftWithin(20, "run " + long_.string() + " --backend cpu --quiet " + flag);
    EXPECT_EQ(r.exitCode, 1) << flag << ": " << r.output;
    EXPECT_THAT(r.output, ::testing::StartsWith("weft: " + message)) << flag;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << flag << ": " << r.output;
  }
  EXPECT_FALSE(fs::exists(folder.string() + ".tmp"));
}

// An explosion that stays finite for a while (its kinetic energy passes what gravity, the start
// and the wind can supply: solver/model/energy_bound.h) stops the run within a few steps of its start.
TEST(Cli, AFiniteExplosionStopsTheRunAtItsStepAndNamesTheIntegrator) {
  // Stiff springs and one explicit Euler step per frame: omega dt >> 2, the amplitude grows
  // geometrically and would overflow only after some dozens of steps.
  fs::path stiff = writeFile("stiff.json", R"({"cloth": {"grid": {"width": 10, "height": 10}, "totalMass": 0.01},
    "material": {"structuralStiffness": 100000, "damping": 0},
    "pins": {"corners": 2}, "solver": {"integrator": "explicit-euler", "substeps": 1, "frames": 2000}})");
  fs::path stats = tempDir() / "blowup.json";
  Result r = weft("run " + stiff.string() + " --backend cpu --quiet --stats " + stats.string());
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("exploded at step"));
  EXPECT_THAT(r.output, HasSubstr("explicit-euler"));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["nonFinite"], false);
  // Caught while the state is still finite: within the first 10 of 2000 steps.
  EXPECT_GT(j["explosionStep"].get<int>(), 0);
  EXPECT_LE(j["explosionStep"].get<int>(), 10);
}

// --on-explosion halve-dt: a frame that explodes is rolled back and taken again at half the step,
// until it holds. Symplectic Euler is stable for omega h < 2: omega = sqrt(4 k / m) = 6.3e4/s here,
// so 1/60 s frames need more than 526 steps; from 1 that is 10 halvings, to 1024.
TEST(Cli, HalveDtOnExplosionRetriesTheFrameUntilTheStepIsStable) {
  fs::path stiff = writeFile("stiff_halve.json", R"({"cloth": {"grid": {"width": 10, "height": 10}, "totalMass": 0.01},
    "material": {"structuralStiffness": 100000, "damping": 0},
    "pins": {"corners": 2}, "solver": {"integrator": "symplectic-euler", "substeps": 1, "frames": 20}})");
  fs::path stats = tempDir() / "halved.json";
  Result r = weft("run " + stiff.string() + " --backend cpu --quiet --on-explosion halve-dt --stats " + stats.string());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["nonFinite"], false);
  EXPECT_TRUE(j["explosionStep"].is_null());
  EXPECT_EQ(j["halvings"].get<int>(), 10);
  EXPECT_EQ(j["substeps"].get<int>(), 1024);
  const double omega = std::sqrt(4 * 100000.0 / (0.01 / 100));
  EXPECT_LT(omega * j["dt"].get<double>(), 2.0);
  EXPECT_EQ(j["frames"].get<int>(), 20);
  // Without it the same run stops at its first frame.
  Result stop = weft("run " + stiff.string() + " --backend cpu --quiet");
  EXPECT_EQ(stop.exitCode, 3) << stop.output;
  Result typo = weft("run " + stiff.string() + " --backend cpu --quiet --on-explosion halve");
  EXPECT_EQ(typo.exitCode, 1) << typo.output;
  EXPECT_THAT(typo.output, HasSubstr("--on-explosion must be 'stop' or 'halve-dt'"));
}

// An explicit integrator past its stable step on the cloth's springs (solver/model/stability.h) is told
// so before the run, with the substeps that stay within it; the explosion's sentence repeats them,
// and a run at those substeps holds. hanging_verlet.json (hanging.json's cloth without tethers) under
// symplectic-euler: 8 substeps a frame, where about 560 hold (docs/integrators.md, "Stable steps").
TEST(Cli, RunWarnsOfAStepPastTheExplicitLimitAndTheSubstepsItGivesHold) {
  const std::string cloth = std::string(WEFT_SOURCE_DIR) + "/tests/scenes/hanging_verlet.json";
  Result r = weft("run " + cloth + " --backend cpu --quiet --integrator symplectic-euler --frames 2");
  EXPECT_EQ(r.exitCode, 3) << r.output;
  const std::string warning = "weft: warning: symplectic-euler holds this cloth's springs stable only at steps up to ";
  ASSERT_THAT(r.output, HasSubstr(warning));
  const size_t at = r.output.find("--substeps ", r.output.find(warning));
  ASSERT_NE(at, std::string::npos) << r.output;
  const int substeps = std::stoi(r.output.substr(at + 11));
  EXPECT_GT(substeps, 560);   // a sufficient step: no longer than the longest that holds
  EXPECT_LT(substeps, 800);   // and not far below it
  EXPECT_THAT(r.output, HasSubstr("exploded at step"));
  EXPECT_THAT(r.output, HasSubstr("; --substeps " + std::to_string(substeps) + " keeps each step within"));
  fs::path stats = tempDir() / "stable_step.json";
  Result held = weft("run " + cloth + " --backend cpu --quiet --integrator symplectic-euler --frames 20" +
                     " --substeps " + std::to_string(substeps) + " --stats " + stats.string());
  EXPECT_EQ(held.exitCode, 0) << held.output;
  EXPECT_THAT(held.output, ::testing::Not(HasSubstr("warning")));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["nonFinite"], false);
  EXPECT_TRUE(j["explosionStep"].is_null());
  EXPECT_LE(j["dt"].get<double>(), j["stableStep"].get<double>());
  // An implicit integrator has no such limit: no warning, and no stable step in the stats.
  Result implicit = weft("run " + scene("hanging.json") + " --backend cpu --quiet --integrator implicit-cg --frames 1" +
                         " --stats " + stats.string());
  EXPECT_EQ(implicit.exitCode, 0) << implicit.output;
  EXPECT_THAT(implicit.output, ::testing::Not(HasSubstr("warning")));
  EXPECT_TRUE(nlohmann::json::parse(std::ifstream(stats))["stableStep"].is_null());
}

// --preconditioner two-level: the CPU backend's summary and stats name it, the GPU backend refuses it
// with the way out (status 1), and an unknown name lists the known ones.
TEST(Cli, RunTakesThePreconditionerAndTheGpuBackendRefusesTwoLevel) {
  fs::path stats = tempDir() / "two_level.json";
  Result cpu = weft("run " + scene("hanging.json") + " --backend cpu --quiet --integrator implicit-cg --frames 2" +
                    " --preconditioner two-level --stats " + stats.string());
  EXPECT_EQ(cpu.exitCode, 0) << cpu.output;
  EXPECT_THAT(cpu.output, HasSubstr("cpu implicit-cg (two-level)"));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["preconditioner"], "two-level");
  EXPECT_EQ(j["solve"]["unconvergedSteps"], 0);
  Result verlet = weft("run " + scene("hanging.json") + " --backend cpu --quiet --frames 1 --stats " + stats.string());
  EXPECT_TRUE(nlohmann::json::parse(std::ifstream(stats))["preconditioner"].is_null()) << "verlet solves with no CG";
  Result gpu = weft("run " + scene("hanging.json") + " --quiet --integrator implicit-cg --frames 1 --preconditioner two-level");
  EXPECT_EQ(gpu.exitCode, 1) << gpu.output;
  EXPECT_THAT(gpu.output, HasSubstr("the two-level preconditioner runs on the CPU backend only"));
  Result unknown = weft("run " + scene("hanging.json") + " --backend cpu --quiet --preconditioner ilu --frames 1");
  EXPECT_EQ(unknown.exitCode, 1) << unknown.output;
  EXPECT_THAT(unknown.output, HasSubstr("--preconditioner: unknown preconditioner 'ilu' (known: block-jacobi, two-level)"));
}

// A state that turns non-finite stops the run at that step. Aerodynamic lift in a wind has no
// energy bound (flutter draws on the wind), so only the non-finite check can stop this one.
TEST(Cli, ANonFiniteStateStopsTheRunAtItsStepAndNamesTheIntegrator) {
  fs::path stats = tempDir() / "nonfinite.json";
  Result r = weft("run " + scene("flag_wind.json") + " --backend cpu --quiet --integrator explicit-euler --stats " +
                  stats.string());
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("non-finite at step"));
  EXPECT_THAT(r.output, HasSubstr("explicit-euler"));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["nonFinite"], true);
  EXPECT_GT(j["nonFiniteStep"].get<int>(), 0);
  EXPECT_TRUE(j["explosionStep"].is_null());
}

// A cloth the host or the device cannot hold is refused before it is allocated: status 1, one
// sentence naming the size asked for and the limit, in seconds and within the memory the run is
// given (ulimit -v stands for a small host, so the tests need not allocate gigabytes).
Result weftUnder(uint64_t kib, const std::string& args) {
  return shell("ulimit -v " + std::to_string(kib) + "; " + WEFT_BINARY + " " + args);
}

// AddressSanitizer reserves terabytes of address space for its shadow: under ulimit -v a weft built
// with it (scripts/check-sanitizers.sh builds the tests and weft alike) cannot start.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

TEST(Cli, AGridPastTheHostsMemoryIsRefusedBeforeItsModelIsBuilt) {
  if (kAddressSanitizer) GTEST_SKIP() << "ulimit -v leaves AddressSanitizer no room for its shadow";
  const auto start = std::chrono::steady_clock::now();
  Result r = weftUnder(1000000, "run " + scene("large_grid.json") + " --backend cpu --quiet --grid 4096");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_THAT(r.output, ::testing::ContainsRegex("weft: --grid: a 4096 x 4096 cloth needs 5\\.0 GB of host memory for "
                                                 "its model; the host has [0-9.]+ (MB|KB|bytes) available\n"));
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

TEST(Cli, ACpuStatePastTheHostsMemoryIsRefusedBeforeItIsAllocated) {
  if (kAddressSanitizer) GTEST_SKIP() << "ulimit -v leaves AddressSanitizer no room for its shadow";
  // The 2048 x 2048 model (1.1 GB) fits in 2.5 GB; its CPU state (3.1 GB, the worst integrator's:
  // implicit-cg with the two-level preconditioner's tables) does not fit beside it.
  Result r = weftUnder(2500000, "run " + scene("large_grid.json") + " --backend cpu --quiet --grid 2048");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_THAT(r.output, ::testing::ContainsRegex("weft: a 2048 x 2048 cloth needs 3\\.1 GB of host memory for the CPU "
                                                 "backend's state; the host has [0-9.]+ (GB|MB) available\n"));
}

TEST(Cli, AGpuStatePastTheDevicesLimitsIsRefusedBeforeItIsAllocated) {
  Result r = weft("run " + scene("large_grid.json") + " --quiet --frames 1 --grid 1024");
  if (r.output.find("llvmpipe") == std::string::npos)
    GTEST_SKIP() << "the limits asserted are lavapipe's (2 GB, maxStorageBufferRange 128 MB): " << r.output;
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("weft: a 1024 x 1024 cloth needs 735.2 MB of device memory (its largest buffer "
                                  "191.7 MB); the device 'llvmpipe"));
  EXPECT_THAT(r.output, HasSubstr("' has 2.0 GB (maxStorageBufferRange 128.0 MB)\n"));
}

// A grid the device cannot hold ends its own row of the bench, not the bench: the smaller grid
// before it is measured and the JSON says why the large one was not run.
TEST(Cli, BenchSkipsAGridTheDeviceCannotHoldAndMeasuresTheRest) {
  const fs::path json = tempDir() / "bench.json";
  Result r = weft("bench --grids 16 900 --integrators verlet --backends gpu --frames 1 --substeps 1 --json " +
                  json.string());
  if (r.output.find("llvmpipe") == std::string::npos)
    GTEST_SKIP() << "a 900 x 900 state fits devices other than lavapipe (128 MB maxStorageBufferRange): " << r.output;
  EXPECT_EQ(r.exitCode, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(json))["rows"];
  ASSERT_EQ(j.size(), 2u) << j.dump();
  EXPECT_EQ(j[0]["particles"], 256);
  EXPECT_FALSE(j[0].contains("notRun"));
  const double rate = 256 / (j[0]["gpuMsPerStep"].get<double>() * 1e-3);  // measured: particles per GPU second
  EXPECT_NEAR(j[0]["particleStepsPerSecond"].get<double>(), rate, 1e-9 * rate);
  EXPECT_EQ(j[1]["particles"], 810000);
  EXPECT_THAT(j[1]["notRun"].get<std::string>(), HasSubstr("a 900 x 900 cloth needs 567.9 MB of device memory"));
  EXPECT_THAT(r.output, HasSubstr("| 900² | 810000 | verlet | gpu | not run: "));
}

// The contact suite times each cloth with contact on and off on both backends; its ratio column is
// its own two numbers' ratio, and contact's pass is part of the frame with contact.
TEST(Cli, BenchContactSuiteTimesEachClothWithContactOnAndOff) {
  fs::path json = tempDir() / "contact_suite.json";
  Result r = weft("bench --suite contact --quick --quiet --json " + json.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("| cloth | backend | ms/frame, contact on"));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(j["suite"], "contact");
  EXPECT_DOUBLE_EQ(j["rowSeconds"].get<double>(), 600.0) << "the default bound on a measurement";
  ASSERT_EQ(j["rows"].size(), 6u);  // the pile, one sheet and one twist, CPU and device
  EXPECT_EQ(j["rows"][4]["cloth"].get<std::string>(), "twist 16² (twist.json, 6 steps)");
  EXPECT_EQ(j["rows"][4]["substeps"], 6);
  for (const auto& row : j["rows"]) {
    const double on = row["msPerFrameContact"], off = row["msPerFrameNoContact"], pass = row["msPerFrameContactPass"];
    EXPECT_GT(off, 0.0) << row.dump();
    EXPECT_NEAR(row["ratio"].get<double>(), on / off, 1e-9 * on / off) << row.dump();
    EXPECT_GT(pass, 0.0) << row.dump();
    // The pass in its two parts (solver.h's kContactFindPass and kContactResolvePass), each timed.
    const double find = row["msPerFrameContactFind"], resolve = row["msPerFrameContactResolve"];
    EXPECT_GT(find, 0.0) << row.dump();
    EXPECT_GT(resolve, 0.0) << row.dump();
    EXPECT_NEAR(find + resolve, pass, 1e-9 * pass) << row.dump();
    // The contact pass is part of the frame: both are the timed frames' means (GPU time on the
    // device, wall time on the CPU backend), so the pass's is the smaller, within the two clocks'
    // agreement.
    EXPECT_LT(pass, 1.01 * on) << "the contact pass is part of the frame: " << row.dump();
  }
  // The twist row is demos/scenes/twist.json at 16², the scene's physical problem at that size (the
  // bench's own scaling, by the edge's 15 / 39 of the scene's: steps a frame, bend springs and drag;
  // at the bench's frame, 1/60 s): its stretch after the last timed frame, with contact on, is what
  // `weft run` reports for that scene, on each backend.
  nlohmann::json twist = nlohmann::json::parse(std::ifstream(scene("twist.json")));
  const double scale = 15.0 / 39.0;
  twist["solver"]["dt"] = 1.0 / 60.0;
  twist["solver"]["substeps"] = 6;  // 16 * scale, rounded
  twist["material"]["bendStiffness"] = static_cast<float>(2.0 * scale * scale);
  twist["environment"]["airDrag"] = static_cast<float>(5e-4 * 40 * 40 / (16 * 16));
  const fs::path twistScene = tempDir() / "twist_bench_step.json";
  std::ofstream(twistScene) << twist.dump();
  for (int k : {4, 5}) {
    const nlohmann::json& row = j["rows"][k];
    const fs::path stats = tempDir() / "twist_bench_stretch.json";
    Result run = weft("run " + twistScene.string() + " --grid 16 --frames 3 --quiet --backend " + row["backend"].get<std::string>() +
                      " --stats " + stats.string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const nlohmann::json stretch = nlohmann::json::parse(std::ifstream(stats))["finalStretch"];
    EXPECT_GT(stretch["max"].get<double>(), 0.005) << "the turning handles stretch the cloth";
    for (const char* key : {"mean", "max"})
      EXPECT_NEAR(row["stretchContact"][key].get<double>(), stretch[key].get<double>(), 1e-6 * stretch[key].get<double>())
          << key << ": " << row.dump();
  }
}

// A contact measurement whose first frames project past --row-seconds stops, and its row says so
// instead of giving numbers (the 256² twist on lavapipe would otherwise hold the suite for a quarter
// of an hour). At a nanosecond every measurement stops after its first frame. The bound is recorded,
// 600 s when not given, and the sweep and the other suites, which time every row whole, refuse it.
TEST(Cli, BenchContactSuiteReportsAMeasurementPastItsBoundAsNotMeasured) {
  fs::path json = tempDir() / "contact_bounded.json";
  Result r = weft("bench --suite contact --quick --quiet --row-seconds 1e-9 --json " + json.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
  EXPECT_DOUBLE_EQ(j["rowSeconds"].get<double>(), 1e-9);
  ASSERT_EQ(j["rows"].size(), 6u);
  for (const auto& row : j["rows"]) {
    for (const char* key : {"contactNotMeasured", "noContactNotMeasured"}) {
      ASSERT_TRUE(row.contains(key)) << row.dump();
      EXPECT_THAT(row[key].get<std::string>(), HasSubstr("past --row-seconds 1e-09")) << row.dump();
    }
    for (const char* key : {"msPerFrameContact", "msPerFrameContactPass", "msPerFrameNoContact", "ratio"})
      EXPECT_FALSE(row.contains(key)) << "a stopped measurement gives no figure: " << row.dump();
  }
  EXPECT_THAT(r.output, HasSubstr("| twist 16² (twist.json, 6 steps) | gpu | not measured: its first frames project "));
  for (const char* refused : {"bench --suite colliders --quick --row-seconds 5", "bench --grids 8 --row-seconds 5"}) {
    Result other = weft(refused);
    EXPECT_EQ(other.exitCode, 1) << refused;
    EXPECT_THAT(other.output, HasSubstr("--row-seconds bounds the targets and contact suites' rows")) << refused;
  }
  Result negative = weft("bench --suite contact --quick --row-seconds -1");
  EXPECT_EQ(negative.exitCode, 1);
  EXPECT_THAT(negative.output, HasSubstr("--row-seconds must be 0 (no bound) or a number of seconds, not -1"));
}

// The colliders suite times a cloth on a sphere of triangles with the face grid, with every face
// tested, and on the floor alone, on both backends; its ratio column is its own two numbers' ratio.
TEST(Cli, BenchCollidersSuiteTimesTheGridAgainstEveryFace) {
  fs::path json = tempDir() / "colliders_suite.json";
  Result r = weft("bench --suite colliders --quick --quiet --json " + json.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("| body | backend | ms/frame, face grid | ms/frame, every face"));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(j["suite"], "colliders");
  ASSERT_EQ(j["rows"].size(), 4u);  // a sphere standing and one moving, CPU and device
  EXPECT_EQ(j["rows"][2]["moves"], true);
  for (const auto& row : j["rows"]) {
    EXPECT_EQ(row["faces"], 4 * 16 * 15) << row.dump();  // 16 bands of 32 faces, less a fan's worth at each pole
    const double grid = row["msPerFrameGrid"], every = row["msPerFrameEveryFace"];
    EXPECT_GT(grid, 0.0) << row.dump();
    EXPECT_NEAR(row["everyFaceOverGrid"].get<double>(), every / grid, 1e-9 * every / grid) << row.dump();
    EXPECT_GT(row["msPerFrameFloorOnly"].get<double>(), 0.0) << row.dump();
  }
}

// `bench --suite targets --quick` runs every target row on quarter-size grids. Each row's verdict
// follows from its own numbers and its target; the holding rows measure the shipped
// hanging_xpbd.json cloth (the same stretch as `weft run` of that scene at that size); and a CPU
// device does not pretend to be the real-GPU row.
TEST(Cli, BenchTargetsSuiteJudgesEachRowByItsOwnNumbers) {
  const fs::path json = tempDir() / "targets.json";
  Result r = weft("bench --suite targets --quick --quiet --json " + json.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(j["suite"], "targets");
  EXPECT_EQ(j["quick"], true);
  EXPECT_DOUBLE_EQ(j["rowSeconds"].get<double>(), 600.0) << "the default bound on a measurement";
  const nlohmann::json& rows = j["rows"];
  ASSERT_EQ(rows.size(), 15u) << rows.dump();
  int holding = 0;
  std::vector<std::string> implicitRows;
  for (const nlohmann::json& row : rows) {
    const std::string work = row["work"];
    const nlohmann::json& v = row["values"];
    EXPECT_THAT(r.output, HasSubstr("| " + work + " | " + row["backend"].get<std::string>() + " | "));
    if (work.find("M particle-substeps/s") != std::string::npos && row["backend"] == "gpu") {
      EXPECT_EQ(row["met"], v["mParticleSubstepsPerSecond"].get<double>() >= 75.0) << row.dump();
    }
    if (work.find("ms/substep") != std::string::npos && row["backend"] == "gpu") {
      EXPECT_EQ(row["met"], v["msPerSubstep"].get<double>() <= 0.07) << row.dump();
    }
    if (work.find("two corners") != std::string::npos) {
      // The target judges the second's worst frame, of which the last is one.
      const bool holds = v["worstStretchMean"].get<double>() <= 0.01 && v["worstStretchMax"].get<double>() <= 0.10;
      EXPECT_GE(v["worstStretchMean"].get<double>(), v["stretchMean"].get<double>()) << row.dump();
      EXPECT_GE(v["worstStretchMax"].get<double>(), v["stretchMax"].get<double>()) << row.dump();
      if (row["target"].get<std::string>().find("ms,") != std::string::npos) {
        const double budget = row["backend"] == "cpu" ? 5.0 : 15.0;
        EXPECT_EQ(row["met"], holds && v["msPerFrame"].get<double>() <= budget) << row.dump();
      } else {
        EXPECT_EQ(row["met"], holds) << row.dump();
      }
      if (v["grid"] == 32 && row["backend"] == "cpu") {
        ++holding;
        const fs::path stats = tempDir() / "hanging_xpbd_32.json";
        Result run = weft("run " + scene("hanging_xpbd.json") +
                          " --grid 32 --frames 6 --dt 0.016666668 --backend cpu --quiet --stats " + stats.string());
        ASSERT_EQ(run.exitCode, 0) << run.output;
        const nlohmann::json ran = nlohmann::json::parse(std::ifstream(stats));
        const nlohmann::json& stretch = ran["finalStretch"];
        EXPECT_NEAR(v["stretchMean"].get<double>(), stretch["mean"].get<double>(), 1e-9) << row.dump();
        EXPECT_NEAR(v["stretchMax"].get<double>(), stretch["max"].get<double>(), 1e-9) << row.dump();
        // The row's worst frame is the run's (WorstStretch, the same six frames).
        EXPECT_NEAR(v["worstStretchMean"].get<double>(), ran["worstStretch"]["mean"].get<double>(), 1e-9) << row.dump();
        EXPECT_NEAR(v["worstStretchMax"].get<double>(), ran["worstStretch"]["max"].get<double>(), 1e-9) << row.dump();
      }
    }
    if (work.find("implicit-cg") != std::string::npos) {
      EXPECT_EQ(row["met"], v["msPerFrame"].get<double>() <= 14.0) << row.dump();
      implicitRows.push_back(v["preconditioner"]);
      EXPECT_THAT(work, HasSubstr(v["preconditioner"].get<std::string>())) << row.dump();
    }
    if (work.find("against the copy") != std::string::npos) {
      EXPECT_EQ(row["met"], v["ofCopy"].get<double>() >= 0.5) << row.dump();
    }
    if (work.find("device ms / CPU ms") != std::string::npos) {
      EXPECT_NEAR(v["ratio"].get<double>(), v["gpuMsPerStep"].get<double>() / v["cpuMsPerStep"].get<double>(), 1e-9);
      EXPECT_EQ(row["met"], v["ratio"].get<double>() <= 1.0) << row.dump();
    }
    if (work.find("1024") != std::string::npos && j["device"]["type"] == "CPU") {
      EXPECT_TRUE(row["met"].is_null()) << row.dump();
      EXPECT_THAT(row["measured"].get<std::string>(), HasSubstr("not run"));
    }
  }
  EXPECT_EQ(holding, 1);
  EXPECT_EQ(implicitRows, (std::vector<std::string>{"block-jacobi", "two-level"})) << "a row for each preconditioner";
  Result refused = weft("bench --suite targets --csv " + (tempDir() / "t.csv").string());
  EXPECT_NE(refused.exitCode, 0);
  EXPECT_THAT(refused.output, HasSubstr("--csv and --plot record the sweep"));
}

// The targets suite bounds each row's measurement as the contact suite does: at a nanosecond every
// row that times a solver stops after its first frame and reads "not measured", with no verdict and
// no figure, and the ratio rows, which divide two such figures, say they have none. The rows still
// come in the suite's order, so the table keeps its shape; the bound is recorded.
TEST(Cli, BenchTargetsSuiteReportsARowPastItsBoundAsNotMeasured) {
  const fs::path json = tempDir() / "targets_bounded.json";
  Result r = weft("bench --suite targets --quick --quiet --row-seconds 1e-9 --json " + json.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
  EXPECT_DOUBLE_EQ(j["rowSeconds"].get<double>(), 1e-9);
  const nlohmann::json& rows = j["rows"];
  ASSERT_EQ(rows.size(), 15u) << rows.dump();
  int bounded = 0, ratios = 0;
  for (const nlohmann::json& row : rows) {
    const std::string work = row["work"], measured = row["measured"];
    const nlohmann::json& v = row["values"];
    EXPECT_THAT(r.output, HasSubstr("| " + work + " | " + row["backend"].get<std::string>() + " | " + measured + " | "));
    if (work.find("1024") != std::string::npos && j["device"]["type"] == "CPU") continue;  // not run at all
    EXPECT_TRUE(row["met"].is_null()) << "a row without its figure has no verdict: " << row.dump();
    EXPECT_EQ(v["notMeasured"], measured) << row.dump();
    for (const char* figure : {"msPerSubstep", "msPerFrame", "worstStretchMean", "ofCopy", "ratio"})
      EXPECT_FALSE(v.contains(figure)) << "a stopped measurement gives no figure: " << row.dump();
    if (work.find("device ms / CPU ms") != std::string::npos) {
      ++ratios;
      EXPECT_THAT(measured, HasSubstr("not measured: the rows it divides were not both measured"));
    } else {
      ++bounded;
      EXPECT_THAT(measured, HasSubstr("not measured: its first frames project "));
      EXPECT_THAT(measured, HasSubstr(" s, past --row-seconds 1e-09"));
    }
  }
  EXPECT_EQ(ratios, 2);
  EXPECT_GE(bounded, 12) << "the explicit, holding, implicit and bandwidth rows";
  Result negative = weft("bench --suite targets --quick --row-seconds nan");
  EXPECT_EQ(negative.exitCode, 1) << negative.output;
  EXPECT_THAT(negative.output, HasSubstr("--row-seconds must be 0 (no bound) or a number of seconds, not nan"));
}

// imex is a bench integrator like the others, on both backends: one row each, with a positive
// time, its solve's iterations and the grid's particle count (the names come from the scene
// format's one table).
TEST(Cli, BenchMeasuresImexOnBothBackends) {
  const fs::path json = tempDir() / "bench_imex.json";
  Result r = weft("bench --grids 16 --integrators imex,implicit-cg --backends cpu,gpu --frames 2 --substeps 1 --json " +
                  json.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(json))["rows"];
  ASSERT_EQ(j.size(), 4u) << j.dump();
  int imexRows = 0;
  for (const nlohmann::json& row : j) {
    EXPECT_EQ(row["particles"], 256) << row.dump();
    EXPECT_FALSE(row.contains("notRun")) << row.dump();
    EXPECT_GT(row["wallMsPerStep"].get<double>(), 0.0) << row.dump();
    EXPECT_GT(row["medianSolveIterations"].get<double>(), 0.0) << row.dump();  // both solve each step
    imexRows += row["integrator"] == "imex";
  }
  EXPECT_EQ(imexRows, 2);
  EXPECT_THAT(r.output, HasSubstr("| 16² | 256 | imex | cpu | "));
  EXPECT_THAT(weft("bench --help").output, HasSubstr("imex"));
}

// The JSON is a record of what ran: version, commit, date, device, CPU and every setting beside
// the rows; a CPU-only run has no device.
TEST(Cli, BenchJsonRecordsWhatRanAndWhere) {
  const fs::path json = tempDir() / "bench_record.json";
  Result r = weft("bench --grids 8 --backends gpu,cpu --frames 1 --substeps 1 --iterations 3 --quiet --json " +
                  json.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(j["weft"], "0.1.0") << j.dump();
  EXPECT_FALSE(j["commit"].get<std::string>().empty());
  EXPECT_TRUE(std::regex_match(j["date"].get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << j["date"];
  EXPECT_FALSE(j["device"]["name"].get<std::string>().empty());
  EXPECT_TRUE(std::regex_match(j["device"]["apiVersion"].get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)")));
  EXPECT_TRUE(j["device"]["driverVersion"].is_number());
  EXPECT_FALSE(j["cpu"]["model"].get<std::string>().empty());
  EXPECT_GT(j["cpu"]["threads"].get<int>(), 0);
#if defined(__x86_64__)
  // The lanes the CPU backend's xpbd ran: this processor's widest (cpu/simd/lanes.h).
  if (!std::getenv("WEFT_XPBD_LANES")) {
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    EXPECT_EQ(j["cpu"]["xpbdLanes"], avx512 ? 16 : __builtin_cpu_supports("avx2") ? 8 : 4);
  }
#endif
  EXPECT_EQ(j["settings"]["iterations"], 3);
  EXPECT_EQ(j["settings"]["grids"], nlohmann::json::array({8}));
  EXPECT_EQ(j["settings"]["backends"], nlohmann::json::array({"gpu", "cpu"}));
  EXPECT_EQ(j["settings"]["jsonPath"], json.string());
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["backend"], "gpu");
  EXPECT_TRUE(j["rows"][1]["dispatchesPerStep"].is_null());  // the CPU backend records no commands

  Result cpu = weft("bench --grids 8 --backends cpu --frames 1 --substeps 1 --quiet --json " + json.string());
  ASSERT_EQ(cpu.exitCode, 0) << cpu.output;
  EXPECT_TRUE(nlohmann::json::parse(std::ifstream(json))["device"].is_null());
}

// --preconditioner two-level: the CPU rows solve in fewer iterations than with block-jacobi, the GPU
// rows are not run with the backend's sentence, and the settings record it.
TEST(Cli, BenchTakesThePreconditionerAndLeavesItsGpuRowsNotRun) {
  auto rowsOf = [&](const std::string& preconditioner) {
    const fs::path json = tempDir() / ("bench_" + preconditioner + ".json");
    Result r = weft("bench --grids 48 --integrators implicit-cg --backends cpu,gpu --frames 3 --substeps 2 --quiet"
                    " --preconditioner " + preconditioner + " --json " + json.string());
    EXPECT_EQ(r.exitCode, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
    EXPECT_EQ(j["settings"]["preconditioner"], preconditioner);
    return j["rows"];
  };
  const nlohmann::json jacobi = rowsOf("block-jacobi"), twoLevel = rowsOf("two-level");
  ASSERT_EQ(jacobi.size(), 2u);
  ASSERT_EQ(twoLevel.size(), 2u);
  EXPECT_EQ(twoLevel[0]["backend"], "cpu");
  EXPECT_LT(twoLevel[0]["medianSolveIterations"].get<double>(), 0.7 * jacobi[0]["medianSolveIterations"].get<double>());
  EXPECT_FALSE(jacobi[1].contains("notRun")) << jacobi[1].dump();
  EXPECT_THAT(twoLevel[1]["notRun"].get<std::string>(), HasSubstr("runs on the CPU backend only"));
  Result unknown = weft("bench --grids 8 --preconditioner amg --quiet");
  EXPECT_EQ(unknown.exitCode, 1) << unknown.output;
  EXPECT_THAT(unknown.output, HasSubstr("--preconditioner: unknown preconditioner 'amg'"));
}

// The CSV: a header, then one line per row with as many fields, the settings on every line.
TEST(Cli, BenchCsvHasAHeaderAndOneLinePerRowWithTheSettings) {
  const fs::path csv = tempDir() / "bench.csv";
  Result r = weft("bench --grids 8,12 --backends gpu,cpu --frames 1 --substeps 1 --iterations 4 --quiet --csv " +
                  csv.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::ifstream in(csv);
  std::vector<std::vector<std::string>> lines;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields(1);  // RFC 4180: commas inside quotes belong to the field
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') fields.back() += line[++i];
      else if (line[i] == '"') quoted = !quoted;
      else if (line[i] == ',' && !quoted) fields.emplace_back();
      else fields.back() += line[i];
    }
    lines.push_back(fields);
  }
  ASSERT_EQ(lines.size(), 5u);  // header + 2 grids x 2 backends
  const auto column = [&](const std::string& name) {
    auto it = std::find(lines[0].begin(), lines[0].end(), name);
    return static_cast<size_t>(it - lines[0].begin());
  };
  ASSERT_LT(column("iterations"), lines[0].size());
  ASSERT_LT(column("wallMsPerStep"), lines[0].size());
  for (size_t i = 1; i < lines.size(); ++i) {
    ASSERT_EQ(lines[i].size(), lines[0].size()) << i;
    EXPECT_EQ(lines[i][column("iterations")], "4");
    EXPECT_EQ(lines[i][column("grids")], "8 12");
    EXPECT_GT(std::stod(lines[i][column("wallMsPerStep")]), 0.0);
  }
  EXPECT_EQ(lines[1][column("particles")], "64");
  EXPECT_EQ(lines[4][column("backend")], "cpu");
  // Each row's stretch is read from its own backend's state: GPU and CPU rows of a grid agree.
  for (size_t i : {1u, 3u}) {
    ASSERT_EQ(lines[i][column("backend")], "gpu");
    ASSERT_EQ(lines[i + 1][column("backend")], "cpu");
    const double gpuMax = std::stod(lines[i][column("stretchMax")]), cpuMax = std::stod(lines[i + 1][column("stretchMax")]);
    EXPECT_NEAR(gpuMax, cpuMax, 1e-4 + 1e-3 * cpuMax) << "grid row " << i;
    EXPECT_NEAR(std::stod(lines[i][column("stretchMean")]), std::stod(lines[i + 1][column("stretchMean")]), 1e-4);
    EXPECT_GT(cpuMax, 0.0);
  }
  EXPECT_FALSE(fs::exists(csv.string() + ".tmp"));
}

// An output the bench cannot write is refused in one sentence naming it, before any case runs.
TEST(Cli, BenchRefusesAnUnwritableOutputBeforeMeasuring) {
  for (const std::string flag : {"--csv", "--json", "--plot"}) {
    const std::string path = (tempDir() / "no_such_folder" / "out.x").string();
    Result r = weft("bench --grids 8 --backends cpu --frames 1 " + flag + " " + path);
    EXPECT_EQ(r.exitCode, 1) << flag << ": " << r.output;
    EXPECT_THAT(r.output, HasSubstr("weft: cannot write ")) << flag;
    EXPECT_THAT(r.output, HasSubstr("'" + path + "': its folder does not exist\n")) << flag;
    EXPECT_THAT(r.output, ::testing::Not(HasSubstr("| 8² |"))) << flag;
  }
}

// What a Verlet step records on the GPU (solver/integrators/verlet/verlet.cpp, recordVerletStep):
// one verlet_predict dispatch, then one verlet_relax dispatch per constraint iteration (the ground
// collider is handled inside the last relax, and the bench grid has no strain limit or tearing, so
// no other pass), each dispatch followed by one computeToCompute barrier. So 1 + iterations of
// each per step; two iteration counts pin the per-iteration dispatch. Each dispatch binds at most
// every buffer the frame binds.
TEST(Cli, BenchCountsVerletsDispatchesBarriersAndBoundBytesPerStep) {
  for (int iterations : {3, 7}) {
    const fs::path json = tempDir() / ("bench_counts_" + std::to_string(iterations) + ".json");
    Result r = weft("bench --grids 16 --integrators verlet --backends gpu --frames 2 --substeps 2 --quiet --iterations " +
                    std::to_string(iterations) + " --json " + json.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const nlohmann::json row = nlohmann::json::parse(std::ifstream(json))["rows"][0];
    EXPECT_EQ(row["dispatchesPerStep"].get<double>(), 1.0 + iterations) << row.dump();
    EXPECT_EQ(row["barriersPerStep"].get<double>(), 1.0 + iterations) << row.dump();
    const double buffers = row["boundBufferBytes"].get<double>();
    EXPECT_GE(buffers, 5.0 * 256 * 16) << row.dump();  // at least predict's five vec4[256] buffers
    ASSERT_EQ(row["passes"].size(), 2u) << row.dump();
    EXPECT_EQ(row["passes"][0]["name"], "verlet_predict");
    EXPECT_EQ(row["passes"][0]["dispatchesPerStep"].get<double>(), 1.0);
    EXPECT_EQ(row["passes"][1]["name"], "verlet_relax");
    EXPECT_EQ(row["passes"][1]["dispatchesPerStep"].get<double>(), double(iterations));
    double bytes = 0;
    for (const nlohmann::json& pass : row["passes"]) {
      const double perStep = pass["bytesPerStep"].get<double>();
      EXPECT_GT(perStep, 0.0) << pass.dump();
      EXPECT_LE(perStep / pass["dispatchesPerStep"].get<double>(), buffers) << pass.dump();
      EXPECT_GT(pass["msPerStep"].get<double>(), 0.0) << pass.dump();
      EXPECT_NEAR(pass["GBps"].get<double>(), perStep / (pass["msPerStep"].get<double>() * 1e-3) * 1e-9,
                  1e-9 * pass["GBps"].get<double>());
      bytes += perStep;
    }
    EXPECT_NEAR(row["boundBytesPerStep"].get<double>(), bytes, 1e-6 * bytes);
    EXPECT_THAT(r.output, HasSubstr("| pass | ms/step | MB/step | GB/s | of copy |"));
    EXPECT_THAT(r.output, HasSubstr("| verlet_relax | "));
  }
}

// --spring-table runs the sweep's grids on the general path: the same motion to the bit (each row's
// stretch, read from its own backend's state, is the grid path's), while every GPU relaxation pass
// binds the spring rows and links (8 bytes an entry, 12 entries a particle inside the grid) instead
// of the stencil's 24 bytes of rest lengths a particle. The suites run their own cloths: refused.
TEST(Cli, BenchSpringTableRunsTheGeneralPathToTheSameMotion) {
  auto bench = [](const std::string& extra, const std::string& name) {
    const fs::path json = tempDir() / name;
    Result r = weft("bench --grids 16 --integrators symplectic-euler,verlet --backends gpu,cpu --frames 2 --substeps 2 "
                    "--iterations 3 --quiet --json " + json.string() + extra);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    return nlohmann::json::parse(std::ifstream(json));
  };
  const nlohmann::json grid = bench("", "bench_grid_path.json"), table = bench(" --spring-table", "bench_table_path.json");
  EXPECT_EQ(grid["settings"]["springTable"], false);
  EXPECT_EQ(table["settings"]["springTable"], true);
  ASSERT_EQ(grid["rows"].size(), 4u);
  ASSERT_EQ(table["rows"].size(), 4u);
  for (size_t k = 0; k < 4; ++k) {
    const nlohmann::json& g = grid["rows"][k];
    const nlohmann::json& t = table["rows"][k];
    ASSERT_EQ(g["integrator"], t["integrator"]);
    ASSERT_EQ(g["backend"], t["backend"]);
    EXPECT_EQ(g["stretchMean"], t["stretchMean"]) << g["integrator"] << " " << g["backend"];
    EXPECT_EQ(g["stretchMax"], t["stretchMax"]) << g["integrator"] << " " << g["backend"];
    EXPECT_GT(t["stretchMax"].get<double>(), 0.0);
    if (g["integrator"] != "verlet" || g["backend"] != "gpu") continue;
    const nlohmann::json& gRelax = g["passes"][1];
    const nlohmann::json& tRelax = t["passes"][1];
    ASSERT_EQ(gRelax["name"], "verlet_relax");
    // 16²: 2 (16 x 15) structural + 2 (15 x 15) shear + 2 (16 x 14) bend springs, each in two rows
    const double entries = 2.0 * (2 * 16 * 15 + 2 * 15 * 15 + 2 * 16 * 14);
    const double tableBytes = 257 * 4 + entries * 8, stencilBytes = 96 + 256 * 6 * 4;
    EXPECT_NEAR(tRelax["bytesPerStep"].get<double>() - gRelax["bytesPerStep"].get<double>(),
                3 * (tableBytes - stencilBytes), 1e-9 * tableBytes) << gRelax.dump() << tRelax.dump();
  }
  Result suite = weft("bench --suite targets --quick --spring-table");
  EXPECT_EQ(suite.exitCode, 1) << suite.output;
  EXPECT_THAT(suite.output, HasSubstr("--spring-table sets the sweep's cloths"));
}

// Progress goes to stderr, one line per case, unless --quiet; stdout stays the table.
TEST(Cli, BenchReportsProgressOnStderrUnlessQuiet) {
  // stderr into the pipe, stdout dropped (shell() adds its own 2>&1 after the group).
  Result r = shell("{ " + std::string(WEFT_BINARY) + " bench --grids 8 --backends gpu,cpu --frames 1 --substeps 1 2>&1 >/dev/null; }");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("weft bench: [1/2] 8² verlet gpu ..."));
  EXPECT_THAT(r.output, HasSubstr("weft bench: [2/2] 8² verlet cpu ..."));
  EXPECT_THAT(r.output, HasSubstr("s left)"));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("| 8² |")));
  Result quiet = shell("{ " + std::string(WEFT_BINARY) + " bench --grids 8 --backends cpu --frames 1 --quiet 2>&1 >/dev/null; }");
  ASSERT_EQ(quiet.exitCode, 0) << quiet.output;
  EXPECT_EQ(quiet.output, "");
}

// The plot: one SVG, one polyline per integrator x backend, its points in increasing particles.
TEST(Cli, BenchPlotsOneLinePerIntegratorAndBackendInIncreasingParticles) {
  const fs::path svg = tempDir() / "bench.svg";
  Result r = weft("bench --grids 16,8,12 --integrators verlet,explicit-euler --backends gpu,cpu --frames 1 "
                  "--substeps 1 --quiet --plot " + svg.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::stringstream text;
  text << std::ifstream(svg).rdbuf();
  const std::string s = text.str();
  EXPECT_EQ(s.rfind("<svg", 0), 0u);
  EXPECT_EQ(s.substr(s.find_last_not_of("\n") - 5, 6), "</svg>");
  const std::regex polyline("<polyline[^>]* points=\"([^\"]*)\"");
  int lines = 0;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), polyline); it != std::sregex_iterator(); ++it) {
    ++lines;
    std::stringstream points((*it)[1].str());
    std::vector<double> xs;
    for (std::string p; points >> p;) xs.push_back(std::stod(p.substr(0, p.find(','))));
    ASSERT_EQ(xs.size(), 3u) << (*it)[0];
    EXPECT_LT(xs[0], xs[1]);
    EXPECT_LT(xs[1], xs[2]);
  }
  EXPECT_EQ(lines, 4);
  EXPECT_THAT(s, HasSubstr(">explicit-euler cpu</text>"));
  EXPECT_FALSE(fs::exists(svg.string() + ".tmp"));
}

// nonlinear-cg halves a diverging step down to a millionth of the requested one; past that the
// run stops like a blow-up: status 3, one sentence with the step in significant digits (not
// "dt = 0.000000 s"), the stats with the sentence and the frames done.
TEST(Cli, AStepNonlinearCgCannotTakeStopsTheRunWithStatusThree) {
  // A 10 s step on 16 particles of 0.6 mg joined by 1e5 N/m springs: omega ~ 4e5 /s asks for steps
  // of a few microseconds, below a millionth of the requested 10 s.
  fs::path stiff = writeFile("nlcg_stiff.json", R"({"cloth": {"grid": {"width": 4, "height": 4}, "totalMass": 0.00001},
    "material": {"structuralStiffness": 100000}, "pins": {"corners": 2},
    "solver": {"integrator": "nonlinear-cg", "dt": 10, "substeps": 1, "frames": 2}})");
  fs::path stats = tempDir() / "nlcg_failure.json";
  Result r = weft("run " + stiff.string() + " --backend cpu --quiet --stats " + stats.string());
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("nonlinear-cg: the step still diverges at dt = "));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("0.000000")));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("internal error")));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_THAT(j["failure"].get<std::string>(), HasSubstr("still diverges"));
  EXPECT_EQ(j["frames"], 0);
}

// Ctrl-C (or a SIGTERM) while `weft run` writes: the frame in progress finishes, the recording and
// the stats, not complete, are not written, no temporary file remains, every OBJ frame already
// written is whole, and the exit status says which signal ended the run.
TEST(Cli, InterruptedRunLeavesNoTemporaryFileAndOnlyWholeOutputs) {
  // 32 x 32 on the CPU: a few ms a frame, so a million frames run until the signal comes.
  const fs::path sceneFile = writeFile("interrupt.json", R"({"cloth": {"grid": {"width": 32, "height": 32}},
    "pins": {"corners": 2}, "solver": {"frames": 1000000}})");
  for (int number : {SIGINT, SIGTERM}) {
    const fs::path dir = tempDir() / ("interrupt_" + std::to_string(number));
    fs::remove_all(dir);
    fs::create_directories(dir / "objs");
    Background run({"run", sceneFile.string(), "--backend", "cpu", "--quiet", "--record", (dir / "run.weftrec").string(),
                    "--stats", (dir / "stats.json").string(), "--obj-dir", (dir / "objs").string()},
                   (dir / "log.txt").string());
    ASSERT_TRUE(run.started());
    // Signalled once it has written frames: the recording's temporary file is open and growing.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(dir / "objs" / "frame_00003.obj") && std::chrono::steady_clock::now() < deadline &&
           !run.wait(0.01)) {
    }
    ASSERT_TRUE(fs::exists(dir / "run.weftrec.tmp")) << number;
    run.signal(number);
    std::optional<int> status = run.wait(30);
    ASSERT_TRUE(status) << "still running 30 s after signal " << number;
    std::ifstream logFile(dir / "log.txt");
    const std::string log((std::istreambuf_iterator<char>(logFile)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(WIFEXITED(*status)) << "ended by signal " << (WIFSIGNALED(*status) ? WTERMSIG(*status) : 0);
    EXPECT_EQ(WEXITSTATUS(*status), 128 + number) << log;
    EXPECT_THAT(log, HasSubstr(number == SIGINT ? "interrupted by SIGINT after frame" : "interrupted by SIGTERM after frame"));
    int objs = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
      if (entry.path().extension() != ".obj") continue;
      ++objs;
      std::ifstream obj(entry.path());
      int vertices = 0, faces = 0;
      for (std::string line; std::getline(obj, line);) {
        vertices += line.rfind("v ", 0) == 0;
        faces += line.rfind("f ", 0) == 0;
      }
      EXPECT_EQ(vertices, 32 * 32) << entry.path();
      EXPECT_EQ(faces, 2 * 31 * 31) << entry.path();
    }
    EXPECT_GE(objs, 3);
    EXPECT_FALSE(fs::exists(dir / "run.weftrec"));
    EXPECT_FALSE(fs::exists(dir / "stats.json"));
  }
}

}  // namespace
