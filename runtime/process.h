// Process: everything one job shares inside an OS process. It owns the rank
// contexts, the eager queues between them (created lazily by their sender,
// reused for the whole job), the abort state and the deadlock watchdog.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "channels/eager_queue.h"
#include "pure/run.hpp"
#include "wait.h"

namespace pure {

class Rank;
class Dropbox;
namespace sched {
class Scheduler;
}

class Process {
 public:
  Process(const Config& config, int ranks);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  int run(const RankMain& entry, int argc, char** argv);

  const Config& config() const { return config_; }
  int size() const { return size_; }
  Rank& rank(int index) { return *ranks_[static_cast<size_t>(index)]; }
  bool oversubscribed() const { return oversubscribed_; }
  BackoffPolicy backoff() const { return BackoffPolicy::for_mode(config_.wait, oversubscribed_); }

  // The queue from `from` to `to`, created on first use. Only `from` calls it.
  EagerQueue& queue_for_sender(int from, int to);
  // The same queue as seen by `to`: nullptr until the sender created it.
  EagerQueue* queue_for_receiver(int from, int to) const {
    return queues_[slot(from, to)].load(std::memory_order_acquire);
  }

  // ---- abort ----
  bool aborted() const { return abort_code_.load(std::memory_order_acquire) != 0; }
  // Ends the job: the first caller's code and message win and are printed at
  // once; every parked rank is woken and unwinds at its next wait.
  void abort(int code, const std::string& message);
  int abort_code() const { return abort_code_.load(std::memory_order_acquire); }

  // Pure Tasks: the active-task table, steal policies and helper threads.
  sched::Scheduler& scheduler() { return *scheduler_; }

  // The collective state every rank's PURE_COMM_WORLD shares.
  const std::shared_ptr<Dropbox>& world_dropbox() const { return world_dropbox_; }

  // Process-wide fresh context ids for new communicators.
  int next_context() { return next_context_.fetch_add(1, std::memory_order_relaxed); }

 private:
  size_t slot(int from, int to) const {
    return static_cast<size_t>(from) * static_cast<size_t>(size_) + static_cast<size_t>(to);
  }
  void rank_main(int index, const RankMain& entry, int argc, char** argv);
  void watchdog();
  std::string deadlock_report();

  Config config_;
  const int size_;  // fixed before any Rank is built: ranks size their tables by it
  bool oversubscribed_;
  std::shared_ptr<Dropbox> world_dropbox_;
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::unique_ptr<sched::Scheduler> scheduler_;  // after ranks_: it refers to them
  std::unique_ptr<std::atomic<EagerQueue*>[]> queues_;
  std::vector<std::unique_ptr<EagerQueue>> queue_storage_;  // per (from,to) slot
  std::atomic<int> abort_code_{0};
  std::mutex abort_mutex_;
  std::string abort_message_;
  std::atomic<int> exit_code_{0};
  std::atomic<int> next_context_{16};  // 0..15 are reserved for predefined communicators

  // watchdog
  std::mutex watchdog_mutex_;
  std::condition_variable watchdog_cv_;
  bool job_done_ = false;
  std::atomic<int> running_{0};
};

}  // namespace pure
