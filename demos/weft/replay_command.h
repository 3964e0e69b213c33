#pragma once
// `weft replay`: plays a recording back without a solver; headless, it describes the recording
// and renders a chosen frame to PNG (the windowed player is `weft view --replay`). With the scene
// that was recorded, the picture is the one `weft run --png` drew of that frame: the scene's camera,
// and its colliders where their paths had them then.
#include <cstdint>
#include <string>

namespace weft {

struct ReplayOptions {
  std::string path;
  int64_t frame = -1;    // negative: the last; int64 so every uint32 frame number can be asked for
  std::string pngPath;
  std::string scenePath;  // the scene recorded: its camera, and its colliders where they were at the frame
  std::string device;
};

int replayCommand(const ReplayOptions& options);

}  // namespace weft
