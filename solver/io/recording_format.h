#pragma once
// The layout shared by RecordingWriter and RecordingReader (docs/recording-format.md): not for other
// code, which goes through solver/io/recording.h.
#include <bit>
#include <cstddef>
#include <cstdint>

#include "solver/model/cloth_model.h"

namespace weft::recording_format {

// The file is little-endian and written with memcpy of host values.
static_assert(std::endian::native == std::endian::little, "the recording format is little-endian");

constexpr char kMagic[8] = {'W', 'E', 'F', 'T', 'R', 'E', 'C', '\0'};
constexpr uint32_t kVersion1 = 1;  // fixed topology: read only
constexpr uint32_t kVersion2 = 2;  // frames may change the topology: written
constexpr size_t kHeaderBytes = 64;  // magic, six 32-bit fields, zero padding
constexpr size_t kFrameCountOffset = 16;

// A version 2 frame's first word.
constexpr uint32_t kPlainFrame = 0;     // positions only
constexpr uint32_t kTopologyFrame = 1;  // particle count, triangle count and triangles, then positions
constexpr uint64_t kTopologyBlockHeadBytes = 2 * sizeof(uint32_t);

// A recording holds one cloth: at most kMaxParticles particles, and triangles as the model's
// limit allows (a grid has fewer than two per particle, a closed mesh of genus g 2 N - 4 + 4 g).
constexpr uint64_t kMaxTriangles = 4 * uint64_t{kMaxParticles};

// FNV-1a over a frame's bytes: cheap, and any flipped bit changes it.
inline uint32_t checksum(const void* data, size_t bytes) {
  uint32_t hash = 2166136261u;
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 16777619u;
  return hash;
}

}  // namespace weft::recording_format
