// Recording and playback: frames come back bit for bit; damaged files are refused with a sentence
// that says what is wrong, and an unfinished recording leaves no file behind.
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>

#include "engine/error.h"
#include "input_error.h"
#include "solver/io/recording.h"
#include "test_support.h"

namespace weft::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

fs::path tempPath(const std::string& name) { return fs::path(::testing::TempDir()) / name; }

// Records `frames` frames of a falling, swinging grid on the CPU backend; returns what was recorded.
std::vector<std::vector<glm::vec4>> recordRun(const fs::path& path, int frames) {
  GridSpec grid;
  grid.width = 9;
  grid.height = 7;
  ClothModel model = buildGrid(grid, Material{});
  pinParticles(model, gridCorners(model, CornerPreset::One));
  auto solver = makeSolver(model, SolverParams{}, Backend::Cpu);
  RecordingWriter writer(path.string(), static_cast<uint32_t>(model.particleCount()), model.triangles, 1.f / 60.f, 4);
  std::vector<std::vector<glm::vec4>> recorded;
  std::vector<glm::vec4> x, v;
  for (int f = 0; f < frames; ++f) {
    solver->advance(1.f / 60.f, 4);
    solver->readState(x, v);
    writer.addFrame(x);
    recorded.push_back(x);
  }
  writer.finish();
  return recorded;
}


TEST(Recording, ReplayedPositionsEqualRecordedOnesBitForBit) {
  fs::path path = tempPath("roundtrip.weftrec");
  auto recorded = recordRun(path, 20);
  RecordingReader reader(path.string());
  EXPECT_EQ(reader.header().frameCount, 20u);
  EXPECT_EQ(reader.header().particleCount, 63u);
  EXPECT_EQ(reader.header().triangleCount, 2u * 8u * 6u);
  EXPECT_EQ(reader.header().substeps, 4u);
  EXPECT_FLOAT_EQ(reader.header().frameDt, 1.f / 60.f);
  for (uint32_t f = 0; f < 20; ++f) {
    std::vector<glm::vec4> replayed = reader.frame(f);
    ASSERT_EQ(replayed.size(), recorded[f].size());
    for (size_t i = 0; i < replayed.size(); ++i)
      ASSERT_EQ(glm::vec3(replayed[i]), glm::vec3(recorded[f][i])) << "frame " << f << " particle " << i;
  }
  // and the cloth moved between frames, so equality is not between constant frames
  EXPECT_NE(glm::vec3(reader.frame(0).back()), glm::vec3(reader.frame(19).back()));
}

TEST(Recording, TruncatedFileIsRefused) {
  fs::path path = tempPath("truncated.weftrec");
  recordRun(path, 5);
  fs::resize_file(path, fs::file_size(path) - 7);
  EXPECT_THAT(inputErrorOf([&] { RecordingReader reader(path.string()); }), HasSubstr("is truncated"));
  fs::resize_file(path, 20);
  EXPECT_THAT(inputErrorOf([&] { RecordingReader reader(path.string()); }), HasSubstr("header is incomplete"));
}

TEST(Recording, FlippedByteIsFoundAtItsFrame) {
  fs::path path = tempPath("corrupt.weftrec");
  recordRun(path, 6);
  RecordingReader intact(path.string());
  const uint64_t frameBytes = 4 + 63 * 12 + 4;  // kind word, positions, checksum (version 2)
  const uint64_t framesStart = fs::file_size(path) - 6 * frameBytes;
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(framesStart + 3 * frameBytes + 100));
    char byte = 0x5a;
    file.write(&byte, 1);
  }
  RecordingReader reader(path.string());
  EXPECT_NO_THROW(reader.frame(2));
  EXPECT_THAT(inputErrorOf([&] { reader.frame(3); }), HasSubstr("corrupt at frame 3"));
}

TEST(Recording, TrailingBytesAndForeignFilesAreRefused) {
  fs::path path = tempPath("trailing.weftrec");
  recordRun(path, 2);
  std::ofstream(path, std::ios::app | std::ios::binary) << "xyz";
  EXPECT_THAT(inputErrorOf([&] { RecordingReader reader(path.string()); }), HasSubstr("bytes follow its last frame"));
  fs::path foreign = tempPath("foreign.weftrec");
  std::ofstream(foreign) << std::string(100, 'a');
  EXPECT_THAT(inputErrorOf([&] { RecordingReader reader(foreign.string()); }), HasSubstr("is not a weft recording"));
  EXPECT_THAT(inputErrorOf([&] { RecordingReader reader("/nonexistent/x.weftrec"); }), HasSubstr("cannot open recording"));
}

TEST(Recording, UnfinishedRecordingLeavesNoFile) {
  fs::path path = tempPath("unfinished.weftrec");
  fs::remove(path);
  {
    RecordingWriter writer(path.string(), 3, {}, 0.1f, 1);
    writer.addFrame(std::vector<glm::vec4>(3, glm::vec4(1.f)));
  }  // destroyed without finish(): as if the run had stopped half-way
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
}

}  // namespace
}  // namespace weft::test
