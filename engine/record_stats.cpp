#include "engine/record_stats.h"

#include <algorithm>

namespace weft::engine {

namespace detail {
thread_local RecordStats* recordStats = nullptr;
}

PassRecordStats& RecordStats::pass() {
  auto it = std::find_if(passes_.begin(), passes_.end(), [&](const PassRecordStats& p) { return p.name == current_; });
  if (it != passes_.end()) return *it;
  passes_.push_back({current_});
  return passes_.back();
}

void RecordStats::dispatch(uint64_t boundBytes) {
  PassRecordStats& p = pass();
  ++p.dispatches;
  p.boundBytes += boundBytes;
}

void RecordStats::barrier() { ++pass().barriers; }

PassRecordStats RecordStats::total() const {
  PassRecordStats sum;
  for (const PassRecordStats& p : passes_) {
    sum.dispatches += p.dispatches;
    sum.barriers += p.barriers;
    sum.boundBytes += p.boundBytes;
  }
  return sum;
}

uint64_t RecordStats::distinctBoundBytes() const {
  uint64_t sum = 0;
  for (const auto& [buffer, bytes] : distinct_) sum += bytes;
  return sum;
}

void RecordStats::clear() {
  passes_.clear();
  distinct_.clear();
  current_.clear();
}

}  // namespace weft::engine
