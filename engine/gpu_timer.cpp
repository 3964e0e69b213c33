#include "engine/gpu_timer.h"

#include <algorithm>
#include <utility>

#include "engine/context.h"
#include "engine/record_stats.h"
#include "engine/vk_check.h"

namespace weft::engine {

GpuTimer::GpuTimer(const Context& context, uint32_t maxPasses)
    : vk_(&context.vk()), device_(context.device()), capacity_(maxPasses) {
  if (!context.timestampsSupported()) return;  // enabled() stays false; callers still run their passes
  periodNs_ = context.properties().limits.timestampPeriod;
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2 * maxPasses;
  VK_CHECK(vk_->CreateQueryPool(device_, &info, nullptr, &pool_));
  context.setName(VK_OBJECT_TYPE_QUERY_POOL, reinterpret_cast<uint64_t>(pool_), "weft.timestamps");
}

GpuTimer::~GpuTimer() {
  if (pool_) vk_->DestroyQueryPool(device_, pool_, nullptr);
}

GpuTimer::GpuTimer(GpuTimer&& other) noexcept { *this = std::move(other); }
GpuTimer& GpuTimer::operator=(GpuTimer&& other) noexcept {
  if (this != &other) {
    if (pool_) vk_->DestroyQueryPool(device_, pool_, nullptr);
    vk_ = other.vk_;
    device_ = other.device_;
    pool_ = std::exchange(other.pool_, VK_NULL_HANDLE);
    periodNs_ = other.periodNs_;
    validMask_ = other.validMask_;
    capacity_ = other.capacity_;
    used_ = other.used_;
    names_ = std::move(other.names_);
  }
  return *this;
}

void GpuTimer::reset(VkCommandBuffer cmd) {
  if (!pool_) return;
  vk_->CmdResetQueryPool(cmd, pool_, 0, 2 * capacity_);
  used_ = 0;
  names_.clear();
}

void GpuTimer::begin(VkCommandBuffer cmd, const std::string& pass) {
  if (RecordStats* stats = recordStats()) stats->enterPass(pass);
  if (!pool_ || used_ >= capacity_) return;
  names_.push_back(pass);
  vk_->CmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool_, 2 * used_);
}

void GpuTimer::end(VkCommandBuffer cmd) {
  if (RecordStats* stats = recordStats()) stats->leavePass();
  if (!pool_ || used_ >= capacity_) return;
  vk_->CmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 2 * used_ + 1);
  ++used_;
}

std::vector<std::pair<std::string, double>> GpuTimer::read() const {
  std::vector<std::pair<std::string, double>> totals;
  if (!pool_ || used_ == 0) return totals;
  std::vector<uint64_t> ticks(2 * used_);
  VK_CHECK(vk_->GetQueryPoolResults(device_, pool_, 0, 2 * used_, ticks.size() * sizeof(uint64_t), ticks.data(),
                                    sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  for (uint32_t i = 0; i < used_; ++i) {
    double ms = static_cast<double>(ticks[2 * i + 1] - ticks[2 * i]) * periodNs_ * 1e-6;
    auto it = std::find_if(totals.begin(), totals.end(), [&](auto& t) { return t.first == names_[i]; });
    if (it == totals.end()) totals.emplace_back(names_[i], ms);
    else it->second += ms;
  }
  return totals;
}

}  // namespace weft::engine
