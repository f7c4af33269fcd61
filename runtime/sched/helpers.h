// HelperThreads (PURE_HELPERS=k): extra threads that only steal chunks.
//
// They start before the rank threads and stop after them. Helper i is pinned
// to core ranks + i when ranks are pinned and that core is free, and runs
// unpinned otherwise. A helper is a thread in the wait loop (base/waiter.h)
// whose only work is stealing and whose condition is "stop": between steals
// it backs off like a waiting rank (spin, yield, park); publishing a task
// wakes parked helpers.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "base/waiter.h"

namespace pure::sched {

class Scheduler;
class Worker;

class HelperThreads {
 public:
  // `on_thread(worker)` runs first on each helper thread, and
  // `on_thread(nullptr)` last (the job records the thread's worker).
  HelperThreads(Scheduler& scheduler, std::vector<int> cores, BackoffPolicy backoff,
                std::function<void(Worker*)> on_thread);
  ~HelperThreads();  // stops them if still running
  HelperThreads(const HelperThreads&) = delete;
  HelperThreads& operator=(const HelperThreads&) = delete;

  void start();
  void stop();
  // A task was published: wake the helpers that are parked.
  void notify_all();
  // Whether some helper is running a chunk now.
  bool busy() const;
  // The helpers' Waiters, for their Workers (in helper order).
  Waiter& waiter(std::size_t helper) { return helpers_[helper]->waiter; }
  void set_worker(std::size_t helper, Worker* worker) { helpers_[helper]->worker = worker; }

 private:
  struct Helper final : WaitWork {
    Helper(Scheduler& s, int c, BackoffPolicy backoff)
        : scheduler(s), core(c), waiter(backoff, nullptr, 0, nullptr) {
      waiter.set_work(this);
    }
    void progress(bool) override {}
    bool steal() override;
    bool remote_in_flight() override { return false; }

    Scheduler& scheduler;
    Worker* worker = nullptr;
    int core;  // -1: unpinned
    Waiter waiter;  // never aborts: helpers run until stop()
    std::thread thread;
  };
  void main(Helper& helper);

  std::function<void(Worker*)> on_thread_;
  std::vector<std::unique_ptr<Helper>> helpers_;
  std::atomic<bool> stop_{false};
};

}  // namespace pure::sched
