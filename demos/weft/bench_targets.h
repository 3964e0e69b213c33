#pragma once
// `weft bench --suite targets`: the performance targets' rows (docs/benchmarks.md#targets), each
// measured in this run on the CPU backend and on the Vulkan device side by side, and printed
// beside its target with whether it is met. With --quick the same rows run on grids a quarter the
// size for a few frames: a check that the suite runs, not its figures.
#include "demos/weft/bench_command.h"

namespace weft {

int benchTargetsSuite(const BenchOptions& options);

}  // namespace weft
