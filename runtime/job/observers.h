// Observers: what a job records about itself when asked -- the timeline
// trace (PURE_TRACE, base/trace.h) and the per-rank statistics (PURE_STATS,
// base/stats.h) -- and how it reports them when it ends.
//
// The Process owns one Observers. It gives every rank thread and helper
// thread its trace buffer and counters before they run (attach), records
// the process-wide counters the watchdog samples (parked ranks, messages
// waiting in eager queues), and when the job ends writes the trace file and
// the statistics: in a job of several processes every process contributes
// its part and process 0 writes the one file and the one table.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/stats.h"
#include "base/trace.h"
#include "base/waiter.h"
#include "pure/pure.h"
#include "pure/run.hpp"

namespace pure {

class Cluster;

class Observers {
 public:
  // `world_of_local`: this process's ranks; `helpers`: its helper threads.
  Observers(const Config& config, std::vector<int> world_of_local, int world_size, int helpers,
            int proc, Cluster* cluster);
  Observers(const Observers&) = delete;
  Observers& operator=(const Observers&) = delete;

  bool tracing() const { return !buffers_.empty(); }
  bool counting() const { return config_.stats; }

  // Gives the thread of local rank `local` (or, with `helper`, of helper
  // thread `local`) its buffer and counters.
  void attach(Waiter& waiter, int local, bool helper);

  // The watchdog's samples (tracing only): ranks parked, messages waiting.
  void sample(std::uint64_t parked_ranks, std::uint64_t queued_messages);
  // Messages in this process's eager queues: senders add, receivers take
  // away (tracing only, so a plain job pays nothing).
  std::atomic<std::int64_t>& queued_messages() { return queued_; }

  // A communicator's name for the trace, by context (the rank's thread;
  // kept when first seen or renamed).
  void name_context(int local, int context, const std::string& name);

  // The job ended (every rank and helper thread has stopped, unless
  // `aborting`): writes the trace and prints or writes the statistics, once.
  // `tasks`: each rank's task counters (the scheduler's), by local index;
  // `helpers`: the helper threads' together. `unless_gathering`: nothing
  // when another thread is gathering the processes' parts (an abort heard
  // from another process: that gather never completes).
  void finish(bool aborting, const std::vector<PURE_Task_stats>& tasks, PURE_Task_stats helpers,
              bool unless_gathering = false);

 private:
  std::string trace_part() const;    // this process's events, as JSON array elements
  // This process's statistics as JSON: {"ranks": [...], "helpers": {...}}.
  std::string stats_part(const std::vector<PURE_Task_stats>& tasks, PURE_Task_stats helpers) const;
  void write_trace(const std::string& path, const std::vector<std::string>& parts) const;
  // `only_process` >= 0: the parts are that process's alone (an abort
  // across processes cannot gather), and the output says so.
  void write_stats(const std::vector<std::string>& parts, int only_process = -1) const;

  const Config& config_;
  const std::vector<int> world_of_;
  const int world_size_;
  const int helpers_;
  const int proc_;
  Cluster* const cluster_;
  // Tracing: one buffer per rank, then per helper, then the sampler's.
  std::vector<std::unique_ptr<trace::Buffer>> buffers_;
  std::vector<std::vector<std::pair<int, std::string>>> context_names_;  // per rank
  std::vector<RankStats> stats_;  // per rank, when counting
  std::atomic<std::int64_t> queued_{0};
  // finish runs once: on the watchdog thread when another process aborts
  // the job (AbortNotice), and again as the process ends; the second waits
  // for the first to have written.
  std::mutex finish_mutex_;
  std::atomic<bool> gathering_{false};  // a finish is gathering the processes' parts
  bool finished_ = false;
};

}  // namespace pure
