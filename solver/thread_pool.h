#pragma once
// A fixed pool of worker threads for the CPU backend's per-particle loops. parallelFor splits
// [0, n) into one contiguous chunk per thread (particles are independent within a pass) and
// returns when every chunk is done: each call is one "pass", like a dispatch plus barrier.
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace weft {

class ThreadPool {
 public:
  // threads == 0: $WEFT_THREADS, else std::thread::hardware_concurrency().
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Below `serialBelow` items the calling thread does it all: cheap per-particle passes are not
  // worth waking the workers for; a pass with a lot of work per item (contact) asks for less.
  void parallelFor(size_t n, const std::function<void(size_t begin, size_t end)>& body, size_t serialBelow = 2048);
  // Sum of body(begin, end) over the chunks, added in chunk order: deterministic for a given
  // thread count (the CPU side of a GPU reduction).
  double parallelSum(size_t n, const std::function<double(size_t begin, size_t end)>& body);

 private:
  void run(size_t n, const std::function<void(size_t begin, size_t end, unsigned chunk)>& body, size_t serialBelow = 2048);
  void workerLoop(unsigned index);
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  const std::function<void(size_t, size_t, unsigned)>* body_ = nullptr;
  size_t n_ = 0;
  unsigned generation_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
};

// Sum over particles of fn(i): the CPU side of a per-particle pass that writes partial sums.
template <class Fn>
double sumOver(ThreadPool& pool, size_t n, Fn fn) {
  return pool.parallelSum(n, [&](size_t begin, size_t end) {
    double sum = 0;
    for (size_t i = begin; i < end; ++i) sum += fn(static_cast<uint32_t>(i));
    return sum;
  });
}

}  // namespace weft
