#pragma once
// `weft bench --plot`: ms per step against particles, log-log, one line per integrator x backend,
// as plain SVG text.
#include <string>
#include <vector>

#include "demos/weft/bench_record.h"

namespace weft {

// The measured rows (those not run are left out), each series in increasing particles. A GPU row
// plots its GPU time, a CPU row its wall time: the numbers the table's rate column uses.
std::string benchPlotSvg(const std::vector<BenchRow>& rows);

}  // namespace weft
