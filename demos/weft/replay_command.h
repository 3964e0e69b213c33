#pragma once
// `weft replay`: plays a recording back without a solver; headless, it describes the recording
// and renders a chosen frame to PNG (the windowed player is `weft view --replay`).
#include <cstdint>
#include <string>

namespace weft {

struct ReplayOptions {
  std::string path;
  int64_t frame = -1;    // negative: the last; int64 so every uint32 frame number can be asked for
  std::string pngPath;
  std::string device;
};

int replayCommand(const ReplayOptions& options);

}  // namespace weft
