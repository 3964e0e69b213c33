#pragma once
// How much memory the host can still give this process, and byte counts as people read them.
#include <cstdint>
#include <string>

namespace weft {

// The smallest of MemAvailable (/proc/meminfo, else sysconf's available pages) and what is left
// under the process's address-space and data limits (ulimit -v, -d): what an allocation may count on.
uint64_t hostMemoryAvailable();

// "512 bytes", "3.2 KB", "11.4 GB" (powers of 1024, one decimal).
std::string formatBytes(uint64_t bytes);

// InputError when `bytes` exceed `available`: "<what> needs 11.4 GB of host memory for <purpose>;
// the host has 2.0 GB available".
void requireHostMemory(uint64_t bytes, uint64_t available, const std::string& what, const std::string& purpose);

// The host memory a W x H grid's model takes (positions, masses, springs, triangles, bend pairs),
// computed from its size before building it.
uint64_t gridModelBytes(uint64_t width, uint64_t height);

// The same for a triangle mesh, from its vertex and triangle counts, with the most its topology
// can take (3 edges and 3 bend pairs a triangle, the sorted edge triples its construction sorts).
uint64_t meshModelBytes(uint64_t vertices, uint64_t triangles);

}  // namespace weft
