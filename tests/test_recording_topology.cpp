// Recordings whose topology changes (version 2 of docs/recording-format.md): the writer's bytes are
// the documented layout, every frame comes back with its own particle count and triangles, version 1
// files still read, and each lie a file can tell is refused with an InputError naming the file.
#include <gmock/gmock.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "engine/error.h"
#include "input_error.h"
#include "solver/io/recording.h"

namespace weft::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr float kFrameDt = 0.05f;
constexpr uint32_t kSubsteps = 3;

// Frame `frame`'s positions: distinct per frame and particle, with a negative zero and a subnormal
// among them, so "bit for bit" means more than equal as floats.
std::vector<glm::vec4> positionsOf(uint32_t frame, uint32_t count) {
  std::vector<glm::vec4> p(count);
  for (uint32_t i = 0; i < count; ++i)
    p[i] = glm::vec4(0.25f * float(i) + 0.001f * float(frame), float(frame), -1.5f, 7.f);
  if (count > 1) p[0].x = -0.f, p[1].y = 1e-40f;
  return p;
}

// A recording assembled byte by byte as docs/recording-format.md lays it out, without
// RecordingWriter: the writer is held to it, and the reader is shown files no writer makes.
class RecordingBytes {
 public:
  RecordingBytes(uint32_t version, uint32_t particles, const std::vector<glm::uvec3>& triangles) : version_(version) {
    for (char c : std::string_view("WEFTREC\0", 8)) bytes_.push_back(uint8_t(c));
    for (uint32_t field : {version, particles, 0u, uint32_t(triangles.size()), std::bit_cast<uint32_t>(kFrameDt),
                           kSubsteps})
      u32(field);
    bytes_.resize(64, 0);
    for (const glm::uvec3& t : triangles) u32(t.x), u32(t.y), u32(t.z);
  }
  void u32(uint32_t value) {
    for (int b = 0; b < 4; ++b) bytes_.push_back(uint8_t(value >> (8 * b)));  // little-endian
  }
  // Overwrites the word at `at`, as a damaged or lying file would hold it.
  void patch(size_t at, uint32_t value) {
    for (int b = 0; b < 4; ++b) bytes_.at(at + b) = uint8_t(value >> (8 * b));
  }
  // Sets the header's frame count (frame() counts the frames it adds).
  void setFrameCount(uint32_t frames) { patch(16, frames); }
  // A frame of `positions`; with `triangles` (version 2), a topology block for positions.size()
  // particles. The checksum covers every byte from the frame's start.
  void frame(const std::vector<glm::vec4>& positions, const std::vector<glm::uvec3>* triangles = nullptr) {
    const size_t start = bytes_.size();
    frameStarts_.push_back(start);
    if (version_ == 2) u32(triangles ? 1 : 0);
    if (triangles) {
      u32(uint32_t(positions.size()));
      u32(uint32_t(triangles->size()));
      for (const glm::uvec3& t : *triangles) u32(t.x), u32(t.y), u32(t.z);
    }
    for (const glm::vec4& p : positions) u32(std::bit_cast<uint32_t>(p.x)), u32(std::bit_cast<uint32_t>(p.y)),
                                         u32(std::bit_cast<uint32_t>(p.z));
    uint32_t hash = 2166136261u;  // FNV-1a
    for (size_t i = start; i < bytes_.size(); ++i) hash = (hash ^ bytes_[i]) * 16777619u;
    u32(hash);
    setFrameCount(uint32_t(frameStarts_.size()));
  }
  size_t frameStart(size_t k) const { return frameStarts_.at(k); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  fs::path save(const std::string& name, size_t keep = SIZE_MAX) const {
    const fs::path path = fs::path(::testing::TempDir()) / name;
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes_.data()), std::streamsize(std::min(keep, bytes_.size())));
    return path;
  }

 private:
  uint32_t version_;
  std::vector<uint8_t> bytes_;
  std::vector<size_t> frameStarts_;
};

std::vector<uint8_t> fileBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The message a reader of `path` refuses it with; it must name the file.
std::string refusal(const fs::path& path) {
  const std::string message = inputErrorOf([&] { RecordingReader reader(path.string()); });
  EXPECT_THAT(message, HasSubstr("recording '" + path.string() + "'"));
  return message;
}

// A cloth of 4 particles that tears twice (6 particles, then 9) and once only rewires its triangles:
// frame k's particle count and triangles.
struct Step {
  uint32_t particles;
  std::vector<glm::uvec3> triangles;
  bool changed;
};
const std::vector<Step>& tearingSteps() {
  static const std::vector<Step> steps = {
      {4, {{0, 1, 2}, {1, 3, 2}}, false},
      {4, {{0, 1, 2}, {1, 3, 2}}, false},
      {6, {{0, 1, 4}, {1, 3, 2}, {4, 5, 2}}, true},
      {6, {{0, 1, 4}, {1, 3, 2}, {4, 5, 2}}, false},
      {6, {{5, 4, 3}}, true},
      {6, {{5, 4, 3}}, false},
      {9, {}, true},
      {9, {}, false},
  };
  return steps;
}

TEST(RecordingTopology, WriterRoundTripKeepsEachFramesPositionsAndTopology) {
  const fs::path path = fs::path(::testing::TempDir()) / "tearing.weftrec";
  const auto& steps = tearingSteps();
  RecordingBytes expected(2, steps[0].particles, steps[0].triangles);
  {
    RecordingWriter writer(path.string(), steps[0].particles, steps[0].triangles, kFrameDt, kSubsteps);
    for (uint32_t k = 0; k < steps.size(); ++k) {
      const auto* triangles = steps[k].changed ? &steps[k].triangles : nullptr;
      writer.addFrame(positionsOf(k, steps[k].particles), triangles);
      expected.frame(positionsOf(k, steps[k].particles), triangles);
    }
    writer.finish();
  }
  // The writer's file is the documented layout, byte for byte: 64 + 24 header bytes, 56-byte plain
  // frames of 4 particles, a 124-byte change to 6 particles and 3 triangles, ...
  const std::vector<uint8_t> written = fileBytes(path);
  EXPECT_EQ(written.size(), 88u + 56 + 56 + 124 + 80 + 100 + 80 + 124 + 116);
  EXPECT_EQ(written, expected.bytes());

  RecordingReader reader(path.string());
  EXPECT_EQ(reader.header().version, 2u);
  EXPECT_EQ(reader.header().particleCount, 4u);
  EXPECT_EQ(reader.header().triangleCount, 2u);
  EXPECT_EQ(reader.header().frameCount, steps.size());
  EXPECT_EQ(reader.header().substeps, kSubsteps);
  EXPECT_EQ(reader.topologyChanges(), 3u);
  EXPECT_EQ(reader.maxParticleCount(), 9u);
  for (uint32_t k = 0; k < steps.size(); ++k) {
    const std::vector<glm::vec4> stored = positionsOf(k, steps[k].particles), read = reader.frame(k);
    ASSERT_EQ(read.size(), steps[k].particles) << "frame " << k;
    for (size_t i = 0; i < read.size(); ++i)
      for (int c = 0; c < 3; ++c)
        ASSERT_EQ(std::bit_cast<uint32_t>(read[i][c]), std::bit_cast<uint32_t>(stored[i][c])) << k << " " << i;
    EXPECT_EQ(reader.particleCount(k), steps[k].particles);
    const RecordedTopology topology = reader.topology(k);
    EXPECT_EQ(topology.particleCount, steps[k].particles) << "frame " << k;
    EXPECT_EQ(topology.triangles, steps[k].triangles) << "frame " << k;
  }
  const ClothModel last = recordedCloth(reader.topology(7), reader.frame(7));
  EXPECT_EQ(last.particleCount(), 9u);
  EXPECT_TRUE(last.triangles.empty());
}

TEST(RecordingTopology, WriterRefusesAFrameItsReaderWouldRefuse) {
  const fs::path path = fs::path(::testing::TempDir()) / "refused_by_writer.weftrec";
  const std::vector<glm::uvec3> triangles = {{0, 1, 2}};
  RecordingWriter writer(path.string(), 3, triangles, kFrameDt, kSubsteps);
  EXPECT_THROW(writer.addFrame(positionsOf(0, 3), &triangles), std::invalid_argument);  // frame 0: the header's
  writer.addFrame(positionsOf(0, 3));
  EXPECT_THROW(writer.addFrame(positionsOf(1, 4)), std::invalid_argument);  // a new count needs its triangles
  const std::vector<glm::uvec3> within2 = {{0, 1, 1}};
  EXPECT_THROW(writer.addFrame(positionsOf(1, 2), &within2), std::invalid_argument);  // fewer particles
  const std::vector<glm::uvec3> past = {{0, 1, 4}};
  EXPECT_THROW(writer.addFrame(positionsOf(1, 4), &past), std::invalid_argument);  // index 4 of 4 particles
  EXPECT_EQ(writer.frameCount(), 1u);
}

TEST(RecordingTopology, Version1FilesStillRead) {
  RecordingBytes v1(1, 3, {{0, 1, 2}});
  for (uint32_t k = 0; k < 3; ++k) v1.frame(positionsOf(k, 3));
  const fs::path path = v1.save("version1.weftrec");
  EXPECT_EQ(fs::file_size(path), 64u + 12 + 3 * (36 + 4));  // no kind word in version 1
  RecordingReader reader(path.string());
  EXPECT_EQ(reader.header().version, 1u);
  EXPECT_EQ(reader.topologyChanges(), 0u);
  EXPECT_EQ(reader.maxParticleCount(), 3u);
  for (uint32_t k = 0; k < 3; ++k) {
    const std::vector<glm::vec4> read = reader.frame(k), stored = positionsOf(k, 3);
    ASSERT_EQ(read.size(), 3u);
    for (size_t i = 0; i < 3; ++i)
      for (int c = 0; c < 3; ++c) EXPECT_EQ(std::bit_cast<uint32_t>(read[i][c]), std::bit_cast<uint32_t>(stored[i][c]));
    EXPECT_EQ(reader.topology(k).triangles, (std::vector<glm::uvec3>{{0, 1, 2}}));
  }
}

// 4 particles, then a tear to 6 in frame 2 with the triangles given, then a plain frame of 6.
RecordingBytes tornAtFrame2(const std::vector<glm::uvec3>& triangles = {{0, 1, 4}, {1, 3, 2}, {4, 5, 2}},
                            uint32_t particles = 6) {
  RecordingBytes file(2, 4, {{0, 1, 2}});
  file.frame(positionsOf(0, 4));
  file.frame(positionsOf(1, 4));
  file.frame(positionsOf(2, particles), &triangles);
  file.frame(positionsOf(3, particles));
  return file;
}

TEST(RecordingTopology, TheFilesThatRefusalsStartFromRead) {
  RecordingReader reader(tornAtFrame2().save("torn.weftrec").string());
  EXPECT_EQ(reader.maxParticleCount(), 6u);
  EXPECT_EQ(reader.topology(3).triangles.size(), 3u);
}

TEST(RecordingTopology, TruncatedInsideATopologyBlockIsRefused) {
  // 20 triangles: the file cut in them or in the positions after them still holds the 300 bytes four
  // frames of 4 particles need at least, so the walk through the frames finds the cut in frame 2.
  std::vector<glm::uvec3> triangles;
  for (uint32_t i = 0; i < 20; ++i) triangles.push_back({i % 6, (i + 1) % 6, (i + 2) % 6});
  const RecordingBytes file = tornAtFrame2(triangles);
  const size_t block = file.frameStart(2);
  for (size_t keep : {block + 12 + 150, block + 12 + 240 + 30}) {
    const fs::path path = file.save("cut_in_block.weftrec", keep);
    EXPECT_THAT(refusal(path), HasSubstr("is truncated in frame 2 of 4")) << "cut at " << keep;
  }
  // Cut between the kind and the counts: shorter than that minimum, refused before the walk.
  EXPECT_THAT(refusal(file.save("cut_in_block.weftrec", block + 6)),
              HasSubstr("is truncated: 4 frames need at least 300 bytes, the file has 194"));
}

TEST(RecordingTopology, TriangleIndexPastItsFramesParticlesIsRefused) {
  // Index 5 would be past frame 0's 4 particles but is within frame 2's 6; index 6 is not.
  const fs::path path = tornAtFrame2({{0, 1, 5}, {6, 3, 2}}).save("past.weftrec");
  EXPECT_THAT(refusal(path), HasSubstr("is corrupt: a triangle of frame 2 indexes past its 6 particles"));
}

TEST(RecordingTopology, DecreasingParticleCountIsRefused) {
  // Two triangles keep the file as long as four frames of 4 particles need at least (300 bytes).
  const fs::path path = tornAtFrame2({{0, 1, 2}, {2, 1, 0}}, 3).save("fewer.weftrec");
  EXPECT_THAT(refusal(path), HasSubstr("is corrupt: frame 2 has 3 particles, fewer than the 4 before it"));
}

TEST(RecordingTopology, CountsPastTheLimitsAreRefused) {
  // Frame 1 claims 2^24 + 1 particles, or 2^26 + 1 triangles, and stops there: refused on the count,
  // before any length is trusted or any list read.
  using Claim = std::tuple<uint32_t, uint32_t, const char*>;  // particles, triangles, refusal
  for (auto [particles, triangles, expected] :
       {Claim{kMaxParticles + 1, 0, "holds 16777217 particles at frame 1, more than the limit of 16777216"},
        Claim{5, 4 * kMaxParticles + 1, "holds 67108865 triangles at frame 1, more than the limit of 67108864"}}) {
    RecordingBytes file(2, 4, {});
    file.frame(positionsOf(0, 4));
    file.u32(1);
    file.u32(particles);
    file.u32(triangles);
    file.setFrameCount(2);
    for (int i = 0; i < 15; ++i) file.u32(0);  // as long as two frames of 4 particles need at least
    EXPECT_THAT(refusal(file.save("over_limit.weftrec")), HasSubstr(expected));
  }
}

TEST(RecordingTopology, TrailingBytesAreRefused) {
  RecordingBytes file = tornAtFrame2();
  file.u32(0);
  EXPECT_THAT(refusal(file.save("trailing2.weftrec")), HasSubstr("is corrupt: 4 bytes follow its last frame"));
}

TEST(RecordingTopology, AFrameCountTheFileCannotHoldIsRefusedBeforeTheWalk) {
  RecordingBytes file = tornAtFrame2();
  file.setFrameCount(UINT32_MAX);  // 4 billion frames of at least 56 bytes: 240 GB
  EXPECT_THAT(refusal(file.save("many_frames.weftrec")),
              HasSubstr("is truncated: 4294967295 frames need at least 240518168596 bytes, the file has 392"));
}

TEST(RecordingTopology, UnknownKindsAndATopologyInFrame0AreRefused) {
  RecordingBytes file = tornAtFrame2();
  file.frame(positionsOf(4, 6));
  file.patch(file.frameStart(4), 7);
  EXPECT_THAT(refusal(file.save("unknown_kind.weftrec")),
              HasSubstr("is corrupt: frame 4 starts with an unknown kind (7)"));

  RecordingBytes first(2, 3, {});
  const std::vector<glm::uvec3> triangles = {{0, 1, 2}};
  first.frame(positionsOf(0, 3), &triangles);
  EXPECT_THAT(refusal(first.save("frame0_block.weftrec")),
              HasSubstr("is corrupt: frame 0 changes the topology its header holds"));
}

TEST(RecordingTopology, ABadChecksumInATopologyFrameIsFoundWhereverItIsRead) {
  RecordingBytes file = tornAtFrame2({{0, 1, 4}, {1, 3, 2}, {4, 5, 2}});
  // Triangle (1, 3, 2) becomes (1, 3, 3): still within the 6 particles, so the scan passes it and
  // only the checksum tells.
  file.patch(file.frameStart(2) + 12 + 12 + 8, 3);
  RecordingReader reader(file.save("bad_checksum.weftrec").string());
  EXPECT_EQ(reader.frame(1).size(), 4u);
  EXPECT_EQ(reader.frame(3).size(), 6u);  // a plain frame of its own, intact
  const std::string where = "recording '" + (fs::path(::testing::TempDir()) / "bad_checksum.weftrec").string() +
                            "' is corrupt at frame 2 (checksum mismatch)";
  EXPECT_THAT(inputErrorOf([&] { reader.frame(2); }), HasSubstr(where));
  EXPECT_THAT(inputErrorOf([&] { reader.topology(3); }), HasSubstr(where));  // frame 3's topology came with frame 2
  EXPECT_EQ(reader.topology(1).triangles.size(), 1u);
}

}  // namespace
}  // namespace weft::test
