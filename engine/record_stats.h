#pragma once
// Recording statistics: how many dispatches, barriers and bound bytes the commands recorded on this
// thread carry, per timed pass. Nothing is counted unless a sink is installed (ScopedRecordStats);
// the recording paths pay one null check for it. Bound bytes are the sizes of the buffers each
// dispatch binds, or of the part of one it declares it reaches (BufferBinding::reach): an upper
// bound of what the dispatch moves (each of those bytes read or written once).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <vulkan/vulkan_core.h>

namespace weft::engine {

struct PassRecordStats {
  std::string name;  // the GpuTimer pass open when recorded; "" outside any timed pass
  uint64_t dispatches = 0;
  uint64_t barriers = 0;
  uint64_t boundBytes = 0;
};

class RecordStats {
 public:
  void dispatch(uint64_t boundBytes);
  void barrier();
  void bound(VkBuffer buffer, uint64_t bytes) { distinct_[buffer] = bytes; }
  // GpuTimer::begin/end name the pass that later counts go to.
  void enterPass(const std::string& name) { current_ = name; }
  void leavePass() { current_.clear(); }

  // Per pass, in the order the names first appeared (barriers outside a pass under "").
  const std::vector<PassRecordStats>& passes() const { return passes_; }
  PassRecordStats total() const;
  // The sizes of the distinct buffers bound since the last clear(), summed.
  uint64_t distinctBoundBytes() const;
  void clear();

 private:
  PassRecordStats& pass();
  std::vector<PassRecordStats> passes_;
  std::unordered_map<VkBuffer, uint64_t> distinct_;
  std::string current_;
};

namespace detail {
extern thread_local RecordStats* recordStats;
}
inline RecordStats* recordStats() { return detail::recordStats; }

// Installs `stats` as this thread's sink for its lifetime (restoring the previous one after).
class ScopedRecordStats {
 public:
  explicit ScopedRecordStats(RecordStats& stats) : previous_(detail::recordStats) { detail::recordStats = &stats; }
  ~ScopedRecordStats() { detail::recordStats = previous_; }
  ScopedRecordStats(const ScopedRecordStats&) = delete;
  ScopedRecordStats& operator=(const ScopedRecordStats&) = delete;

 private:
  RecordStats* previous_;
};

}  // namespace weft::engine
