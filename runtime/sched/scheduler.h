// Scheduler: Pure Tasks inside one process (DESIGN.md, "Pure Tasks").
//
// The active-task table has one slot per rank: an atomic pointer to the Task
// the rank is executing (or nullptr) and a pin count of thieves that may hold
// that pointer. execute() publishes the task, runs claims until none is
// left, unpublishes it, and then waits, in the rank's wait loop, until every
// chunk has completed and no thief is pinned. Ranks in any wait loop (and
// helper threads) call steal(): after their own condition (work-first) they
// probe the table in the steal policy's order, claim one run of chunks from
// the first task that has one, run it, and return so that their wait loop
// re-checks its condition.
//
// Lifetime (why a thief never touches a Task after execute returned): a
// thief pins the slot (seq_cst increment), then loads the pointer (seq_cst);
// the owner stores nullptr (seq_cst), then waits for the pin count to read 0
// (seq_cst). In the single total order of these four operations, either the
// thief's load comes before the owner's store, and then its pin comes before
// the owner's read of the count, which waits for the unpin; or the load comes
// after the store and sees nullptr (or a later task). A pinned thief may use
// the task freely; it unpins after its last access and then wakes the owner.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "base/peers.h"
#include "base/waiter.h"
#include "pure/pure.h"
#include "pure/run.hpp"
#include "sched/task.h"
#include "sched/worker.h"

namespace pure::sched {

class HelperThreads;

class Scheduler {
 public:
  // The scheduler of the ranks in `peers`, whose threads wait in
  // `waiters` (by local index). `on_helper_thread(worker)` runs first on
  // each helper thread and `on_helper_thread(nullptr)` last.
  Scheduler(const Config& config, const Peers& peers, const std::vector<Waiter*>& waiters,
            std::function<void(Worker*)> on_helper_thread);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // The worker of local rank `id`, or of helper `id - ranks()`.
  Worker& worker(int id) { return *workers_[static_cast<size_t>(id)]; }
  int ranks() const { return ranks_; }

  // Runs `body` over `requested` chunks (<= 0: PURE_MAX_TASK_CHUNKS; capped
  // at it) and returns once every chunk has run exactly once, rethrowing the
  // first exception a chunk threw. On a helper thread, inside a chunk, for
  // a single chunk, or when no other thread could help, it runs serially:
  // one call over all chunks. Called by the thread that owns `worker`.
  void execute(Worker& worker, const TaskBody& body, std::int64_t requested);

  // Called from wait loops: runs one claim of another rank's task. Returns
  // whether it ran one. Cheap when no task is published anywhere.
  bool steal(Worker& thief) {
    if (active_.load(std::memory_order_relaxed) == 0 || thief.in_chunk()) return false;
    return steal_slow(thief);
  }

  // ---- helper threads (PURE_HELPERS) ----
  void start_helpers();
  void stop_helpers();
  bool helpers_busy() const;
  PURE_Task_stats helper_stats() const;

 private:
  struct alignas(kCacheLine) Slot {
    std::atomic<Task*> task{nullptr};
    std::atomic<std::uint32_t> pins{0};  // thieves that may hold `task`
  };

  void run_serial(Worker& worker, const TaskBody& body, std::int64_t chunks);
  bool steal_slow(Worker& thief);
  bool scan_all(Worker& thief);
  bool scan(Worker& thief, const std::vector<int>& victims);
  bool try_steal(Worker& thief, int victim);

  const Config& config_;
  const Peers& peers_;
  const int ranks_;
  std::unique_ptr<Slot[]> slots_;
  std::vector<std::unique_ptr<Worker>> workers_;  // ranks first, then helpers
  std::vector<std::vector<int>> ranks_by_node_;   // NUMA node -> ranks (steal policy numa)
  std::unique_ptr<HelperThreads> helpers_;
  // Tasks published anywhere: a probe finds nothing to do with one load.
  alignas(kCacheLine) std::atomic<int> active_{0};
};

}  // namespace pure::sched
