#include "solver/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "weft/errors.h"
#include "solver/model/shown_text.h"

namespace weft {
namespace {

[[noreturn]] void refuse(const std::string& path, const InputFileKind& kind, const std::string& reason) {
  throw InputError(std::string(kind.failure) + " '" + shownPath(path) + "': " + reason);
}

std::string sizeText(uint64_t bytes) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  return bytes % kMiB == 0 ? std::to_string(bytes / kMiB) + " MiB" : std::to_string(bytes) + " bytes";
}

void checkKindAndSize(const struct stat& status, const std::string& path, const InputFileKind& kind) {
  if (S_ISDIR(status.st_mode)) refuse(path, kind, std::strerror(EISDIR));
  if (!S_ISREG(status.st_mode)) refuse(path, kind, "it is not a regular file (a device, FIFO or socket)");
  if (static_cast<uint64_t>(status.st_size) > kind.maxBytes)
    refuse(path, kind, "it is larger than the limit of " + sizeText(kind.maxBytes));
}

// A descriptor of the regular file at `path`, its length in `size`.
int openRegular(const std::string& path, const InputFileKind& kind, uint64_t& size) {
  // Looked at before opening: opening a FIFO blocks until a writer comes, and opening a device
  // can act on it.
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) refuse(path, kind, std::strerror(errno));
  checkKindAndSize(status, path, kind);
  // O_NONBLOCK: should the path have become a FIFO since, open returns instead of waiting.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) refuse(path, kind, std::strerror(errno));
  try {
    if (::fstat(fd, &status) != 0) refuse(path, kind, std::strerror(errno));
    checkKindAndSize(status, path, kind);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  size = static_cast<uint64_t>(status.st_size);
  return fd;
}

}  // namespace

std::string readInputFile(const std::string& path, const InputFileKind& kind) {
  uint64_t size = 0;
  const int fd = openRegular(path, kind, size);
  std::string text;
  text.reserve(size);
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      if (n < 0) refuse(path, kind, std::strerror(error));
      return text;
    }
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > kind.maxBytes) {  // it grew while being read
      ::close(fd);
      refuse(path, kind, "it is larger than the limit of " + sizeText(kind.maxBytes));
    }
  }
}

FILE* openInputFile(const std::string& path, const InputFileKind& kind, uint64_t& size) {
  const int fd = openRegular(path, kind, size);
  FILE* file = ::fdopen(fd, "rb");
  if (!file) {
    const int error = errno;
    ::close(fd);
    refuse(path, kind, std::strerror(error));
  }
  return file;
}

}  // namespace weft
