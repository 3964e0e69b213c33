#pragma once
// `weft bench --suite contact`: what contact costs (docs/contact.md). Each row is one cloth timed with
// contact on and off, on the CPU backend and on the Vulkan device side by side: ms per frame, the
// contact pass's share, and the ratio of the frame with contact to the frame without (the issue's
// target: at most 2, contact no dearer than the solve). With --quick the rows run a few frames on
// smaller cloths: a check that the suite runs, not its figures.
#include "demos/weft/bench_command.h"

namespace weft {

int benchContactSuite(const BenchOptions& options);

}  // namespace weft
