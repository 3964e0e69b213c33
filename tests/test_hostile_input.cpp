// Hostile input to the readers: JSON nested 100000 deep, values a megabyte long or full of control
// bytes, OBJ numbers tinyobjloader would misread, recording headers whose counts overflow, devices
// and oversized files in place of input.
// Each is refused with one short sentence of printable text; nothing crashes, fills memory or
// allocates what the file does not hold. (FIFOs, which would block, are tried in test_cli.cpp.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/error.h"
#include "input_error.h"
#include "solver/io/obj_mesh.h"
#include "solver/io/scene_reader.h"
#include "solver/model/cloth_model.h"
#include "solver/io/recording.h"
#include "solver/model/scene.h"

namespace weft {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using test::inputErrorOf;

// What every refusal must be: a sentence a person can read on a terminal, not a dump of the input.
void expectPlainSentence(const std::string& message) {
  EXPECT_LE(message.size(), 200u) << message.substr(0, 300);
  for (const char c : message) {
    ASSERT_TRUE(c >= 0x20 && c < 0x7f) << "byte " << int(static_cast<unsigned char>(c)) << " in: "
                                       << message.substr(0, 300);
  }
}

std::string sceneError(const std::string& json) {
  return inputErrorOf([&] { parseScene(json, "", "hostile.json"); });
}

std::string nested(const std::string& open, const std::string& inner, const std::string& close, int depth) {
  std::string text;
  text.reserve((open.size() + close.size()) * depth + inner.size());
  for (int i = 0; i < depth; ++i) text += open;
  text += inner;
  for (int i = 0; i < depth; ++i) text += close;
  return text;
}

TEST(HostileScene, NestingTensOfThousandsDeepIsRefusedInOneSentence) {
  const std::string arrays = nested("[", "", "]", 100000);
  const std::string objects = nested(R"({"a":)", "1", "}", 100000);
  for (const std::string& json : {
           arrays,                                                    // the whole file
           objects,                                                   // the whole file
           R"({"cloth": {"grid": {}}, "name": )" + arrays + "}",      // a known key's value
           R"({"cloth": )" + objects + "}",                           // a known section
           R"({"cloth": {"grid": {}}, "solver": {"dt": )" + arrays + "}}",
       }) {
    const std::string message = sceneError(json);
    EXPECT_THAT(message, HasSubstr("hostile.json: arrays and objects are nested more than 32 levels deep"));
    expectPlainSentence(message);
  }
  // through the file reader as well
  const fs::path path = fs::path(testing::TempDir()) / "weft_deep.json";
  std::ofstream(path) << R"({"cloth": {"grid": {}}, "name": )" + arrays + "}";
  EXPECT_THAT(inputErrorOf([&] { loadScene(path.string()); }), HasSubstr("weft_deep.json: arrays and objects"));
}

TEST(HostileScene, TextAfterANulByteIsNotDropped) {
  // The JSON parser stops at a NUL byte as if the file ended there: this file parsed as a valid
  // scene, and whatever followed the NUL was never read.
  const std::string json = "{\"cloth\": {\"grid\": {}}}\n" + std::string(1, '\0') + "{\"solver\": {\"dt\": 0}}";
  EXPECT_THAT(sceneError(json), HasSubstr("hostile.json: malformed JSON at line 2, column 1: a NUL byte"));
}

TEST(HostileScene, EchoedKeysAndValuesAreShortAndPrintable) {
  const std::string huge(100000, 'x');
  std::string manyItems = "1";
  for (int i = 0; i < 50000; ++i) manyItems += ", 1";
  struct Case {
    std::string json;
    std::string expected;
  };
  const Case cases[] = {
      {R"({")" + huge + R"(": 1})", "hostile.json: unknown key 'xxxxxxxx"},
      {R"({"cloth\u001b[31m": 1})", "unknown key 'cloth\\x1b[31m'"},
      // the solver's 13 keys do not fit in one short sentence beside the unknown one (found by fuzz_scene)
      {R"({"cloth": {"grid": {}}, "solver": {"constraiftStiffness": 1}})",
       "unknown key 'solver.constraiftStiffness' (did you mean 'constraintStiffness'?)"},
      {R"({"cloth": {"grid": {}}, "solver": {"Substeps": 1}})", "unknown key 'solver.Substeps' (did you mean 'substeps'?)"},
      {R"({"cloth": {"grid": {}}, "solver": {")" + huge + R"(": 1}})",
       "unknown key 'solver.xxxxxxxx"},
      {R"({"cloth": {"grid": {}}, "solver": {"wholly different": 1}})",
       "unknown key 'solver.wholly different' (docs/scene-format.md lists the known keys)"},
      {R"({"cloth": {"grid": {"plane": ")" + huge + R"("}}})", "cloth.grid.plane must be"},
      {R"({"cloth": {"grid": {"plane": "\u001b]0;title\u0007"}}})", "cloth.grid.plane must be"},
      {R"({"cloth": {"grid": {"width": ")" + std::string(30, 'a') + "\u00e9\u00e9\u00e9\u00e9\u00e9" + R"("}}})",
       "cloth.grid.width must be an integer >= 2"},
      {R"({"cloth": {"grid": {}}, "solver": {"integrator": ")" + huge + R"("}})", "unknown integrator 'xxxx"},
      {R"({"cloth": {"grid": {}}, "colliders": [{"type": ")" + huge + R"("}]})", "colliders[0].type must be"},
      {R"({"cloth": {"grid": {}}, "name": [)" + manyItems + "]}", "name must be a string (got [1, 1, 1"},
      // the parser's own message quotes the text it stopped at, however long and whatever its bytes
      {R"({"cloth": ")" + huge + "\x01\"}", "malformed JSON at line 1, column"},
      {"{\"cloth\": \"ab\xff\xfe\"}", "malformed JSON at line 1, column"},
      {R"({"cloth": {"grid": {}}, "solver": {"dt": 1)" + std::string(1000, '0') + "}}", "malformed JSON: number overflow"},
  };
  for (const Case& c : cases) {
    const std::string message = sceneError(c.json);
    EXPECT_THAT(message, HasSubstr(c.expected)) << c.json.substr(0, 80);
    expectPlainSentence(message);
  }
}

// loadMesh's message for an OBJ file of this text; the file is named `name`.
std::string objError(const std::string& name, const std::string& text) {
  MeshSpec spec;
  spec.path = (fs::path(testing::TempDir()) / name).string();
  std::ofstream(spec.path, std::ios::binary) << text;
  return inputErrorOf([&] { loadMesh(spec, Material{}); });
}

TEST(HostileObj, NumbersTinyobjloaderWouldMisreadAreRefusedWithTheirLine) {
  const std::string triangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";  // lines 1 to 3
  // (0, X, 1): read as (0, 0, 1) the triangle would have been a good one
  auto withY = [](const std::string& y) { return "v 0 0 0\nv 1 0 0\nv 0 " + y + " 1\nf 1 2 3\n"; };
  struct Case {
    std::string text;
    std::string expected;
  };
  const Case cases[] = {
      // atoi wraps: vertex 1, and the last vertex
      {triangle + "f 1 2 4294967297\n", "line 4 refers to vertex 4294967297, but the file has 3 vertices"},
      {triangle + "f 1 2 123456789012345678901234567890\n",
       "line 4 refers to vertex 123456789012345678901234567890, but the file has 3 vertices"},
      {triangle + "f 1 2 -4\n", "line 4 refers to vertex -4, but only 3 vertices come before it"},
      {triangle + "f 1 2 abc\n", "line 4 has a face corner 'abc' that is not an index"},
      {"v 0 0 0\rv 1 0 0\r\nv 0 1 0\nf 1 2 0\n", "line 4 has a face corner '0' that is not an index"},
      // skipped without a word: a face past the vertices, a face of two corners
      {triangle + "f 1 2 3 9\n", "line 4 refers to vertex 9, but the file has 3 vertices"},
      {triangle + "f 1 2\nf 1 2 3\n", "line 4 has a face of 2 corners; a face needs at least 3"},
      {triangle + "f 1/1 2/1 3/1\n", "line 4 refers to texture coordinate 1, but the file has 0 texture coordinates"},
      {triangle + "f 1 2 3//2\nvn 0 0 1\n", "line 4 refers to normal 2, but the file has 1 normal"},
      // read as 0
      {withY("nan"), "line 3 has a vertex coordinate 'nan', which is not a decimal number within float range"},
      {withY("inf"), "line 3 has a vertex coordinate 'inf'"},
      {withY("abc"), "line 3 has a vertex coordinate 'abc'"},
      {withY("0x1p3"), "line 3 has a vertex coordinate '0x1p3'"},
      {withY("1.5.2"), "line 3 has a vertex coordinate '1.5.2'"},
      {withY("1e39"), "line 3 has a vertex coordinate '1e39'"},  // inf as a float
      {"v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n", "line 2 has a vertex of 2 coordinates, not 3"},
      // a NUL ends tinyobjloader's line: the fourth corner was dropped
      {triangle + "v 1 1 0\nf 1 2 4" + std::string(1, '\0') + " 3\n", "line 5 holds a NUL byte"},
  };
  for (const Case& c : cases) {
    const std::string message = objError("weft_hostile.obj", c.text);
    EXPECT_THAT(message, HasSubstr("cannot read mesh '" + testing::TempDir()));
    EXPECT_THAT(message, HasSubstr("weft_hostile.obj': " + c.expected)) << c.text;
    expectPlainSentence(message);
  }
}

TEST(HostileObj, EveryFormOfAGoodNumberIsStillRead) {
  MeshSpec spec;
  spec.path = (fs::path(testing::TempDir()) / "weft_forms.obj").string();
  std::ofstream(spec.path, std::ios::binary)
      << "v 0 0 0\r\nv +1.5 -.0 0.\r\nv 0 1E0 1e+0 1\nvt 0 0\nvn 0 0 1\n# a comment\nf 1/1/1 -2//1 3/1\n";
  const ClothModel m = loadMesh(spec, Material{});
  ASSERT_EQ(m.particleCount(), 3u);
  EXPECT_EQ(m.positions[1], glm::vec3(1.5f, 0.f, 0.f));
  EXPECT_EQ(m.positions[2], glm::vec3(0.f, 1.f, 1.f));
  ASSERT_EQ(m.triangles.size(), 1u);
  EXPECT_EQ(m.triangles[0], glm::uvec3(0, 1, 2));
}

// A recording whose 64-byte header (docs/recording-format.md) claims these counts, then zeros up to
// `bytes` in all: a sparse file, so a long one costs no disk.
fs::path recordingWithHeader(const std::string& name, uint32_t particles, uint32_t frames, uint32_t triangles,
                             uint64_t bytes) {
  const fs::path path = fs::path(testing::TempDir()) / name;
  char header[64] = {};
  std::memcpy(header, "WEFTREC", 8);
  const uint32_t fields[6] = {1, particles, frames, triangles, 0, 1};
  std::memcpy(header + 8, fields, sizeof fields);
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(header, sizeof header);
  fs::resize_file(path, bytes);
  return path;
}

TEST(HostileRecording, CountsWhoseByteSizeOverflowsAreRefused) {
  // 2^30 frames of (2^32 - 1) / 3 particles take 2^30 (12 N + 4) = 2^64 bytes: 0 in 64-bit
  // arithmetic, so this 64-byte file looked exactly as long as its header promised.
  const fs::path path = recordingWithHeader("weft_overflow.weftrec", 1431655765u, 1u << 30, 0, 64);
  const std::string message = inputErrorOf([&] { RecordingReader reader(path.string()); });
  EXPECT_THAT(message, HasSubstr("weft_overflow.weftrec' is corrupt: its header promises 1073741824 frames of "
                                 "1431655765 particles"));
  expectPlainSentence(message);
}

TEST(HostileRecording, MoreParticlesOrTrianglesThanTheLimitsAreRefused) {
  // Both files are exactly as long as their headers say: only the limits keep the reader from
  // allocating a frame of 16 million particles or 800 MB of triangles for a sparse file.
  const uint32_t particles = kMaxParticles + 1;
  const fs::path many = recordingWithHeader("weft_particles.weftrec", particles, 1, 0, 64 + 12ull * particles + 4);
  std::string message = inputErrorOf([&] { RecordingReader reader(many.string()); });
  EXPECT_THAT(message, HasSubstr("weft_particles.weftrec' holds 16777217 particles, more than the limit of 16777216"));
  expectPlainSentence(message);
  const uint32_t triangles = 4 * kMaxParticles + 1;
  const fs::path tris = recordingWithHeader("weft_triangles.weftrec", 3, 0, triangles, 64 + 12ull * triangles);
  message = inputErrorOf([&] { RecordingReader reader(tris.string()); });
  EXPECT_THAT(message, HasSubstr("weft_triangles.weftrec' holds 67108865 triangles, more than the limit of 67108864"));
  expectPlainSentence(message);
  fs::remove(many);
  fs::remove(tris);
}

size_t openDescriptors() {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator("/proc/self/fd")) ++count;
  return count;
}

// A reader that refuses a recording closes it: a viewer refusing file after file, or a fuzzer, would
// otherwise run out of descriptors (the fuzzer found this: the constructor threw past its fclose).
TEST(HostileRecording, RefusedRecordingsLeaveNoFileOpen) {
  const fs::path truncated = recordingWithHeader("weft_short.weftrec", 4, 3, 0, 100);
  const fs::path foreign = fs::path(testing::TempDir()) / "weft_foreign.weftrec";
  std::ofstream(foreign, std::ios::binary) << std::string(80, 'x');
  const size_t before = openDescriptors();
  for (int i = 0; i < 50; ++i) {
    EXPECT_THAT(inputErrorOf([&] { RecordingReader reader(truncated.string()); }), HasSubstr("is truncated"));
    EXPECT_THAT(inputErrorOf([&] { RecordingReader reader(foreign.string()); }), HasSubstr("is not a weft recording"));
  }
  EXPECT_EQ(openDescriptors(), before);
  fs::remove(truncated);
  fs::remove(foreign);
}

TEST(HostileFiles, DevicesAreRefusedUnreadByEveryReader) {
  EXPECT_THAT(inputErrorOf([] { loadScene("/dev/zero"); }),
              HasSubstr("cannot open scene file '/dev/zero': it is not a regular file"));
  MeshSpec mesh;
  mesh.path = "/dev/zero";
  EXPECT_THAT(inputErrorOf([&] { loadMesh(mesh, Material{}); }),
              HasSubstr("cannot read mesh '/dev/zero': it is not a regular file"));
  EXPECT_THAT(inputErrorOf([] { RecordingReader reader("/dev/zero"); }),
              HasSubstr("cannot open recording '/dev/zero': it is not a regular file"));
}

TEST(HostileFiles, FilesOverTheirKindsLimitAreRefusedUnread) {
  // Sparse files of zeros: long, but they cost no disk.
  const fs::path scene = fs::path(testing::TempDir()) / "weft_huge.json";
  std::ofstream(scene) << "{}";
  fs::resize_file(scene, kMaxSceneBytes + 1);
  std::string message = inputErrorOf([&] { loadScene(scene.string()); });
  EXPECT_THAT(message, HasSubstr("cannot open scene file '" + scene.string() + "': it is larger than the limit of 16 MiB"));
  expectPlainSentence(message);
  fs::resize_file(scene, kMaxSceneBytes);  // at the limit it is read, and the zeros after "{}" are not JSON
  EXPECT_THAT(inputErrorOf([&] { loadScene(scene.string()); }), HasSubstr("weft_huge.json: malformed JSON at line 1, column 3"));
  fs::remove(scene);

  MeshSpec mesh;
  mesh.path = (fs::path(testing::TempDir()) / "weft_huge.obj").string();
  std::ofstream(mesh.path) << "v 0 0 0\n";
  fs::resize_file(mesh.path, kMaxObjBytes + 1);
  message = inputErrorOf([&] { loadMesh(mesh, Material{}); });
  EXPECT_THAT(message, HasSubstr("cannot read mesh '" + mesh.path + "': it is larger than the limit of 512 MiB"));
  expectPlainSentence(message);
  fs::remove(mesh.path);
}

}  // namespace
}  // namespace weft
