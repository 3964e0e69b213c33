// libFuzzer harness for the recording reader: RecordingReader on any bytes, then its first, second
// and last frames and the topology in effect at each, must read or refuse with one readable
// sentence (an InputError). The reader takes a path: the bytes go into a memory file (memfd), opened
// through /proc/self/fd, so no run touches the disk or races another process over a name in /tmp.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/error.h"
#include "solver/io/recording.h"
#include "tests/fuzz/fuzz_message.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int fd = memfd_create("weft-fuzz-recording", MFD_CLOEXEC);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != ssize_t(size))) std::abort();
  try {
    weft::RecordingReader reader(path);
    const uint32_t frames = reader.header().frameCount;
    for (uint32_t k : {0u, 1u, frames - 1})
      if (k < frames) weft::recordedCloth(reader.topology(k), reader.frame(k));
  } catch (const weft::InputError& e) {
    weft::fuzz::checkMessage(e.what());
  }
  return 0;
}
