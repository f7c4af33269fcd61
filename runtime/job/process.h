// Process: everything one job shares inside an OS process. It owns the rank
// contexts, the eager queues between them (created lazily by their sender,
// reused for the whole job), the abort state and the deadlock watchdog.
//
// Its ranks are numbered by local index 0..size()-1; their world ranks come
// from the RankMap (the identity in a single-process job). In a job of
// several processes it also holds the Cluster (MPI) and the world
// communicator's CommNet.
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
#include "net/rank_map.h"
#include "base/wait.h"

namespace pure {

class Rank;
class Dropbox;
class Cluster;
class Fibers;
struct CommNet;
namespace sched {
class Scheduler;
}

class Process {
 public:
  // `proc` is this process in `map`; `cluster` is nullptr in a
  // single-process job.
  Process(const Config& config, RankMap map, int proc, Cluster* cluster);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  int run(const RankMain& entry, int argc, char** argv);

  const Config& config() const { return config_; }
  int size() const { return size_; }  // rank threads of this process
  Rank& rank(int index) { return *ranks_[static_cast<size_t>(index)]; }

  // ---- the whole job ----
  const RankMap& map() const { return map_; }
  int proc() const { return proc_; }
  int world_size() const { return map_.ranks(); }
  int world_rank(int index) const { return map_.ranks_of(proc_)[static_cast<size_t>(index)]; }
  // Local index of world rank `rank`, or -1 when it lives in another process.
  int local_index(int rank) const {
    return map_.proc_of(rank) == proc_ ? map_.local_of(rank) : -1;
  }
  // The rank thread of a world rank that lives here.
  Rank& rank_of_world(int rank) { return this->rank(map_.local_of(rank)); }
  Cluster* cluster() const { return cluster_; }
  const std::shared_ptr<CommNet>& world_net() const { return world_net_; }
  // Largest user tag: INT_MAX in one process; less across processes, where
  // MPI tags also carry the sender's slot.
  const int& tag_ub() const { return tag_ub_; }
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

  // Whether ranks sharing a core are fibers taking turns on one thread
  // (fiber.h): nullptr when they are not.
  Fibers* fibers() const { return fibers_.get(); }

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
  RankMap map_;
  const int proc_;
  Cluster* const cluster_;
  std::shared_ptr<CommNet> world_net_;
  int tag_ub_;
  const int size_;  // fixed before any Rank is built: ranks size their tables by it
  bool oversubscribed_;
  std::shared_ptr<Dropbox> world_dropbox_;
  std::unique_ptr<Fibers> fibers_;  // before ranks_: they refer to it
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
