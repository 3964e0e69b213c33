#pragma once
// GPU timestamps per named pass. Record begin/end pairs into a command buffer; after the submission
// has completed, read() returns the milliseconds of each pass, summed over repeated passes of one name.
#include <vulkan/vulkan_core.h>

#include <string>
#include <utility>
#include <vector>

namespace weft::engine {

class Context;
struct VulkanApi;

class GpuTimer {
 public:
  GpuTimer() = default;
  GpuTimer(const Context& context, uint32_t maxPasses);
  ~GpuTimer();
  GpuTimer(GpuTimer&& other) noexcept;
  GpuTimer& operator=(GpuTimer&& other) noexcept;
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  bool enabled() const { return pool_ != VK_NULL_HANDLE; }
  // Resets the queries; call once per command buffer before the first begin().
  void reset(VkCommandBuffer cmd);
  void begin(VkCommandBuffer cmd, const std::string& pass);
  void end(VkCommandBuffer cmd);
  // Per-pass totals in the order the names first appeared, in milliseconds; waits for the results.
  std::vector<std::pair<std::string, double>> read() const;

 private:
  const VulkanApi* vk_ = nullptr;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  double periodNs_ = 1.0;
  uint64_t validMask_ = ~0ull;
  uint32_t capacity_ = 0;
  uint32_t used_ = 0;
  std::vector<std::string> names_;  // one per begin/end pair
};

// Runs `pass` between a begin and an end when the timer is on; otherwise just runs it.
template <class Record>
void timed(GpuTimer* timer, VkCommandBuffer cmd, const char* name, Record&& pass) {
  if (timer && timer->enabled()) timer->begin(cmd, name);
  pass();
  if (timer && timer->enabled()) timer->end(cmd);
}

}  // namespace weft::engine
