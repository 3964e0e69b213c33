#include "solver/model/host_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "weft/errors.h"
#include "solver/model/cloth_model.h"

namespace weft {
namespace {
uint64_t meminfoAvailable() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  // No /proc (or an old kernel): the free pages sysconf reports.
  const long pages = sysconf(_SC_AVPHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : UINT64_MAX;
}

// A line of /proc/self/status ("VmSize:", "VmData:"), bytes; 0 where it cannot be read.
uint64_t selfStatus(const std::string& wanted) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(wanted, 0) == 0) {
      std::istringstream fields(line.substr(wanted.size()));
      uint64_t kib = 0;
      fields >> kib;
      return kib * 1024;
    }
  return 0;
}

// What is left under a limit on this process: the limit less what the process already uses of it
// (the cloth's model, built before its solver, counts against the same limit).
uint64_t leftUnder(int resource, const std::string& usage) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
  const uint64_t used = selfStatus(usage);
  return limit.rlim_cur > used ? limit.rlim_cur - used : 0;
}
}  // namespace

uint64_t hostMemoryAvailable() {
  return std::min({meminfoAvailable(), leftUnder(RLIMIT_AS, "VmSize:"), leftUnder(RLIMIT_DATA, "VmData:")});
}

std::string formatBytes(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  const char* units[] = {"KB", "MB", "GB", "TB", "PB", "EB"};
  double value = static_cast<double>(bytes) / 1024.0;
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

void requireHostMemory(uint64_t bytes, uint64_t available, const std::string& what, const std::string& purpose) {
  if (bytes <= available) return;
  throw InputError(what + " needs " + formatBytes(bytes) + " of host memory for " + purpose + "; the host has " +
                   formatBytes(available) + " available");
}

uint64_t gridModelBytes(uint64_t w, uint64_t h) {
  // buildGrid's three spring families, two triangles a cell and a bend pair per interior edge.
  const uint64_t particles = w * h;
  const uint64_t springs = (w - 1) * h + w * (h - 1) + 2 * (w - 1) * (h - 1) + (w - 2) * h + w * (h - 2);
  const uint64_t triangles = 2 * (w - 1) * (h - 1);
  const uint64_t bendPairs = (w - 1) * (h - 1) * 3 - (w - 1) - (h - 1);
  return particles * (2 * sizeof(glm::vec3) + sizeof(float) + sizeof(uint8_t)) + springs * sizeof(Spring) +
         triangles * sizeof(glm::uvec3) + bendPairs * sizeof(BendPair);
}

uint64_t meshModelBytes(uint64_t vertices, uint64_t triangles) {
  const uint64_t edges = 3 * triangles;  // at most; shared edges count once
  const uint64_t edgeTriples = 3 * triangles * (2 * sizeof(uint32_t) + sizeof(uint32_t));
  return vertices * (2 * sizeof(glm::vec3) + sizeof(float) + 2 * sizeof(uint8_t)) + triangles * sizeof(glm::uvec3) +
         edgeTriples + edges * (sizeof(Spring) + sizeof(BendPair) + sizeof(Spring) + 2 * sizeof(uint32_t));
}

}  // namespace weft
