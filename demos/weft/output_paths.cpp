#include "demos/weft/output_paths.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "engine/error.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

// Creates and removes path.tmp, as the writer will create it: the one test that holds for every
// reason a write can fail (permissions, read-only mounts, ACLs), for root too, where access() lies.
// A path.tmp left by an earlier run is opened, not removed: the writer replaces it anyway.
void tryTemporary(const std::string& path, const std::string& prefix) {
  const std::string tmp = path + ".tmp";
  std::error_code ignored;
  const bool existed = fs::exists(fs::symlink_status(tmp, ignored));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(prefix + std::strerror(errno));
  ::close(fd);
  if (!existed) fs::remove(tmp, ignored);
}

}  // namespace

void checkOutputFile(const std::string& path, const std::string& what) {
  const std::string prefix = "cannot write " + what + " '" + path + "': ";
  const fs::path parent = fs::path(path).parent_path();
  std::error_code error;
  if (!parent.empty() && !fs::is_directory(parent, error)) throw InputError(prefix + "its folder does not exist");
  if (fs::is_directory(path, error)) throw InputError(prefix + "it is a folder");
  tryTemporary(path, prefix);
}

void checkOutputFolder(const std::string& dir, const std::string& firstFile) {
  const std::string prefix = "cannot write OBJ frames into '" + dir + "': ";
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw InputError(prefix + error.message());
  if (!fs::is_directory(dir, error)) throw InputError(prefix + "it is not a folder");
  tryTemporary((fs::path(dir) / firstFile).string(), prefix);
}

}  // namespace weft
