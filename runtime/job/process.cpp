#include "job/process.h"

#include <cxxabi.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <numeric>
#include <optional>
#include <typeinfo>

#include "base/error.h"
#include "base/topology.h"
#include "collectives/collectives.h"
#include "job/crash.h"
#include "job/rank.h"
#include "net/cluster.h"
#include "net/am_net.h"
#include "net/comm_net.h"

namespace pure {

namespace {

// An uncaught exception ends a process with SIGABRT's status (std::terminate
// calls abort): as mpirun reports it, the job ends with 128 + 6.
constexpr int kUncaughtExceptionStatus = 134;

// How long an aborting process waits for the others to write their part of
// the trace and statistics (AbortNotice) before MPI_Abort ends them.
constexpr double kAbortNoticeSeconds = 3.0;

// The demangled type of the exception being handled, e.g. "std::out_of_range".
std::string current_exception_type() {
  const std::type_info* type = abi::__cxa_current_exception_type();
  if (!type) return "unknown";
  int status = 0;
  char* name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
  std::string result = status == 0 && name ? name : type->name();
  std::free(name);
  return result;
}

std::vector<int> iota(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}
}  // namespace

namespace {
// Set once the process is built, cleared as it goes (release/acquire: a
// thread that finds it sees it whole).
std::atomic<Process*> g_running{nullptr};
}  // namespace

Process::Process(const Config& config, RankMap map, int proc, Cluster* cluster)
    : config_(config),
      map_(std::move(map)),
      proc_(proc),
      cluster_(cluster),
      tag_ub_(INT_MAX),
      size_(static_cast<int>(map_.ranks_of(proc).size())),
      // More ranks than cores in our cpuset means they must share cores;
      // across processes, the ranks of every process on this node count
      // (each process counting only its own, all spun on shared cores).
      oversubscribed_((cluster ? cluster->node_ranks() : size_) > Topology::get().cores()),
      // Ranks sharing cores take turns as fibers, one host thread per core
      // (fiber.h). Not across processes: MPI keeps per-kernel-thread state
      // of its own.
      fibers_on_(config_.fibers && oversubscribed_ && !cluster_ && Fibers::supported()),
      peers_(map_.ranks_of(proc), map_.ranks()),
      world_group_(std::make_shared<const Group>(iota(map_.ranks()))),
      local_group_(std::make_shared<const Group>(map_.ranks_of(proc))),
      queues_(size_, static_cast<std::size_t>(config_.queue_slots), config_.eager_limit),
      collectives_(peers_,
                   coll::resolve_partition(config_.reduce_partition, oversubscribed_, fibers_on_)),
      onesided_(peers_) {
  if (cluster_) {
    // Every process creates the world's MPI communicators, in the same order.
    world_net_ = CommNet::layout(world_group_->members(), map_, proc_);
    world_net_->create_world();
    service_net_ = CommNet::layout(world_group_->members(), map_, proc_);
    service_net_->create_world();
    am_net_ = std::make_unique<AmNet>(onesided_, map_);
    onesided_.set_remote(am_net_.get());
  }
  if (fibers_on_) fibers_ = std::make_unique<Fibers>(size_, Topology::get().cores());
  ranks_.reserve(static_cast<size_t>(size_));
  for (int i = 0; i < size_; ++i) ranks_.push_back(std::make_unique<Rank>(*this, i));
  // Every rank's Parker is in peers_ now: the Dropboxes can hold them.
  world_dropbox_ = std::make_shared<coll::Dropbox>(*local_group_, peers_);
  for (auto& r : ranks_) r->install_world(world_dropbox_);
  std::vector<Waiter*> waiters;
  for (auto& r : ranks_) waiters.push_back(&r->waiter());
  scheduler_ = std::make_unique<sched::Scheduler>(config_, peers_, waiters, [](sched::Worker* w) {
    Rank::set_current_worker(w);
    if (w)
      crash::enter_thread(-1);
    else
      crash::leave_thread();
  });
  observers_ = std::make_unique<Observers>(config_, map_.ranks_of(proc_), map_.ranks(),
                                           config_.helpers, proc_, cluster_);
  for (int i = 0; i < size_; ++i) observers_->attach(ranks_[static_cast<size_t>(i)]->waiter(), i, false);
  for (int h = 0; h < config_.helpers; ++h)
    observers_->attach(scheduler_->worker(size_ + h).waiter(), h, true);
  g_running.store(this, std::memory_order_release);
}

int Process::node_first() const { return cluster_ ? cluster_->node_first() : peers_.world_of(0); }
int Process::node_offset() const { return cluster_ ? cluster_->node_offset() : 0; }

void Process::stop_sampling() {
  std::lock_guard<std::mutex> lock(watchdog_mutex_);
  sampling_ = false;
}

void Process::observe_end(bool aborting, bool unless_gathering) {
  std::vector<PURE_Task_stats> tasks;
  for (int i = 0; i < size_; ++i) tasks.push_back(scheduler_->worker(i).stats());
  observers_->finish(aborting, tasks, scheduler_->helper_stats(), unless_gathering);
}

Process* Process::running() { return g_running.load(std::memory_order_acquire); }

Process::~Process() {
  Process* self = this;
  g_running.compare_exchange_strong(self, nullptr, std::memory_order_acq_rel);
}

void Process::abort(int code, const std::string& message) {
  if (code == 0) code = 1;  // an abort always ends the job with a failure
  {
    std::lock_guard<std::mutex> lock(abort_mutex_);
    if (abort_.code.load(std::memory_order_relaxed) != 0) return;  // the first abort wins
    abort_message_ = in_program_names(message);
    std::fprintf(stderr, "%s\n", abort_message_.c_str());
    std::fflush(stderr);
    abort_.code.store(code, std::memory_order_release);
    crash::set_ending(code);
  }
  for (int i = 0; i < size_; ++i) peers_.parker(i).notify();
  // Across processes the whole job ends at once: MPI_Abort reaches every
  // process (their ranks may be blocked on this one) and does not return.
  // Before it, this process's trace and statistics are written: after a
  // short wait for its other ranks to unwind (woken above, they end at
  // their next wait), so that few still record while they are read.
  if (cluster_) {
    if (observers_ && (observers_->tracing() || observers_->counting())) {
      const int self = Rank::current() ? 1 : 0;
      // Acquire pairs with rank_main's fetch_sub of running_: a rank
      // counted out has stopped recording before observe_end reads.
      for (int i = 0; i < 500 && running_.load(std::memory_order_acquire) > self; ++i) usleep(1000);
      stop_sampling();
      observe_end(true);
      // Then the other processes write theirs (MPI_Abort kills them before
      // they would hear of the abort otherwise), boundedly.
      AbortNotice* notice = cluster_->abort_notice();
      if (notice && !every_process_aborts_.load(std::memory_order_relaxed))
        notice->tell_all(code, kAbortNoticeSeconds);
    }
    cluster_->abort(code);
  }
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
  }
  watchdog_cv_.notify_all();
}

void Process::abort_heard(int from, int code, AbortNotice& notice) {
  {
    std::lock_guard<std::mutex> lock(abort_mutex_);
    if (abort_.code.load(std::memory_order_relaxed) != 0) return;  // aborting already
    abort_.code.store(code, std::memory_order_release);
    crash::set_ending(code);
  }
  for (int i = 0; i < size_; ++i) peers_.parker(i).notify();
  // As in abort: the ranks stop recording before the trace is read.
  for (int i = 0; i < 500 && running_.load(std::memory_order_acquire) > 0; ++i) usleep(1000);
  stop_sampling();
  // Waits for a write under way, but not for a gather of the processes'
  // parts (the ranks here ended before the notice came), which the aborting
  // process never joins: this part is lost then, and the aborting process
  // is not kept waiting.
  observe_end(true, /*unless_gathering=*/true);
  notice.acknowledge(from);
}

void Process::crash_farewell(int status) {
  // Only atomics and nanosleep: this runs in a signal handler. The watchdog
  // looks at least every 100 ms (its tick).
  crash_status_.store(status, std::memory_order_release);
  const timespec tick{0, 10 * 1000 * 1000};
  for (int waited_ms = 0; waited_ms < (kAbortNoticeSeconds + 0.5) * 1000; waited_ms += 10) {
    if (crash_told_.load(std::memory_order_acquire)) return;
    nanosleep(&tick, nullptr);
  }
}

void Process::rank_main(int index, const RankMain& entry, int argc, char** argv) {
  Rank& self = *ranks_[static_cast<size_t>(index)];
  const int world = world_rank(index);
  crash::enter_thread(world);
  // Processes sharing a node take consecutive cores (Cluster::node_offset).
  // With fibers only the hosts' threads run (host `index` on core
  // `index`); the others' threads sleep while their ranks run on hosts. Ranks of
  // several processes that outnumber the node's cores are not pinned
  // (pins_ranks): pinned round-robin, a rank shared its core with another
  // process's thread polling inside a blocking MPI call and starved.
  if (pins_ranks() && (!fibers_ || fibers_->host(index)))
    Topology::get().bind_current_thread(index + node_offset());
  if (fibers_) fibers_->enter(index);
  Rank::set_current(&self);

  // Every rank gets its own argv, as every MPI process has its own.
  std::vector<std::string> args(argv, argv + argc);
  std::vector<char*> argv_copy;
  for (auto& a : args) argv_copy.push_back(a.data());
  argv_copy.push_back(nullptr);
  self.set_environment(argc, argv_copy.data());

  int code = 0;
  try {
    if (globals_) globals_->enter(index);
    code = entry(argc, argv_copy.data());
    // As a process runs its atexit handlers and destructors once main
    // returns (or exit(0) is called).
    if (globals_) globals_->leave(index);
    if (code != 0 && self.state() == Rank::State::finalized) {
      // After finalize, as a process after MPI_Finalize: its status counts
      // for the job's, but the other ranks finish their work first.
      int none = 0;
      exit_code_.compare_exchange_strong(none, code, std::memory_order_acq_rel);
      std::fprintf(stderr, "pure: rank %d exited with code %d after %s\n", world, code,
                   in_program_names("pure_finalize").c_str());
    } else if (code != 0) {
      abort(code, "pure: rank " + std::to_string(world) + " exited with code " +
                      std::to_string(code) + " before pure_finalize; ending the job");
    } else if (self.state() == Rank::State::running) {
      abort(PURE_ERR_OTHER, "pure: rank " + std::to_string(world) +
                                " returned without calling pure_finalize; ending the job");
    }
  } catch (const JobAborted&) {
    // Another rank ended the job; its message is already printed.
  } catch (const Error& e) {
    abort(e.code(), "pure: rank " + std::to_string(world) + ": " + e.what());
  } catch (const std::exception& e) {
    abort(kUncaughtExceptionStatus, "pure: rank " + std::to_string(world) +
                                        " terminated by an uncaught exception of type " +
                                        current_exception_type() + ": " + e.what() +
                                        "; ending the job");
  } catch (...) {
    abort(kUncaughtExceptionStatus, "pure: rank " + std::to_string(world) +
                                        " terminated by an uncaught exception of type " +
                                        current_exception_type() + "; ending the job");
  }
  // Our frames are gone: nothing of ours is left for others to read, nor do
  // we read theirs (AbortState).
  self.waiter().settle();
  // Flushes the rank's output, also after an abort.
  if (globals_) globals_->finish(index);
  Rank::set_current(nullptr);
  self.waiter().status().finish();
  running_.fetch_sub(1, std::memory_order_acq_rel);
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
  }
  watchdog_cv_.notify_all();
  // Lets the host run other ranks; returns on our own thread once every
  // rank is done.
  if (fibers_) fibers_->leave(index);
  crash::leave_thread();  // on our own kernel thread again (its signal stack)
}

int Process::run(const RankMain& entry, int argc, char** argv) {
  crash::install(proc_);
  crash::set_ending(0);  // a job before this one in the process may have aborted
  // A crash still leaves the trace and statistics asked for (crash.h: in a
  // forked child, so whatever the crash broke cannot hang the job).
  if (config_.stats || !config_.trace_path.empty()) {
    crash::set_last_words([] {
      if (Process* p = Process::running()) p->observe_end(true);
    });
    if (cluster_ && cluster_->abort_notice())
      crash::set_farewell([](int status) {
        if (Process* p = Process::running()) p->crash_farewell(status);
      });
  }
  running_.store(size(), std::memory_order_relaxed);
  // Relaxed: the rank threads are started below, which orders it before them.
  abort_.unsettled.store(size(), std::memory_order_relaxed);
  abort_.peers = &peers_;
  // Before any other thread runs: the copies are taken from the segment.
  if (RankGlobals::wanted()) {
    std::vector<int> world(static_cast<size_t>(size()));
    for (int i = 0; i < size(); ++i) world[static_cast<size_t>(i)] = world_rank(i);
    globals_ = std::make_unique<RankGlobals>(size(), world);
  }
  std::thread dog([this] { watchdog(); });
  scheduler_->start_helpers();
  std::vector<std::thread> threads;
  threads.reserve(ranks_.size());
  for (int i = 0; i < size(); ++i)
    threads.emplace_back([this, i, &entry, argc, argv] { rank_main(i, entry, argc, argv); });
  for (auto& t : threads) t.join();
  scheduler_->stop_helpers();
  if (config_.stats && config_.stats_path.empty()) print_settings();
  stop_sampling();
  crash::set_last_words(nullptr);
  crash::set_farewell(nullptr);
  observe_end(aborted());
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
    job_done_ = true;
  }
  watchdog_cv_.notify_all();
  dog.join();
  globals_.reset();
  crash::set_ending(0);  // every rank is back: a later terminate is the program's own
  // The first abort's code, else the first non-zero status a rank returned
  // after finalize.
  if (const int code = abort_code()) return code;
  return exit_code_.load(std::memory_order_acquire);
}

// The settings in effect, with what `auto` resolved to (PURE_STATS=1): one
// line of name=value pairs that scripts read (tools/bench_report.py). The
// reduce_partition_auto_* pairs are what PURE_REDUCE_PARTITION=auto would pick
// in each of the three cases, so a benchmark of the threshold can show them
// from any one run.
void Process::print_settings() const {
  const char* wait = config_.wait == WaitMode::spin   ? "spin"
                     : config_.wait == WaitMode::park ? "park"
                                                      : "auto";
  std::fprintf(stderr,
               "pure: settings: ranks=%d procs=%d process=%d cores=%d fibers=%s wait=%s "
               "eager_limit=%zu queue_slots=%d reduce_partition=%zu helpers=%d "
               "reduce_partition_auto_own_cores=%zu reduce_partition_auto_fibers=%zu "
               "reduce_partition_auto_threads=%zu\n",
               size_, map_.procs(), proc_, Topology::get().cores(),
               !fibers_ ? "off" : Fibers::fast_switch() ? "on" : "on-arch_prctl", wait,
               config_.eager_limit, config_.queue_slots, collectives_.reduce_partition(),
               config_.helpers, coll::resolve_partition(kReducePartitionAuto, false, false),
               coll::resolve_partition(kReducePartitionAuto, true, true),
               coll::resolve_partition(kReducePartitionAuto, true, false));
}

namespace {
std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", s);
  return text;
}
}  // namespace

std::string Process::deadlock_report() {
  std::string report =
      "pure: deadlock: every running rank" +
      std::string(cluster_ ? " of every process" : "") + " has been blocked for " +
      seconds(config_.deadlock_timeout_s) + " with no progress anywhere" +
      (cluster_ ? " (process " + std::to_string(proc_) + "'s ranks):\n" : std::string(":\n"));
  for (auto& r : ranks_) {
    const WaitStatus::Snapshot s = r->waiter().status().read();
    if (s.finished) {
      report += "  rank " + std::to_string(r->world()) + ": finished\n";
      continue;
    }
    report += "  rank " + std::to_string(r->world()) + ": blocked in " + (s.call ? s.call : "?");
    if (s.peer != -1) report += " peer=" + std::to_string(s.peer);
    if (s.tag != -1) report += " tag=" + std::to_string(s.tag);
    report += "\n";
  }
  report += "pure: ending the job (PURE_DEADLOCK_TIMEOUT sets the limit, 0 disables it)";
  return report;
}

// The watchdog sleeps almost always. It (1) ends the job when every running
// rank sits in a wait loop and no wait anywhere completes for
// PURE_DEADLOCK_TIMEOUT seconds -- across processes once every process
// agrees (StallVote), each then printing what its ranks wait on -- and (2)
// after an abort, ends the process if some rank is still running user code
// PURE_ABORT_GRACE seconds later, so an abort can never turn into a hang.
void Process::watchdog() {
  using clock = std::chrono::steady_clock;
  std::unique_lock<std::mutex> lock(watchdog_mutex_);
  std::uint64_t last_progress = ~0ull;
  auto stalled_since = clock::now();
  clock::time_point abort_seen{};
  bool abort_noticed = false;
  StallVote* vote = cluster_ && config_.deadlock_timeout_s > 0 ? &cluster_->stall_vote() : nullptr;
  AbortNotice* notice = cluster_ ? cluster_->abort_notice() : nullptr;
  const auto timeout = std::chrono::duration<double>(config_.deadlock_timeout_s);
  const std::int64_t timeout_ms = static_cast<std::int64_t>(config_.deadlock_timeout_s * 1000);
  std::optional<std::uint64_t> stalled_round_progress;  // the job's progress in the last stalled round
  // Tracing: the counters are sampled every millisecond.
  const auto period = std::chrono::milliseconds(observers_->tracing() ? 1 : 100);
  while (!job_done_ || vote) {
    // Once done, only the vote's last rounds remain: poll them briskly.
    watchdog_cv_.wait_for(lock, job_done_ ? std::chrono::milliseconds(1) : period);
    const auto now = clock::now();
    if (job_done_) {
      if (!vote) break;
      if (auto round = vote->poll(0, true, last_progress); round && round->all_done) vote = nullptr;
      continue;
    }
    if (observers_->tracing() && sampling_) {
      std::uint64_t parked = 0;
      for (int i = 0; i < size_; ++i) parked += peers_.parker(i).announced() ? 1 : 0;
      const std::int64_t queued = observers_->queued_messages().load(std::memory_order_relaxed);
      observers_->sample(parked, queued > 0 ? static_cast<std::uint64_t>(queued) : 0);
    }
    if (notice && crash_status_.load(std::memory_order_acquire) != 0 &&
        !crash_told_.load(std::memory_order_relaxed)) {
      // A rank crashed; its handler waits in crash_farewell. A process
      // ending already (its own abort, or another's it heard of) has told,
      // or been told, and the others wrote or are writing.
      lock.unlock();
      if (!aborted())
        notice->tell_all(crash_status_.load(std::memory_order_relaxed), kAbortNoticeSeconds);
      crash_told_.store(true, std::memory_order_release);
      lock.lock();
      continue;
    }
    if (notice && !aborted()) {
      if (const std::optional<AbortNotice::Heard> heard = notice->heard()) {
        lock.unlock();
        abort_heard(heard->from, heard->code, *notice);
        lock.lock();
        continue;
      }
    }
    if (aborted()) {
      if (!abort_noticed) {
        abort_noticed = true;
        abort_seen = now;
      }
      if (now - abort_seen > std::chrono::duration<double>(config_.abort_grace_s)) {
        std::fprintf(stderr,
                     "pure: %d rank(s) still running %.1f s after the job was aborted; "
                     "ending the process\n",
                     running_.load(), config_.abort_grace_s);
        // What the trace holds so far, best effort: those ranks may still record.
        observe_end(true);
        std::fflush(stderr);
        _exit(abort_code());
      }
      continue;
    }
    if (config_.deadlock_timeout_s <= 0) continue;
    bool all_waiting = running_.load(std::memory_order_acquire) > 0;
    std::uint64_t progress = 0;
    for (auto& r : ranks_) {
      const WaitStatus::Snapshot s = r->waiter().status().read();
      progress += s.progress;
      if (!s.finished && !s.blocked) all_waiting = false;
      // A wait on another process is progress this process cannot see:
      // without the vote it never counts as stalled.
      if (s.blocked && s.remote && !vote) all_waiting = false;
    }
    // A helper running a chunk may be what the waiting ranks wait for.
    if (scheduler_->helpers_busy()) all_waiting = false;
    if (!all_waiting || progress != last_progress) {
      last_progress = progress;
      stalled_since = now;
    }
    if (!vote) {
      if (all_waiting && now - stalled_since > timeout) {
        lock.unlock();
        abort(PURE_ERR_OTHER, deadlock_report());
        lock.lock();
      }
      continue;
    }
    const std::int64_t stalled_ms =
        all_waiting ? std::chrono::duration_cast<std::chrono::milliseconds>(now - stalled_since).count() : 0;
    const std::optional<StallVote::Round> round = vote->poll(stalled_ms, false, progress);
    if (!round) continue;
    // A deadlock: two rounds in a row in which every process has been
    // stalled past the limit, with no progress anywhere between them.
    const bool stalled = !round->all_done && round->least_stalled_ms > timeout_ms;
    if (stalled && stalled_round_progress == round->progress) {
      lock.unlock();
      // Printed here, not by abort (which names calls as the program does):
      // the same names.
      const std::string report = in_program_names(deadlock_report());
      std::fprintf(stderr, "%s\n", report.c_str());
      std::fflush(stderr);
      // This process's trace and statistics now, while its ranks stay
      // blocked: abort would write them too, but the first process's
      // MPI_Abort may end this one before it gets there.
      stop_sampling();
      observe_end(true);
      vote->settle(5.0);  // every process reports and writes before any ends the job
      every_process_aborts_.store(true, std::memory_order_relaxed);
      abort(PURE_ERR_OTHER, "pure: deadlock across processes: ending the job");
      lock.lock();
    }
    stalled_round_progress = stalled ? std::optional<std::uint64_t>(round->progress) : std::nullopt;
  }
}

}  // namespace pure
