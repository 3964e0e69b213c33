#include "solver/thread_pool.h"

#include <algorithm>
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

// Chunk `index` of `parts` equal contiguous chunks of [0, n).
std::pair<size_t, size_t> chunk(size_t n, unsigned index, unsigned parts) {
  return {n * index / parts, n * (index + 1) / parts};
}
}  // namespace

ThreadPool::ThreadPool(unsigned threads) {
  unsigned count = threads ? threads : defaultThreads();
  for (unsigned i = 1; i < count; ++i) workers_.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::parallelFor(size_t n, const std::function<void(size_t, size_t)>& body, size_t serialBelow) {
  run(n, [&](size_t begin, size_t end, unsigned) { body(begin, end); }, serialBelow);
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
    std::lock_guard lock(mutex_);
    body_ = &body;
    n_ = n;
    pending_ = parts - 1;
    ++generation_;
  }
  start_.notify_all();
  auto [begin, end] = chunk(n, 0, parts);
  body(begin, end, 0);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
  body_ = nullptr;
}

void ThreadPool::workerLoop(unsigned index) {
  unsigned seen = 0;
  for (;;) {
    const std::function<void(size_t, size_t, unsigned)>* body;
    size_t n;
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      body = body_;
      n = n_;
    }
    auto [begin, end] = chunk(n, index, size());
    (*body)(begin, end, index);
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace weft
