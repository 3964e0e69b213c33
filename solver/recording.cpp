#include "solver/recording.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "engine/error.h"
#include "solver/input_file.h"
#include "solver/shown_text.h"

namespace weft {
namespace {

constexpr char kMagic[8] = {'W', 'E', 'F', 'T', 'R', 'E', 'C', '\0'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeaderBytes = 64;  // magic, six 32-bit fields, zero padding
constexpr size_t kFrameCountOffset = 16;

// FNV-1a over a frame's bytes: cheap, and any flipped bit changes it.
uint32_t checksum(const void* data, size_t bytes) {
  uint32_t hash = 2166136261u;
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 16777619u;
  return hash;
}

uint64_t frameBytes(uint32_t particles) { return uint64_t{particles} * 3 * sizeof(float) + sizeof(uint32_t); }

// A recording holds one cloth: at most kMaxParticles particles, and triangles as the model's
// limit allows (a grid has fewer than two per particle, a closed mesh of genus g 2 N - 4 + 4 g).
constexpr uint64_t kMaxTriangles = 4 * uint64_t{kMaxParticles};

}  // namespace

RecordingWriter::RecordingWriter(const std::string& path, uint32_t particleCount,
                                 const std::vector<glm::uvec3>& triangles, float frameDt, uint32_t substeps)
    : path_(path), tmpPath_(path + ".tmp"), particleCount_(particleCount) {
  file_ = std::fopen(tmpPath_.c_str(), "wb");
  if (!file_) throw InputError("cannot write recording '" + path + "': " + std::strerror(errno));
  uint8_t header[kHeaderBytes] = {};
  std::memcpy(header, kMagic, 8);
  const uint32_t fields[6] = {kVersion, particleCount, 0, static_cast<uint32_t>(triangles.size()), 0, substeps};
  std::memcpy(header + 8, fields, sizeof fields);
  std::memcpy(header + 8 + 4 * sizeof(uint32_t), &frameDt, sizeof(float));
  write(header, sizeof header);
  write(triangles.data(), triangles.size() * sizeof(glm::uvec3));
}

RecordingWriter::~RecordingWriter() {
  if (file_) {
    std::fclose(file_);
    std::error_code error;
    std::filesystem::remove(tmpPath_, error);
  }
}

void RecordingWriter::write(const void* data, size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, file_) != bytes)
    throw InputError("cannot write recording '" + path_ + "': " + std::strerror(errno));
}

void RecordingWriter::addFrame(const std::vector<glm::vec4>& positions) {
  if (positions.size() != particleCount_) throw std::invalid_argument("frame has the wrong particle count");
  std::vector<float> xyz(positions.size() * 3);
  for (size_t i = 0; i < positions.size(); ++i) {
    xyz[3 * i] = positions[i].x;
    xyz[3 * i + 1] = positions[i].y;
    xyz[3 * i + 2] = positions[i].z;
  }
  uint32_t sum = checksum(xyz.data(), xyz.size() * sizeof(float));
  write(xyz.data(), xyz.size() * sizeof(float));
  write(&sum, sizeof sum);
  ++frames_;
}

void RecordingWriter::finish() {
  if (!file_) return;
  bool ok = std::fseek(file_, kFrameCountOffset, SEEK_SET) == 0 && std::fwrite(&frames_, 4, 1, file_) == 1;
  ok = std::fclose(file_) == 0 && ok;
  file_ = nullptr;
  std::error_code error;
  if (ok) std::filesystem::rename(tmpPath_, path_, error);
  if (!ok || error) {
    std::filesystem::remove(tmpPath_, error);
    throw InputError("cannot write recording '" + path_ + "'");
  }
}

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
  if (header_.version != kVersion)
    throw InputError(name_ + " has version " + std::to_string(header_.version) +
                     "; this weft reads version " + std::to_string(kVersion));
  // In 64 bits the frames' size can wrap round to the file's own size: checked, not trusted.
  framesOffset_ = kHeaderBytes + uint64_t{header_.triangleCount} * sizeof(glm::uvec3);
  uint64_t framesSize = 0, expected = 0;
  if (__builtin_mul_overflow(uint64_t{header_.frameCount}, frameBytes(header_.particleCount), &framesSize) ||
      __builtin_add_overflow(framesOffset_, framesSize, &expected))
    throw InputError(name_ + " is corrupt: its header promises " + std::to_string(header_.frameCount) +
                     " frames of " + std::to_string(header_.particleCount) + " particles, more than 2^64 bytes");
  if (actual < expected)
    throw InputError(name_ + " is truncated: " + std::to_string(header_.frameCount) + " frames need " +
                     std::to_string(expected) + " bytes, the file has " + std::to_string(actual));
  if (actual > expected)
    throw InputError(name_ + " is corrupt: " + std::to_string(actual - expected) + " bytes follow its last frame");
  // The file is as long as the header says, but it may be sparse: the limits keep one frame or the
  // triangle list from taking gigabytes.
  if (header_.particleCount > kMaxParticles)
    throw InputError(name_ + " holds " + std::to_string(header_.particleCount) + " particles, more than the limit of " +
                     std::to_string(kMaxParticles));
  if (header_.triangleCount > kMaxTriangles)
    throw InputError(name_ + " holds " + std::to_string(header_.triangleCount) + " triangles, more than the limit of " +
                     std::to_string(kMaxTriangles));
  triangles_.resize(header_.triangleCount);
  if (std::fread(triangles_.data(), sizeof(glm::uvec3), triangles_.size(), file_.get()) != triangles_.size())
    throw InputError(name_ + " is truncated in its triangles");
  for (const glm::uvec3& t : triangles_)
    if (t.x >= header_.particleCount || t.y >= header_.particleCount || t.z >= header_.particleCount)
      throw InputError(name_ + " is corrupt: a triangle indexes past its particles");
}

std::vector<glm::vec4> RecordingReader::frame(uint32_t k) const {
  if (k >= header_.frameCount) throw std::out_of_range("recording frame index");
  std::vector<float> xyz(size_t(header_.particleCount) * 3);
  uint32_t stored = 0;
  uint64_t offset = framesOffset_ + uint64_t(k) * frameBytes(header_.particleCount);
  bool ok = std::fseek(file_.get(), static_cast<long>(offset), SEEK_SET) == 0 &&
            std::fread(xyz.data(), sizeof(float), xyz.size(), file_.get()) == xyz.size() &&
            std::fread(&stored, sizeof stored, 1, file_.get()) == 1;
  if (!ok) throw InputError(name_ + " is truncated at frame " + std::to_string(k));
  if (checksum(xyz.data(), xyz.size() * sizeof(float)) != stored)
    throw InputError(name_ + " is corrupt at frame " + std::to_string(k) + " (checksum mismatch)");
  std::vector<glm::vec4> positions(header_.particleCount);
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = glm::vec4(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], 0.f);
  return positions;
}

ClothModel recordedCloth(const RecordingReader& recording, const std::vector<glm::vec4>& positions) {
  const uint32_t n = recording.header().particleCount;
  ClothModel model;
  model.positions.resize(n);
  for (size_t i = 0; i < positions.size() && i < n; ++i) model.positions[i] = glm::vec3(positions[i]);
  model.triangles = recording.triangles();
  model.masses.assign(n, 1.f);
  model.pinned.assign(n, 0);
  return model;
}

}  // namespace weft
