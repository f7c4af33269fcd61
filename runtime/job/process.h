// Process: everything one job shares inside an OS process. It owns the rank
// contexts and what they share -- the Peers (how to reach each rank thread),
// the eager queues between them, the collectives' shared state, the fibers
// of ranks sharing cores, the task scheduler -- and the abort state and the
// deadlock watchdog.
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

#include "base/fiber.h"
#include "base/peers.h"
#include "channels/queue_table.h"
#include "collectives/dropbox.h"
#include "collectives/member.h"
#include "job/observers.h"
#include "job/rank_globals.h"
#include "net/rank_map.h"
#include "onesided/member.h"
#include "pure/run.hpp"
#include "sched/scheduler.h"

namespace pure {

class AbortNotice;
class Cluster;
struct CommNet;
class AmNet;
class Rank;

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
  int world_rank(int index) const { return peers_.world_of(index); }
  Cluster* cluster() const { return cluster_; }
  const std::shared_ptr<CommNet>& world_net() const { return world_net_; }
  // The MPI side of the runtime's own world communicator (Rank::context).
  const std::shared_ptr<CommNet>& service_net() const { return service_net_; }
  // Largest user tag: INT_MAX in one process; less across processes, where
  // MPI tags also carry the sender's slot.
  const int& tag_ub() const { return tag_ub_; }
  // More ranks than cores in this process's cpuset (across processes: on
  // this node, every process's ranks counted): they share cores.
  bool oversubscribed() const { return oversubscribed_; }
  // The node: its lowest world rank (the process's in a job of one), and
  // the node's cores before this process's first rank's (the processes of
  // a node pin their ranks to consecutive cores).
  int node_first() const;
  int node_offset() const;
  // Whether ranks are pinned to cores (PURE_BIND=core): not when the
  // ranks of several processes share a node's cores as threads, where
  // MPI's own polling runs on them too and the kernel must balance them.
  bool pins_ranks() const { return config_.bind == Bind::core && !(cluster_ && oversubscribed_); }
  BackoffPolicy backoff() const { return BackoffPolicy::for_mode(config_.wait, oversubscribed_); }

  // Every rank of the job, and the ranks of this process, in world order:
  // shared by every rank's PURE_COMM_WORLD and its local view.
  const GroupRef& world_group() const { return world_group_; }
  const GroupRef& local_group() const { return local_group_; }

  // What the layers below share.
  Peers& peers() { return peers_; }
  QueueTable& queues() { return queues_; }
  coll::Shared& collectives() { return collectives_; }
  onesided::Shared& onesided() { return onesided_; }
  const std::shared_ptr<coll::Dropbox>& world_dropbox() const { return world_dropbox_; }
  // Ranks sharing a core as fibers taking turns on one thread (fiber.h):
  // nullptr when they are not.
  Fibers* fibers() const { return fibers_.get(); }
  sched::Scheduler& scheduler() { return *scheduler_; }
  // The trace and statistics (PURE_TRACE, PURE_STATS).
  Observers& observers() { return *observers_; }

  // ---- abort ----
  bool aborted() const { return abort_code() != 0; }
  // The abort as every rank's Waiter sees it.
  AbortState& abort_state() { return abort_; }
  // Ends the job: the first caller's code and message win and are printed at
  // once; every parked rank is woken and unwinds at its next wait.
  void abort(int code, const std::string& message);
  // The process of the job running now (a program runs one job at a time),
  // for a call from a thread that belongs to no rank; nullptr between jobs.
  static Process* running();
  int abort_code() const { return abort_.code.load(std::memory_order_acquire); }

 private:
  void rank_main(int index, const RankMain& entry, int argc, char** argv);
  void watchdog();
  // Another process aborts the job (net/abort_notice.h): this one's ranks
  // unwind as on an abort of its own, and it writes its part of the trace
  // and statistics and says so; the aborting process's MPI_Abort ends it.
  void abort_heard(int from, int code, AbortNotice& notice);
  // A rank crashed (crash::set_farewell, in its signal handler): has the
  // watchdog tell the other processes, and waits boundedly until it has.
  void crash_farewell(int status);
  std::string deadlock_report();
  void print_settings() const;
  // Writes the trace and statistics (Observers::finish).
  void observe_end(bool aborting, bool unless_gathering = false);
  void stop_sampling();  // before the trace is read: the watchdog's samples end

  Config config_;
  RankMap map_;
  const int proc_;
  Cluster* const cluster_;
  std::shared_ptr<CommNet> world_net_;
  std::shared_ptr<CommNet> service_net_;
  const int tag_ub_;
  const int size_;  // fixed before any Rank is built: ranks size their tables by it
  const bool oversubscribed_;
  const bool fibers_on_;  // ranks sharing cores are fibers (see the constructor)
  Peers peers_;
  GroupRef world_group_;
  GroupRef local_group_;
  QueueTable queues_;
  coll::Shared collectives_;
  onesided::Shared onesided_;
  std::unique_ptr<AmNet> am_net_;  // across processes only; after onesided_, which refers to it
  std::unique_ptr<Fibers> fibers_;  // before ranks_: they refer to it
  AbortState abort_;  // before ranks_: their Waiters refer to it
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::shared_ptr<coll::Dropbox> world_dropbox_;   // after ranks_: it holds their Parkers
  std::unique_ptr<sched::Scheduler> scheduler_;  // after ranks_: it refers to them
  std::unique_ptr<Observers> observers_;          // after scheduler_: helpers' waiters
  // Each rank's copy of the program's globals, for the length of run().
  std::unique_ptr<RankGlobals> globals_;
  std::mutex abort_mutex_;
  std::string abort_message_;
  // Set by the watchdog before the abort that ends a deadlock across
  // processes, where every process aborts and has written its part already:
  // then none is told (AbortNotice).
  std::atomic<bool> every_process_aborts_{false};
  // A crash's status for the watchdog to tell the other processes, and
  // whether it has (crash_farewell). The handler's release store of the
  // status pairs with the watchdog's acquire load; the watchdog's release
  // store of crash_told_, after its MPI calls, with the handler's acquire
  // load. Only the watchdog writes crash_told_, so its own read is relaxed.
  std::atomic<int> crash_status_{0};
  std::atomic<bool> crash_told_{false};
  std::atomic<int> exit_code_{0};  // first non-zero status returned after finalize

  // watchdog
  std::mutex watchdog_mutex_;
  std::condition_variable watchdog_cv_;
  bool job_done_ = false;
  // The watchdog samples the trace's counters while this is true; cleared
  // (under watchdog_mutex_, which the watchdog holds while it samples)
  // before the trace is read.
  bool sampling_ = true;
  std::atomic<int> running_{0};
};

}  // namespace pure
