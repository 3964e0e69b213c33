#pragma once
// Running `weft view` from a test: the shell, Xvfb, scratch paths, validation output and
// screenshots, shared by the viewer's end-to-end tests (stb_image's implementation is in
// stb_image_impl.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <stb/stb_image.h>

#include "scratch_dir.h"

namespace weft::view_test {

namespace fs = std::filesystem;

struct Result {
  int exitCode;
  std::string output;  // stdout and stderr together
};

inline Result shell(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

inline std::string scene(const std::string& name) {
  return std::string(WEFT_SOURCE_DIR) + "/demos/scenes/" + name;
}

inline bool haveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

// `command` (a shell command line) on a fresh 1280 x 720 virtual display.
inline std::string onXvfb(const std::string& command) {
  return "xvfb-run -a -s \"-screen 0 1280x720x24\" " + command;
}
inline std::string underXvfb(const std::string& args) { return onXvfb(std::string(WEFT_BINARY) + " " + args); }

inline fs::path tempPath(const std::string& name) {
  return weft::test::scratchDir("weft_view_") / name;
}

inline void expectNoValidationMessage(const Result& r) {
  EXPECT_THAT(r.output, ::testing::Not(::testing::HasSubstr("VUID")));
  EXPECT_THAT(r.output, ::testing::Not(::testing::HasSubstr("SYNC-")));
  EXPECT_THAT(r.output, ::testing::Not(::testing::HasSubstr("alidation")));
}

// Cloth-coloured: clearly red, unlike the sky (blue-grey) and the ground (neutral grey).
inline bool isCloth(const unsigned char* p) { return p[0] > p[1] + 25 && p[0] > p[2] + 25; }

struct Screenshot {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  const unsigned char* pixels() const { return rgba.data(); }
  explicit operator bool() const { return !rgba.empty(); }
};

// RGBA8 pixels of a PNG; empty (with the failure recorded) when it cannot be read.
inline Screenshot loadPng(const fs::path& png) {
  Screenshot shot;
  int channels = 0;
  unsigned char* pixels = stbi_load(png.c_str(), &shot.width, &shot.height, &channels, 4);
  EXPECT_NE(pixels, nullptr) << "cannot read " << png;
  if (!pixels) return {};
  shot.rgba.assign(pixels, pixels + size_t(shot.width) * shot.height * 4);
  stbi_image_free(pixels);
  return shot;
}

}  // namespace weft::view_test
