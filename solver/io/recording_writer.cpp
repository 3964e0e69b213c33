// RecordingWriter: version 2 of the format (docs/recording-format.md), whatever the cloth does.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "weft/errors.h"
#include "solver/io/recording.h"
#include "solver/io/recording_format.h"

namespace weft {
namespace {

using namespace recording_format;

void append(std::vector<uint8_t>& bytes, const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  bytes.insert(bytes.end(), p, p + size);
}

// What the reader would refuse in a topology change is refused here, so no run writes a file
// that cannot be read back.
void checkTopology(uint32_t previousCount, size_t particleCount, const std::vector<glm::uvec3>& triangles) {
  if (particleCount < previousCount) throw std::invalid_argument("a recording's particle count cannot decrease");
  if (particleCount > kMaxParticles || triangles.size() > kMaxTriangles)
    throw std::invalid_argument("a recorded topology is past the format's limits");
  for (const glm::uvec3& t : triangles)
    if (t.x >= particleCount || t.y >= particleCount || t.z >= particleCount)
      throw std::invalid_argument("a recorded triangle indexes past its frame's particles");
}

}  // namespace

RecordingWriter::RecordingWriter(const std::string& path, uint32_t particleCount,
                                 const std::vector<glm::uvec3>& triangles, float frameDt, uint32_t substeps)
    : path_(path), tmpPath_(path + ".tmp"), particleCount_(particleCount) {
  checkTopology(0, particleCount, triangles);
  file_ = std::fopen(tmpPath_.c_str(), "wb");
  if (!file_) throw InputError("cannot write recording '" + path + "': " + std::strerror(errno));
  uint8_t header[kHeaderBytes] = {};
  std::memcpy(header, kMagic, 8);
  const uint32_t fields[6] = {kVersion2, particleCount, 0, static_cast<uint32_t>(triangles.size()), 0, substeps};
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

void RecordingWriter::addFrame(const std::vector<glm::vec4>& positions,
                               const std::vector<glm::uvec3>* changedTriangles) {
  if (changedTriangles && frames_ == 0)
    throw std::invalid_argument("frame 0's topology is the one the recording was opened with");
  if (changedTriangles) checkTopology(particleCount_, positions.size(), *changedTriangles);
  else if (positions.size() != particleCount_) throw std::invalid_argument("frame has the wrong particle count");

  // One buffer per frame: the checksum covers every byte of it, the kind word included.
  std::vector<uint8_t> bytes;
  const uint32_t kind = changedTriangles ? kTopologyFrame : kPlainFrame;
  const uint64_t topologyBytes =
      changedTriangles ? kTopologyBlockHeadBytes + changedTriangles->size() * sizeof(glm::uvec3) : 0;
  bytes.reserve(sizeof kind + topologyBytes + positions.size() * 3 * sizeof(float) + sizeof(uint32_t));
  append(bytes, &kind, sizeof kind);
  if (changedTriangles) {
    const uint32_t counts[2] = {static_cast<uint32_t>(positions.size()),
                                static_cast<uint32_t>(changedTriangles->size())};
    append(bytes, counts, sizeof counts);
    append(bytes, changedTriangles->data(), changedTriangles->size() * sizeof(glm::uvec3));
  }
  size_t at = bytes.size();
  bytes.resize(at + positions.size() * 3 * sizeof(float));
  for (const glm::vec4& p : positions) {
    std::memcpy(&bytes[at], &p, 3 * sizeof(float));  // x, y, z: a vec4's first three floats
    at += 3 * sizeof(float);
  }
  const uint32_t sum = checksum(bytes.data(), bytes.size());
  append(bytes, &sum, sizeof sum);
  write(bytes.data(), bytes.size());
  particleCount_ = static_cast<uint32_t>(positions.size());
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

}  // namespace weft
