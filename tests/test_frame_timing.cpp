// Frame timing for the viewer's calibration: a frame of a larger grid costs more, by a ratio that
// per-particle work must show on any machine (a threshold in ms would hold on one machine only).
#include <cmath>

#include "solver/io/scene_reader.h"
#include "demos/common/frame_timing.h"
#include "test_support.h"

namespace weft::test {
namespace {

class FrameTimingTest : public ValidatedTest, public ::testing::WithParamInterface<Backend> {};

Scene timingScene() {
  return parseScene(R"({"cloth": {"grid": {"width": 8, "height": 8, "size": [1.0, 1.0]}, "totalMass": 0.3},
      "pins": {"corners": 2}, "solver": {"integrator": "verlet", "substeps": 2, "iterations": 4}})",
                    "", "timing.json");
}

double measure(const Scene& scene, uint32_t n, Backend backend, int frames) {
  return measureFrameMs(scene, n, backend, &gpuContext(), &embeddedShaders(), frames);
}

// Doubling the side from 16 x 16 must reach a size whose frame costs at least three times as much
// before 1024 x 1024: on lavapipe 64 or 128 does; a fast GPU hides a small grid's work behind the
// fixed cost of submitting a frame, so the loop goes on until the particles show.
TEST_P(FrameTimingTest, LargerGridCostsMore) {
  const Scene scene = timingScene();
  const double small = measure(scene, 16, GetParam(), 5);
  ASSERT_TRUE(std::isfinite(small) && small > 0.0) << small;
  uint32_t n = 16;
  double large = small;
  while (large < 3.0 * small && n < 1024) {
    n *= 2;
    large = measure(scene, n, GetParam(), 5);
    ASSERT_TRUE(std::isfinite(large) && large > 0.0) << n << ": " << large;
  }
  EXPECT_GE(large, 3.0 * small) << "16: " << small << " ms, " << n << ": " << large << " ms";
}

INSTANTIATE_TEST_SUITE_P(Backends, FrameTimingTest, ::testing::ValuesIn(allBackends()), backendParamName);

}  // namespace
}  // namespace weft::test
