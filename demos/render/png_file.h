#pragma once
// PNG output that never leaves a half-written file behind.
#include <cstdint>
#include <string>

namespace weft {

// Writes RGBA8 pixels (row-major, top row first) to `path`: first to "path.tmp", then renamed over
// `path`. InputError("cannot write PNG 'path': reason") when the folder is missing or a write fails.
void writePng(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba);

}  // namespace weft
