#pragma once
// The last few seconds of frame timings for the panel: wall-clock frame time and the GPU time of
// each pass, kept in a fixed ring so the history graph costs nothing to keep.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace weft {

class PerfHistory {
 public:
  explicit PerfHistory(size_t capacity = 240);

  // One frame: its wall-clock time and its passes (name, ms), as GpuTimer::read() gives them.
  void push(double frameMs, const std::vector<std::pair<std::string, double>>& passes);

  // Frame times oldest first, as floats for a plot.
  std::vector<float> frameTimes() const;
  // GPU time of the frame's passes added up, oldest first.
  std::vector<float> gpuTimes() const;
  // Median of the kept frame times (0 when empty): steadier to read than the last one.
  double medianFrameMs() const;
  double medianGpuMs() const;
  // Each pass's median over the kept frames that had it, in the order passes first appeared.
  std::vector<std::pair<std::string, double>> medianPasses() const;
  size_t size() const { return count_; }
  void clear();

 private:
  std::vector<float> ordered(const std::vector<float>& ring) const;

  size_t capacity_;
  size_t next_ = 0;
  size_t count_ = 0;
  std::vector<float> frameMs_, gpuMs_;
  std::vector<std::string> passNames_;
  std::vector<std::vector<float>> passMs_;  // per pass name, a ring like frameMs_ (NaN: absent that frame)
};

}  // namespace weft
