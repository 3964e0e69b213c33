#pragma once
// `weft replay`: plays a recording back without a solver; headless, it describes the recording
// and renders a chosen frame to PNG (the windowed player is `weft view --replay`).
#include <string>

namespace weft {

struct ReplayOptions {
  std::string path;
  int frame = -1;        // -1: the last
  std::string pngPath;
  std::string device;
};

int replayCommand(const ReplayOptions& options);

}  // namespace weft
