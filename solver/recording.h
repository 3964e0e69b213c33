#pragma once
// Recording and playback of a simulation: every frame's positions in a compact binary cache
// (format in docs/recording-format.md). Playback needs no solver: the frames are read back bit
// for bit. Writing goes to FILE.tmp and is renamed into place by finish(), so an interrupted run
// never leaves a file that looks complete.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "solver/cloth_model.h"

namespace weft {

struct RecordingHeader {
  uint32_t version = 0;
  uint32_t particleCount = 0;
  uint32_t frameCount = 0;
  uint32_t triangleCount = 0;
  float frameDt = 0.f;  // s between recorded frames
  uint32_t substeps = 0;
};

class RecordingWriter {
 public:
  // Opens path.tmp; InputError if it cannot be created.
  RecordingWriter(const std::string& path, uint32_t particleCount, const std::vector<glm::uvec3>& triangles,
                  float frameDt, uint32_t substeps);
  ~RecordingWriter();  // without finish(): removes the temporary file
  RecordingWriter(const RecordingWriter&) = delete;
  RecordingWriter& operator=(const RecordingWriter&) = delete;

  // Appends one frame: xyz of every particle (w is ignored).
  void addFrame(const std::vector<glm::vec4>& positions);
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
  // Reads the header and triangles and checks the file's size against them. Missing file, wrong
  // magic or version, truncated or oversized file: InputError naming the file.
  explicit RecordingReader(const std::string& path);
  RecordingReader(const RecordingReader&) = delete;
  RecordingReader& operator=(const RecordingReader&) = delete;

  const RecordingHeader& header() const { return header_; }
  const std::vector<glm::uvec3>& triangles() const { return triangles_; }
  // Frame k's positions (w = 0). A checksum mismatch: InputError naming the frame.
  std::vector<glm::vec4> frame(uint32_t k) const;

 private:
  struct CloseFile {
    void operator()(FILE* file) const { std::fclose(file); }
  };
  std::string path_;
  std::string name_;  // "recording 'path'" as messages show it
  // Owned from the constructor's first line: a refusal thrown there closes it (no destructor runs).
  std::unique_ptr<FILE, CloseFile> file_;
  RecordingHeader header_;
  std::vector<glm::uvec3> triangles_;
  uint64_t framesOffset_ = 0;
};

// What drawing a recording needs of a cloth: its particles (at `positions`, one recorded frame) and
// triangles. No springs: nothing simulates it.
ClothModel recordedCloth(const RecordingReader& recording, const std::vector<glm::vec4>& positions);

}  // namespace weft
