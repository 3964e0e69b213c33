#pragma once
// Opening a file a user names: a scene, a mesh, a recording. Only a regular file is read, and only
// up to its kind's size limit: a FIFO would block the run forever and /dev/zero would fill memory,
// so both are refused in one sentence before a byte is read. The checks are made on the opened
// file, so the path cannot change kind between the check and the read.
#include <cstdint>
#include <cstdio>
#include <string>

namespace weft {

// How a reader's failures start and how long its files may be.
struct InputFileKind {
  const char* failure;  // "cannot open scene file": the sentence goes on with " 'path': reason"
  uint64_t maxBytes;    // a longer file is refused unread
};

// The whole file. Missing or unreadable, not a regular file, or longer than kind.maxBytes: InputError.
std::string readInputFile(const std::string& path, const InputFileKind& kind);

// The file opened for reading in parts, and its length in `size`; the caller fcloses it. The same
// refusals as readInputFile.
FILE* openInputFile(const std::string& path, const InputFileKind& kind, uint64_t& size);

}  // namespace weft
