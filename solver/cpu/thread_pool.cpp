#include "solver/cpu/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace weft {
namespace {
unsigned defaultThreads() {
  if (const char* env = std::getenv("WEFT_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return static_cast<unsigned>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// Spins until done() or `micros` have passed; true if done() came first. The clock is read once in
// 64 turns; past the first few thousand turns the thread yields its core between looks.
template <class Done>
bool spinUntil(int micros, Done done) {
  if (micros <= 0) return done();
  const auto limit = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
  for (unsigned turn = 1;; ++turn) {
    if (done()) return true;
    if (turn > 4096) std::this_thread::yield();
    if (turn % 64 == 0 && std::chrono::steady_clock::now() > limit) return done();
  }
}

int spinFromEnvironment(unsigned threads) {
  if (threads > std::max(1u, std::thread::hardware_concurrency())) return 0;
  if (const char* env = std::getenv("WEFT_SPIN_US")) {
    int us = std::atoi(env);
    if (us >= 0) return std::min(us, 100000);
  }
  return ThreadPool::kSpinMicroseconds;
}

// Chunk `index` of `parts` equal contiguous chunks of [0, n).
std::pair<size_t, size_t> chunk(size_t n, unsigned index, unsigned parts) {
  return {n * index / parts, n * (index + 1) / parts};
}
}  // namespace

ThreadPool::ThreadPool(unsigned threads, int spinMicroseconds) {
  unsigned count = threads ? threads : defaultThreads();
  spinMicroseconds_ = spinMicroseconds >= 0 ? spinMicroseconds : spinFromEnvironment(count);
  for (unsigned i = 1; i < count; ++i) workers_.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_.store(true, std::memory_order_release);
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::parallelFor(size_t n, const std::function<void(size_t, size_t)>& body, size_t serialBelow) {
  run(n, [&](size_t begin, size_t end, unsigned) { body(begin, end); }, serialBelow);
}

void ThreadPool::parallelForClaimed(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body,
                                    size_t serialBelow) {
  if (size() == 1 || n < serialBelow) {
    body(0, n);
    return;
  }
  grain = std::max<size_t>(grain, 1);
  std::atomic<size_t> next{0};
  // One chunk a thread, each of which claims blocks until the items are spent.
  run(size(), [&](size_t, size_t, unsigned) {
    for (size_t begin = next.fetch_add(grain, std::memory_order_relaxed); begin < n;
         begin = next.fetch_add(grain, std::memory_order_relaxed))
      body(begin, std::min(n, begin + grain));
  }, 0);
}

double ThreadPool::parallelSum(size_t n, const std::function<double(size_t, size_t)>& body) {
  std::vector<double> sums(size(), 0.0);
  run(n, [&](size_t begin, size_t end, unsigned chunk) { sums[chunk] = body(begin, end); });
  double total = 0.0;
  for (double s : sums) total += s;
  return total;
}

void ThreadPool::run(size_t n, const std::function<void(size_t, size_t, unsigned)>& body, size_t serialBelow) {
  const unsigned parts = size();
  if (parts == 1 || n < serialBelow) {
    body(0, n, 0);
    return;
  }
  {
    // Under the mutex, so that a worker about to sleep either sees the new generation or is woken.
    std::lock_guard lock(mutex_);
    body_ = &body;
    n_ = n;
    pending_.store(parts - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_.notify_all();  // no system call while every worker is still spinning
  auto [begin, end] = chunk(n, 0, parts);
  body(begin, end, 0);
  auto finished = [&] { return pending_.load(std::memory_order_acquire) == 0; };
  if (!spinUntil(spinMicroseconds_, finished)) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, finished);
  }
  body_ = nullptr;
}

void ThreadPool::workerLoop(unsigned index) {
  unsigned seen = 0;
  for (;;) {
    auto woken = [&] {
      return stop_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
    };
    if (!spinUntil(spinMicroseconds_, woken)) {
      std::unique_lock lock(mutex_);
      start_.wait(lock, woken);
    }
    if (stop_.load(std::memory_order_acquire)) return;
    seen = generation_.load(std::memory_order_acquire);
    const std::function<void(size_t, size_t, unsigned)>* body = body_;
    const size_t n = n_;
    auto [begin, end] = chunk(n, index, size());
    (*body)(begin, end, index);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // The caller may be asleep: take the mutex it checks `pending_` under before it sleeps, so
      // the notice cannot fall between its check and its wait.
      { std::lock_guard lock(mutex_); }
      done_.notify_one();
    }
  }
}

}  // namespace weft
