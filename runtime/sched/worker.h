// Worker: the scheduler's state for one thread that runs chunks, a rank
// thread or a helper thread. Only that thread touches it, except the
// counters, which other threads read (relaxed atomics with a single writer:
// no locked read-modify-write on the hot path).
#pragma once

#include <atomic>
#include <cstdint>

#include "base/waiter.h"
#include "pure/pure.h"
#include "sched/task.h"

namespace pure::sched {

class Scheduler;

class alignas(kCacheLine) Worker {
 public:
  // `id`: the rank's local index, or ranks + helper index; `waiter` is the
  // thread's. `numa_node` is -1 when unknown (an unpinned helper).
  Worker(Scheduler& scheduler, int id, bool rank, Waiter& waiter, int numa_node)
      : scheduler_(scheduler), id_(id), rank_(rank), waiter_(waiter), numa_node_(numa_node),
        random_state_(0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(id + 1) | 1u) {}
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  Scheduler& scheduler() { return scheduler_; }
  int id() const { return id_; }
  bool rank() const { return rank_; }  // false for helper threads
  Waiter& waiter() { return waiter_; }
  int numa_node() const { return numa_node_; }

  // ---- the chunk this thread is running (for nesting and idx ranges) ----
  bool in_chunk() const { return depth_ > 0; }
  // Chunk count of the innermost task whose chunk is running here.
  std::int64_t running_chunks() const { return running_chunks_; }

  // Marks the calling thread as running chunks of a task of `chunks` chunks
  // until the scope ends; nests (a serial execute inside a chunk).
  class ChunkScope {
   public:
    ChunkScope(Worker& worker, std::int64_t chunks)
        : worker_(worker), saved_(worker.running_chunks_) {
      worker_.running_chunks_ = chunks;
      ++worker_.depth_;
    }
    ~ChunkScope() {
      --worker_.depth_;
      worker_.running_chunks_ = saved_;
    }
    ChunkScope(const ChunkScope&) = delete;
    ChunkScope& operator=(const ChunkScope&) = delete;

   private:
    Worker& worker_;
    std::int64_t saved_;
  };

  // ---- steal-policy state ----
  // xorshift64: cheap, private, good enough to spread probes.
  std::uint64_t next_random() {
    std::uint64_t x = random_state_;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    random_state_ = x;
    return x;
  }
  int last_victim = -1;  // sticky policy: where the last steal succeeded

  // ---- counters ----
  void count_task() { bump(tasks_, 1); }
  void count_own(std::int64_t chunks) { bump(own_chunks_, chunks); }
  void count_stolen(std::int64_t chunks) { bump(stolen_chunks_, chunks); }
  PURE_Task_stats stats() const {
    return {tasks_.load(std::memory_order_relaxed), own_chunks_.load(std::memory_order_relaxed),
            stolen_chunks_.load(std::memory_order_relaxed)};
  }

 private:
  static void bump(std::atomic<long long>& counter, std::int64_t n) {
    counter.store(counter.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }

  Scheduler& scheduler_;
  const int id_;
  const bool rank_;
  Waiter& waiter_;
  const int numa_node_;
  int depth_ = 0;
  std::int64_t running_chunks_ = 0;
  std::uint64_t random_state_;
  std::atomic<long long> tasks_{0};
  std::atomic<long long> own_chunks_{0};
  std::atomic<long long> stolen_chunks_{0};
};

}  // namespace pure::sched
