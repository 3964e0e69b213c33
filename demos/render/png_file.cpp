#include "demos/render/png_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "engine/error.h"

// stb's writer compiled into this file only, its functions static so that another copy elsewhere in
// a program cannot clash; the pragmas silence warnings about the parts of it weft does not call.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace weft {

void writePng(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& reason) { return InputError("cannot write PNG '" + path + "': " + reason); };
  fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw fail("the folder '" + parent.string() + "' does not exist");

  // stb's own file writer ignores fwrite errors (a full disk would pass): write through a callback
  // that checks every write, and the close.
  std::string temporary = path + ".tmp";
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) throw fail(std::strerror(errno));
  struct Sink {
    std::FILE* file;
    int error = 0;
  } sink{file};
  auto write = [](void* context, void* data, int size) {
    auto* s = static_cast<Sink*>(context);
    if (!s->error && std::fwrite(data, 1, size_t(size), s->file) != size_t(size)) s->error = errno ? errno : EIO;
  };
  int encoded = stbi_write_png_to_func(write, &sink, int(width), int(height), 4, rgba, int(width) * 4);
  if (std::fclose(file) != 0 && !sink.error) sink.error = errno ? errno : EIO;
  if (!encoded || sink.error) {
    fs::remove(temporary, ec);
    throw fail(sink.error ? std::strerror(sink.error) : "the image could not be encoded");
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw fail(ec.message());
  }
}

}  // namespace weft
