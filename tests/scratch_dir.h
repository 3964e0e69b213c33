#pragma once
// A test process's own scratch folder: under gtest's TempDir(), named after the process id so the
// processes ctest runs side by side never share one, and removed when the process ends if every test
// in it passed. After a failure it stays, and its path is printed, so what the run wrote can be read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

namespace weft::test {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix)
      : path_(std::filesystem::path(testing::TempDir()) / (prefix + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  // Runs at exit, before gtest's own singleton (constructed earlier) goes away.
  ~ScratchDir() {
    if (testing::UnitTest::GetInstance()->Passed()) {
      std::error_code ignored;  // a file still open elsewhere must not turn a pass into a crash
      std::filesystem::remove_all(path_, ignored);
    } else {
      std::fprintf(stderr, "weft tests: scratch files kept in %s\n", path_.c_str());
    }
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The process's one scratch folder for `prefix`, made on first use.
inline const std::filesystem::path& scratchDir(const std::string& prefix) {
  static ScratchDir dir(prefix);
  return dir.path();
}

}  // namespace weft::test
