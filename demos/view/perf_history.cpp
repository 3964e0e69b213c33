#include "demos/view/perf_history.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft {
namespace {
double medianOf(std::vector<float> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](float v) { return std::isnan(v); }), values.end());
  if (values.empty()) return 0.0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  if (values.size() % 2) return values[mid];
  const float upper = values[mid];
  return 0.5 * (double(*std::max_element(values.begin(), values.begin() + mid)) + upper);
}
}  // namespace

PerfHistory::PerfHistory(size_t capacity)
    : capacity_(std::max<size_t>(capacity, 1)), frameMs_(capacity_, 0.f), gpuMs_(capacity_, 0.f) {}

void PerfHistory::push(double frameMs, const std::vector<std::pair<std::string, double>>& passes) {
  double gpu = 0.0;
  for (auto& ring : passMs_) ring[next_] = std::numeric_limits<float>::quiet_NaN();
  for (const auto& [name, ms] : passes) {
    gpu += ms;
    auto it = std::find(passNames_.begin(), passNames_.end(), name);
    if (it == passNames_.end()) {
      passNames_.push_back(name);
      passMs_.emplace_back(capacity_, std::numeric_limits<float>::quiet_NaN());
      it = passNames_.end() - 1;
    }
    passMs_[size_t(it - passNames_.begin())][next_] = float(ms);
  }
  frameMs_[next_] = float(frameMs);
  gpuMs_[next_] = float(gpu);
  next_ = (next_ + 1) % capacity_;
  count_ = std::min(count_ + 1, capacity_);
}

std::vector<float> PerfHistory::ordered(const std::vector<float>& ring) const {
  std::vector<float> out;
  out.reserve(count_);
  const size_t first = (next_ + capacity_ - count_) % capacity_;
  for (size_t i = 0; i < count_; ++i) out.push_back(ring[(first + i) % capacity_]);
  return out;
}

std::vector<float> PerfHistory::frameTimes() const { return ordered(frameMs_); }
std::vector<float> PerfHistory::gpuTimes() const { return ordered(gpuMs_); }
double PerfHistory::medianFrameMs() const { return medianOf(frameTimes()); }
double PerfHistory::medianGpuMs() const { return medianOf(gpuTimes()); }

std::vector<std::pair<std::string, double>> PerfHistory::medianPasses() const {
  std::vector<std::pair<std::string, double>> out;
  for (size_t p = 0; p < passNames_.size(); ++p) out.emplace_back(passNames_[p], medianOf(ordered(passMs_[p])));
  return out;
}

void PerfHistory::clear() {
  *this = PerfHistory(capacity_);
}

}  // namespace weft
