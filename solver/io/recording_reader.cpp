// RecordingReader: versions 1 and 2 of the format (docs/recording-format.md), and recordedCloth.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "weft/errors.h"
#include "solver/io/input_file.h"
#include "solver/io/recording.h"
#include "solver/io/recording_format.h"
#include "solver/model/shown_text.h"

namespace weft {
namespace {

using namespace recording_format;

uint64_t positionsBytes(uint32_t particles) { return uint64_t{particles} * 3 * sizeof(float); }

bool readAt(FILE* file, uint64_t offset, void* data, size_t bytes) {
  return std::fseek(file, static_cast<long>(offset), SEEK_SET) == 0 && std::fread(data, 1, bytes, file) == bytes;
}

bool indexesPast(const glm::uvec3& t, uint32_t particles) {
  return t.x >= particles || t.y >= particles || t.z >= particles;
}

enum class TriangleCheck { kFit, kShort, kPastParticles };

// Reads `count` triangles from where the file stands, a bounded chunk at a time: a list's length is
// checked against the file's, but a sparse file can be that long without the bytes being on disk,
// and the scan keeps none of them.
TriangleCheck checkTriangles(FILE* file, uint64_t count, uint32_t particles) {
  std::vector<glm::uvec3> chunk(std::min<uint64_t>(count, 1u << 16));
  for (uint64_t done = 0; done < count;) {
    const size_t n = std::min<uint64_t>(chunk.size(), count - done);
    if (std::fread(chunk.data(), sizeof(glm::uvec3), n, file) != n) return TriangleCheck::kShort;
    for (size_t i = 0; i < n; ++i)
      if (indexesPast(chunk[i], particles)) return TriangleCheck::kPastParticles;
    done += n;
  }
  return TriangleCheck::kFit;
}

}  // namespace

RecordingReader::RecordingReader(const std::string& path)
    : path_(path), name_("recording '" + shownPath(path) + "'") {
  // No size limit of its own: the header says how long the file must be, and that is checked.
  uint64_t actual = 0;
  file_.reset(openInputFile(path, {"cannot open recording", UINT64_MAX}, actual));
  uint8_t header[kHeaderBytes];
  if (std::fread(header, 1, sizeof header, file_.get()) != sizeof header)
    throw InputError(name_ + " is truncated: its header is incomplete");
  if (std::memcmp(header, kMagic, 8) != 0) throw InputError("'" + shownPath(path) + "' is not a weft recording");
  uint32_t fields[6];
  std::memcpy(fields, header + 8, sizeof fields);
  header_.version = fields[0];
  header_.particleCount = fields[1];
  header_.frameCount = fields[2];
  header_.triangleCount = fields[3];
  std::memcpy(&header_.frameDt, header + 8 + 4 * sizeof(uint32_t), sizeof(float));
  header_.substeps = fields[5];
  if (header_.version != kVersion1 && header_.version != kVersion2)
    throw InputError(name_ + " has version " + std::to_string(header_.version) + "; this weft reads versions " +
                     std::to_string(kVersion1) + " and " + std::to_string(kVersion2));
  framesOffset_ = kHeaderBytes + uint64_t{header_.triangleCount} * sizeof(glm::uvec3);  // < 2^36
  if (header_.version == kVersion1) checkVersion1Length(actual);
  // The file may be sparse: the limits keep one frame or the triangle list from taking gigabytes.
  if (header_.particleCount > kMaxParticles)
    throw InputError(name_ + " holds " + std::to_string(header_.particleCount) + " particles, more than the limit of " +
                     std::to_string(kMaxParticles));
  if (header_.triangleCount > kMaxTriangles)
    throw InputError(name_ + " holds " + std::to_string(header_.triangleCount) + " triangles, more than the limit of " +
                     std::to_string(kMaxTriangles));
  if (framesOffset_ > actual) throw InputError(name_ + " is truncated in its triangles");
  triangles_.resize(header_.triangleCount);
  if (std::fread(triangles_.data(), sizeof(glm::uvec3), triangles_.size(), file_.get()) != triangles_.size())
    throw InputError(name_ + " is truncated in its triangles");
  for (const glm::uvec3& t : triangles_)
    if (indexesPast(t, header_.particleCount))
      throw InputError(name_ + " is corrupt: a triangle indexes past its particles");
  segments_.push_back({0, header_.particleCount, framesOffset_, plainFrameBytes(header_.particleCount)});
  if (header_.version == kVersion2) scanVersion2Frames(actual);
}

uint64_t RecordingReader::plainFrameBytes(uint32_t particles) const {
  const uint64_t kind = header_.version == kVersion1 ? 0 : sizeof(uint32_t);
  return kind + positionsBytes(particles) + sizeof(uint32_t);
}

// Version 1: every frame has the header's particle count, so the file's length follows from the
// header alone. In 64 bits the frames' size can wrap round to the file's own size: checked, not trusted.
void RecordingReader::checkVersion1Length(uint64_t actual) {
  uint64_t framesSize = 0, expected = 0;
  if (__builtin_mul_overflow(uint64_t{header_.frameCount}, plainFrameBytes(header_.particleCount), &framesSize) ||
      __builtin_add_overflow(framesOffset_, framesSize, &expected))
    throw InputError(name_ + " is corrupt: its header promises " + std::to_string(header_.frameCount) +
                     " frames of " + std::to_string(header_.particleCount) + " particles, more than 2^64 bytes");
  if (actual < expected)
    throw InputError(name_ + " is truncated: " + std::to_string(header_.frameCount) + " frames need " +
                     std::to_string(expected) + " bytes, the file has " + std::to_string(actual));
  if (actual > expected)
    throw InputError(name_ + " is corrupt: " + std::to_string(actual - expected) + " bytes follow its last frame");
}

// Version 2: frames differ in length, so each one's kind word is read, and each topology block's
// counts and triangles checked, walking the file once. Every offset stays within `actual`, so no
// sum can overflow; only the topology changes are kept, so memory follows the bytes the file holds.
void RecordingReader::scanVersion2Frames(uint64_t actual) {
  const std::string frames = std::to_string(header_.frameCount);
  uint32_t particles = header_.particleCount;
  // Every frame is at least a plain frame of frame 0's particles (< 2^28 bytes, times < 2^32 frames):
  // a frame count the file cannot hold is refused before the walk, which then takes time in
  // proportion to the file's length.
  const uint64_t least = framesOffset_ + uint64_t{header_.frameCount} * plainFrameBytes(particles);
  if (least > actual)
    throw InputError(name_ + " is truncated: " + frames + " frames need at least " + std::to_string(least) +
                     " bytes, the file has " + std::to_string(actual));
  uint64_t offset = framesOffset_;
  for (uint32_t k = 0; k < header_.frameCount; ++k) {
    // Messages are built only when thrown: the walk may cover millions of frames.
    auto frame = [&] { return "frame " + std::to_string(k); };
    auto truncated = [&] { return InputError(name_ + " is truncated in " + frame() + " of " + frames); };
    uint32_t head[3] = {};  // kind, then a topology block's particle and triangle counts
    if (actual - offset < sizeof(uint32_t) || !readAt(file_.get(), offset, head, sizeof(uint32_t))) throw truncated();
    uint64_t bytes = plainFrameBytes(particles);
    if (head[0] == kTopologyFrame) {
      if (k == 0) throw InputError(name_ + " is corrupt: frame 0 changes the topology its header holds");
      if (actual - offset < sizeof head || std::fread(head + 1, sizeof(uint32_t), 2, file_.get()) != 2)
        throw truncated();
      const uint32_t count = head[1], triangles = head[2];
      if (count < particles)
        throw InputError(name_ + " is corrupt: " + frame() + " has " + std::to_string(count) +
                         " particles, fewer than the " + std::to_string(particles) + " before it");
      if (count > kMaxParticles)
        throw InputError(name_ + " holds " + std::to_string(count) + " particles at " + frame() +
                         ", more than the limit of " + std::to_string(kMaxParticles));
      if (triangles > kMaxTriangles)
        throw InputError(name_ + " holds " + std::to_string(triangles) + " triangles at " + frame() +
                         ", more than the limit of " + std::to_string(kMaxTriangles));
      bytes = sizeof head + uint64_t{triangles} * sizeof(glm::uvec3) + plainFrameBytes(count) - sizeof(uint32_t);
      if (actual - offset < bytes) throw truncated();
      const TriangleCheck check = checkTriangles(file_.get(), triangles, count);
      if (check == TriangleCheck::kShort) throw truncated();
      if (check == TriangleCheck::kPastParticles)
        throw InputError(name_ + " is corrupt: a triangle of " + frame() + " indexes past its " +
                         std::to_string(count) + " particles");
      particles = count;
      segments_.push_back({k, particles, offset, bytes});
    } else if (head[0] != kPlainFrame) {
      throw InputError(name_ + " is corrupt: " + frame() + " starts with an unknown kind (" +
                       std::to_string(head[0]) + ")");
    }
    if (actual - offset < bytes) throw truncated();
    offset += bytes;
  }
  if (actual > offset)
    throw InputError(name_ + " is corrupt: " + std::to_string(actual - offset) + " bytes follow its last frame");
}

const RecordingReader::Segment& RecordingReader::segmentOf(uint32_t k) const {
  if (k >= header_.frameCount) throw std::out_of_range("recording frame index");
  auto after = std::upper_bound(segments_.begin(), segments_.end(), k,
                                [](uint32_t frame, const Segment& s) { return frame < s.firstFrame; });
  return *(after - 1);  // segments_[0] starts at frame 0
}

std::vector<uint8_t> RecordingReader::readFrame(uint32_t k, uint64_t offset, uint64_t bytes) const {
  std::vector<uint8_t> data(bytes);
  if (!readAt(file_.get(), offset, data.data(), data.size()))
    throw InputError(name_ + " is truncated at frame " + std::to_string(k));
  uint32_t stored = 0;
  std::memcpy(&stored, data.data() + bytes - sizeof stored, sizeof stored);
  if (checksum(data.data(), bytes - sizeof stored) != stored)
    throw InputError(name_ + " is corrupt at frame " + std::to_string(k) + " (checksum mismatch)");
  return data;
}

std::vector<glm::vec4> RecordingReader::frame(uint32_t k) const {
  const Segment& s = segmentOf(k);
  const uint64_t plain = plainFrameBytes(s.particleCount);
  const bool first = k == s.firstFrame;
  const uint64_t offset = first ? s.offset : s.offset + s.firstBytes + (k - s.firstFrame - 1) * plain;
  const std::vector<uint8_t> data = readFrame(k, offset, first ? s.firstBytes : plain);
  // The positions end every frame, just before its checksum.
  const uint8_t* xyz = data.data() + data.size() - sizeof(uint32_t) - positionsBytes(s.particleCount);
  std::vector<glm::vec4> positions(s.particleCount);
  for (size_t i = 0; i < positions.size(); ++i) {
    float p[3];
    std::memcpy(p, xyz + i * sizeof p, sizeof p);
    positions[i] = glm::vec4(p[0], p[1], p[2], 0.f);
  }
  return positions;
}

RecordedTopology RecordingReader::topology(uint32_t k) const {
  const Segment& s = segmentOf(k);
  if (s.firstFrame == 0) return {header_.particleCount, triangles_};
  const std::vector<uint8_t> data = readFrame(s.firstFrame, s.offset, s.firstBytes);
  uint32_t head[3];
  std::memcpy(head, data.data(), sizeof head);
  const uint64_t triangles = (s.firstBytes - sizeof head - plainFrameBytes(s.particleCount) + sizeof(uint32_t)) /
                             sizeof(glm::uvec3);
  // The scan checked these bytes; a file rewritten since then is refused, not trusted.
  if (head[0] != kTopologyFrame || head[1] != s.particleCount || head[2] != triangles)
    throw InputError(name_ + " changed while it was being read");
  RecordedTopology topology{s.particleCount, std::vector<glm::uvec3>(triangles)};
  if (triangles > 0)  // a cloth may tear to no triangles at all; memcpy may not take an empty vector's null
    std::memcpy(topology.triangles.data(), data.data() + sizeof head, triangles * sizeof(glm::uvec3));
  for (const glm::uvec3& t : topology.triangles)
    if (indexesPast(t, s.particleCount)) throw InputError(name_ + " changed while it was being read");
  return topology;
}

ClothModel recordedCloth(const RecordedTopology& topology, const std::vector<glm::vec4>& positions) {
  const uint32_t n = topology.particleCount;
  ClothModel model;
  model.positions.resize(n);
  for (size_t i = 0; i < positions.size() && i < n; ++i) model.positions[i] = glm::vec3(positions[i]);
  model.triangles = topology.triangles;
  model.masses.assign(n, 1.f);
  model.pinned.assign(n, 0);
  return model;
}

ClothModel recordedCloth(const RecordingReader& recording, const std::vector<glm::vec4>& positions) {
  return recordedCloth(RecordedTopology{recording.header().particleCount, recording.triangles()}, positions);
}

}  // namespace weft
