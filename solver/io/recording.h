#pragma once
// Recording and playback of a simulation: every frame's positions in a compact binary cache
// (format in docs/recording-format.md), and, for a tearing cloth, its particle count and triangles
// whenever they change. Playback needs no solver: the frames are read back bit for bit. Writing
// goes to FILE.tmp and is renamed into place by finish(), so an interrupted run never leaves a file
// that looks complete.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "solver/model/cloth_model.h"

namespace weft {

struct RecordingHeader {
  uint32_t version = 0;
  uint32_t particleCount = 0;  // at frame 0
  uint32_t frameCount = 0;
  uint32_t triangleCount = 0;  // at frame 0
  float frameDt = 0.f;  // s between recorded frames
  uint32_t substeps = 0;
};

// The particles and triangles in effect at one frame.
struct RecordedTopology {
  uint32_t particleCount = 0;
  std::vector<glm::uvec3> triangles;
};

class RecordingWriter {
 public:
  // Opens path.tmp; InputError if it cannot be created.
  RecordingWriter(const std::string& path, uint32_t particleCount, const std::vector<glm::uvec3>& triangles,
                  float frameDt, uint32_t substeps);
  ~RecordingWriter();  // without finish(): removes the temporary file
  RecordingWriter(const RecordingWriter&) = delete;
  RecordingWriter& operator=(const RecordingWriter&) = delete;

  // Appends one frame: xyz of every particle (w is ignored). When the cloth's topology changed since
  // the previous frame (it tore), `changedTriangles` is its new triangle list and positions.size()
  // its new particle count, which may only grow; otherwise null, and the count must stay. The frame
  // and its topology go in one call, so no topology can be left pending or paired with the wrong
  // frame. Frame 0's topology is the constructor's. A frame the reader would refuse (a count that
  // shrinks or passes the limits, a triangle past the particles): std::invalid_argument.
  void addFrame(const std::vector<glm::vec4>& positions, const std::vector<glm::uvec3>* changedTriangles = nullptr);
  // Writes the frame count into the header and renames the file into place.
  void finish();
  uint32_t frameCount() const { return frames_; }

 private:
  void write(const void* data, size_t bytes);
  std::string path_, tmpPath_;
  FILE* file_ = nullptr;
  uint32_t particleCount_ = 0;
  uint32_t frames_ = 0;
};

class RecordingReader {
 public:
  // Reads the header and triangles and checks the file's size against them; a version 2 file's
  // frames are scanned once to find where each topology change lies and to check every length,
  // count and triangle. Missing file, wrong magic or version, truncated or oversized file, a count
  // or triangle out of bounds: InputError naming the file.
  explicit RecordingReader(const std::string& path);
  RecordingReader(const RecordingReader&) = delete;
  RecordingReader& operator=(const RecordingReader&) = delete;

  const RecordingHeader& header() const { return header_; }
  // Frame 0's triangles (the header's).
  const std::vector<glm::uvec3>& triangles() const { return triangles_; }
  // Frame k's positions (w = 0), as many as its particleCount(k). A checksum mismatch: InputError
  // naming the frame.
  std::vector<glm::vec4> frame(uint32_t k) const;
  // The particles and triangles in effect at frame k. A checksum mismatch in the frame that
  // brought them: InputError naming that frame.
  RecordedTopology topology(uint32_t k) const;
  uint32_t particleCount(uint32_t k) const { return segmentOf(k).particleCount; }
  // The largest particle count of any frame (the last one's: counts never decrease), for a
  // consumer that sizes its buffers once.
  uint32_t maxParticleCount() const { return segments_.back().particleCount; }
  // How many frames change the topology (0 for a cloth that never tore, and for version 1).
  uint32_t topologyChanges() const { return static_cast<uint32_t>(segments_.size() - 1); }

 private:
  struct CloseFile {
    void operator()(FILE* file) const { std::fclose(file); }
  };
  // A run of frames sharing one topology: the first carries it (or is frame 0, whose topology is the
  // header's), the rest hold positions only and all have the same length.
  struct Segment {
    uint32_t firstFrame = 0;
    uint32_t particleCount = 0;
    uint64_t offset = 0;      // of the first frame
    uint64_t firstBytes = 0;  // the first frame's length, its topology block included
  };
  const Segment& segmentOf(uint32_t k) const;
  uint64_t plainFrameBytes(uint32_t particles) const;
  void checkVersion1Length(uint64_t actual);
  void scanVersion2Frames(uint64_t actual);
  // The bytes of one frame, whose checksum was checked.
  std::vector<uint8_t> readFrame(uint32_t k, uint64_t offset, uint64_t bytes) const;
  std::string path_;
  std::string name_;  // "recording 'path'" as messages show it
  // Owned from the constructor's first line: a refusal thrown there closes it (no destructor runs).
  std::unique_ptr<FILE, CloseFile> file_;
  RecordingHeader header_;
  std::vector<glm::uvec3> triangles_;
  uint64_t framesOffset_ = 0;
  std::vector<Segment> segments_;  // by first frame; never empty once open
};

// What drawing a recording needs of a cloth: its particles (at `positions`, one recorded frame) and
// the triangles in effect then. No springs: nothing simulates it.
ClothModel recordedCloth(const RecordedTopology& topology, const std::vector<glm::vec4>& positions);
// The same with frame 0's topology, for a recording whose topology never changes.
ClothModel recordedCloth(const RecordingReader& recording, const std::vector<glm::vec4>& positions);

}  // namespace weft
