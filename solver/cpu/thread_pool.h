#pragma once
// A fixed pool of worker threads for the CPU backend's per-particle loops. parallelFor splits
// [0, n) into one contiguous chunk per thread (particles are independent within a pass) and
// returns when every chunk is done: each call is one "pass", like a dispatch plus barrier.
// Passes come back to back (xpbd runs 17 a step, hundreds a frame), so a worker that has finished
// one waits for the next by spinning for up to kSpinMicroseconds before it sleeps on the condition
// variable, and so does the caller for the workers' chunks. Measured on 2 cores, a pass over 4,096
// trivial items: 44 us with a sleep and a futex wake on each side, 0.85-1.25 us spinning; xpbd at
// 128² went from 2.11 to 1.68 ms a step with its springs in lanes, and to 1.05 with the spin.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace weft {

class ThreadPool {
 public:
  // threads == 0: $WEFT_THREADS, else std::thread::hardware_concurrency(). spinMicroseconds < 0:
  // $WEFT_SPIN_US, else kSpinMicroseconds (see there).
  explicit ThreadPool(unsigned threads = 0, int spinMicroseconds = -1);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // How long a waiting thread spins before it sleeps, unless $WEFT_SPIN_US says otherwise (0: sleep
  // at once, for a machine shared with other work): long enough to span the host's work between two
  // passes of a step, short enough that a pool left idle (a viewer between frames) gives its cores
  // back at once. A pool with more threads than the machine has cores never spins: a spinning
  // thread would hold a core that a thread with work is waiting for.
  static constexpr int kSpinMicroseconds = 50;
  int spinMicroseconds() const { return spinMicroseconds_; }
  // Below `serialBelow` items the calling thread does it all: cheap per-particle passes are not
  // worth waking the workers for; a pass with a lot of work per item (contact) asks for less.
  void parallelFor(size_t n, const std::function<void(size_t begin, size_t end)>& body, size_t serialBelow = 2048);
  // The same pass for items whose costs differ widely (contact: a vertex in a pile has hundreds of
  // pairs, one in free fall none): the threads claim blocks of `grain` items in turn until none
  // is left, instead of one contiguous chunk each, so that none waits long on the one holding the
  // dense part. The body must not depend on which thread runs a block, nor on their order.
  void parallelForClaimed(size_t n, size_t grain, const std::function<void(size_t begin, size_t end)>& body,
                          size_t serialBelow);
  // Sum of body(begin, end) over the chunks, added in chunk order: deterministic for a given
  // thread count (the CPU side of a GPU reduction).
  double parallelSum(size_t n, const std::function<double(size_t begin, size_t end)>& body);

 private:
  void run(size_t n, const std::function<void(size_t begin, size_t end, unsigned chunk)>& body, size_t serialBelow = 2048);
  void workerLoop(unsigned index);
  std::vector<std::thread> workers_;
  int spinMicroseconds_ = kSpinMicroseconds;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  // Written by the caller before it raises generation_ (release), read by the workers after they
  // see it raised (acquire).
  const std::function<void(size_t, size_t, unsigned)>* body_ = nullptr;
  size_t n_ = 0;
  std::atomic<unsigned> generation_{0};
  std::atomic<unsigned> pending_{0};  // workers' chunks of this pass not yet done
  std::atomic<bool> stop_{false};
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
