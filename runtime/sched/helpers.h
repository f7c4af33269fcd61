// HelperThreads (PURE_HELPERS=k): extra threads that only steal chunks.
//
// They start before the rank threads and stop after them. Helper i is pinned
// to core ranks + i when ranks are pinned and that core is free, and runs
// unpinned otherwise. Between steals a helper backs off like a waiting rank
// (spin, yield, park); publishing a task wakes parked helpers.
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "base/parker.h"
#include "base/wait.h"

namespace pure::sched {

class Scheduler;
class Worker;

class HelperThreads {
 public:
  HelperThreads(Scheduler& scheduler, std::vector<Worker*> workers, std::vector<int> cores,
                BackoffPolicy backoff);
  ~HelperThreads();  // stops them if still running
  HelperThreads(const HelperThreads&) = delete;
  HelperThreads& operator=(const HelperThreads&) = delete;

  void start();
  void stop();
  // A task was published: wake the helpers that are parked.
  void notify_all();
  // Whether some helper is running a chunk now.
  bool busy() const;

 private:
  struct Helper {
    Worker* worker;
    int core;  // -1: unpinned
    Parker parker;
    std::thread thread;
  };
  void main(Helper& helper);

  Scheduler& scheduler_;
  const BackoffPolicy backoff_;
  std::vector<std::unique_ptr<Helper>> helpers_;
  std::atomic<bool> stop_{false};
};

}  // namespace pure::sched
