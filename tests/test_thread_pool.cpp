// The CPU backend's pool: every pass covers each index exactly once and returns only when all of it
// is done, whether the workers are still spinning from the last pass or asleep, and sums come out
// the same in every run.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "solver/cpu/thread_pool.h"

namespace weft {
namespace {

// Runs `passes` passes over n counters, each adding one to every counter it covers, and `pause`
// between passes; each pass first checks that the last one finished every counter.
int64_t countedPasses(ThreadPool& pool, size_t n, int passes, std::chrono::microseconds pause) {
  std::vector<int32_t> counts(n, 0);
  int64_t unfinished = 0;
  for (int p = 0; p < passes; ++p) {
    for (size_t i = 0; i < n; ++i) unfinished += counts[i] != p;
    pool.parallelFor(n, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) ++counts[i];
    }, 0);
    if (pause.count() > 0) std::this_thread::sleep_for(pause);
  }
  for (size_t i = 0; i < n; ++i) unfinished += counts[i] != passes;
  return unfinished;
}

TEST(ThreadPool, BackToBackPassesCoverEveryIndexOnceAndFinishBeforeReturning) {
  for (int spin : {0, ThreadPool::kSpinMicroseconds})
    for (unsigned threads : {2u, 3u, 4u}) {
      ThreadPool pool(threads, spin);
      EXPECT_EQ(countedPasses(pool, 4099, 300, std::chrono::microseconds(0)), 0) << threads << " threads, spin " << spin;
    }
}

TEST(ThreadPool, PassesAfterTheWorkersHaveFallenAsleepWakeThem) {
  // Pauses of several times the spin: every pass finds the workers asleep on the condition variable.
  ThreadPool pool(3, 20);
  const std::chrono::microseconds spin(pool.spinMicroseconds());
  EXPECT_EQ(countedPasses(pool, 1001, 40, 8 * spin), 0);
  // And passes that alternate: some find the workers spinning, some asleep.
  for (int round = 0; round < 40; ++round)
    EXPECT_EQ(countedPasses(pool, 777, 3, round % 2 ? std::chrono::microseconds(0) : 2 * spin), 0);
}

TEST(ThreadPool, MorePoolThreadsThanCoresNeverSpin) {
  EXPECT_EQ(ThreadPool(std::max(1u, std::thread::hardware_concurrency()) + 1).spinMicroseconds(), 0);
}

// parallelForClaimed hands out blocks of `grain` items in turn: each index once, in blocks that
// start at a multiple of the grain, and the costly items at the front (each block there sleeps, as
// a pile's dense vertices cost hundreds of pair tests) are shared among the threads instead of all
// falling to the one whose contiguous chunk holds them.
TEST(ThreadPool, ClaimedBlocksCoverEveryIndexOnceAndShareTheCostlyOnes) {
  for (unsigned threads : {2u, 3u})
    for (size_t grain : {1u, 16u, 7u}) {
      ThreadPool pool(threads);
      const size_t n = 2011, costly = 20 * grain;
      std::vector<int32_t> counts(n, 0);
      std::vector<std::thread::id> ranBy(n);
      size_t misaligned = 0;
      std::mutex m;
      pool.parallelForClaimed(n, grain, [&](size_t begin, size_t end) {
        if (begin < costly) std::this_thread::sleep_for(std::chrono::microseconds(500));
        std::lock_guard lock(m);
        misaligned += begin % grain != 0 || end != std::min(n, begin + grain);
        for (size_t i = begin; i < end; ++i) {
          ++counts[i];
          ranBy[i] = std::this_thread::get_id();
        }
      }, 0);
      EXPECT_EQ(std::count(counts.begin(), counts.end(), 1), static_cast<std::ptrdiff_t>(n)) << threads << " threads, grain " << grain;
      EXPECT_EQ(misaligned, 0u);
      // Those blocks lie within the first thread's contiguous chunk (n / threads items): shared,
      // more than one thread ran them.
      ASSERT_LT(costly, n / threads);
      EXPECT_GE(std::set<std::thread::id>(ranBy.begin(), ranBy.begin() + costly).size(), 2u) << threads << " threads, grain " << grain;
    }
  // Below serialBelow, the caller runs it all as one block.
  ThreadPool pool(2);
  size_t calls = 0;
  pool.parallelForClaimed(10, 4, [&](size_t begin, size_t end) { calls += begin == 0 && end == 10; }, 64);
  EXPECT_EQ(calls, 1u);
}

TEST(ThreadPool, SumsAddTheChunksInTheirOrderEveryTime) {
  ThreadPool pool(3);
  const size_t n = 30011;
  std::vector<double> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = 1.0 / double(i + 1) * (i % 2 ? -1e-3 : 1e5);
  auto chunkSum = [&](size_t begin, size_t end) {
    double s = 0.0;
    for (size_t i = begin; i < end; ++i) s += values[i];
    return s;
  };
  // The three chunks of [0, n), summed one after another: what the pool must return.
  double expected = 0.0;
  for (unsigned c = 0; c < 3; ++c) expected += chunkSum(n * c / 3, n * (c + 1) / 3);
  for (int run = 0; run < 500; ++run) ASSERT_EQ(pool.parallelSum(n, chunkSum), expected) << "run " << run;
}

}  // namespace
}  // namespace weft
