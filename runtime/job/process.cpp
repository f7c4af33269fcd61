#include "job/process.h"

#include <cxxabi.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <typeinfo>

#include "base/error.h"
#include "base/topology.h"
#include "collectives/collectives.h"
#include "job/crash.h"
#include "job/rank.h"
#include "net/cluster.h"
#include "net/comm_net.h"

namespace pure {

namespace {

// An uncaught exception ends a process with SIGABRT's status (std::terminate
// calls abort): as mpirun reports it, the job ends with 128 + 6.
constexpr int kUncaughtExceptionStatus = 134;

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

Process::Process(const Config& config, RankMap map, int proc, Cluster* cluster)
    : config_(config),
      map_(std::move(map)),
      proc_(proc),
      cluster_(cluster),
      tag_ub_(cluster ? cluster->user_tag_ub() : INT_MAX),
      size_(static_cast<int>(map_.ranks_of(proc).size())),
      // More ranks than cores in our cpuset means they must share cores.
      oversubscribed_(size_ > Topology::get().cores()),
      // Ranks sharing cores take turns as fibers, one group per core
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
}

Process::~Process() = default;

void Process::abort(int code, const std::string& message) {
  if (code == 0) code = 1;  // an abort always ends the job with a failure
  {
    std::lock_guard<std::mutex> lock(abort_mutex_);
    if (abort_code_.load(std::memory_order_relaxed) != 0) return;  // the first abort wins
    abort_message_ = in_program_names(message);
    std::fprintf(stderr, "%s\n", abort_message_.c_str());
    std::fflush(stderr);
    abort_code_.store(code, std::memory_order_release);
  }
  // Across processes the whole job ends at once: MPI_Abort reaches every
  // process (their ranks may be blocked on this one) and does not return.
  if (cluster_) cluster_->abort(code);
  for (int i = 0; i < size_; ++i) peers_.parker(i).notify();
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
  }
  watchdog_cv_.notify_all();
}

void Process::rank_main(int index, const RankMain& entry, int argc, char** argv) {
  Rank& self = *ranks_[static_cast<size_t>(index)];
  const int world = world_rank(index);
  crash::enter_thread(world);
  // Processes sharing a node take consecutive cores (Cluster::node_offset).
  // With fibers only a group's host runs on its thread (on core `index`);
  // the others' threads sleep while their ranks run on the host.
  if (config_.bind == Bind::core && (!fibers_ || fibers_->host(index)))
    Topology::get().bind_current_thread(index + (cluster_ ? cluster_->node_offset() : 0));
  if (fibers_) fibers_->enter(index);
  Rank::set_current(&self);

  // Every rank gets its own argv, as every MPI process has its own.
  std::vector<std::string> args(argv, argv + argc);
  std::vector<char*> argv_copy;
  for (auto& a : args) argv_copy.push_back(a.data());
  argv_copy.push_back(nullptr);

  int code = 0;
  try {
    code = entry(argc, argv_copy.data());
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
  Rank::set_current(nullptr);
  self.waiter().status().finish();
  running_.fetch_sub(1, std::memory_order_acq_rel);
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
  }
  watchdog_cv_.notify_all();
  // Runs the group's other ranks to their end; returns on our own thread.
  if (fibers_) fibers_->leave(index);
  crash::leave_thread();  // on our own kernel thread again (its signal stack)
}

int Process::run(const RankMain& entry, int argc, char** argv) {
  crash::install(proc_);
  running_.store(size(), std::memory_order_relaxed);
  std::thread dog([this] { watchdog(); });
  scheduler_->start_helpers();
  std::vector<std::thread> threads;
  threads.reserve(ranks_.size());
  for (int i = 0; i < size(); ++i)
    threads.emplace_back([this, i, &entry, argc, argv] { rank_main(i, entry, argc, argv); });
  for (auto& t : threads) t.join();
  scheduler_->stop_helpers();
  if (config_.stats) {
    print_settings();
    scheduler_->print_stats();
  }
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
    job_done_ = true;
  }
  watchdog_cv_.notify_all();
  dog.join();
  // The first abort's code, else the first non-zero status a rank returned
  // after finalize.
  if (const int code = abort_code()) return code;
  return exit_code_.load(std::memory_order_acquire);
}

// The settings in effect, with what `auto` resolved to (PURE_STATS=1): one
// line of name=value pairs that scripts read (tools/bench_report.py).
void Process::print_settings() const {
  const char* wait = config_.wait == WaitMode::spin   ? "spin"
                     : config_.wait == WaitMode::park ? "park"
                                                      : "auto";
  std::fprintf(stderr,
               "pure: settings: ranks=%d procs=%d process=%d cores=%d fibers=%s wait=%s "
               "eager_limit=%zu queue_slots=%d reduce_partition=%zu helpers=%d\n",
               size_, map_.procs(), proc_, Topology::get().cores(), fibers_ ? "on" : "off", wait,
               config_.eager_limit, config_.queue_slots, collectives_.reduce_partition(),
               config_.helpers);
}

std::string Process::deadlock_report() {
  std::string report =
      "pure: deadlock: every running rank has been blocked for " +
      std::to_string(config_.deadlock_timeout_s) + " s with no progress anywhere:\n";
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
// PURE_DEADLOCK_TIMEOUT seconds, and (2) after an abort, ends the process if
// some rank is still running user code PURE_ABORT_GRACE seconds later, so an
// abort can never turn into a hang.
void Process::watchdog() {
  using clock = std::chrono::steady_clock;
  std::unique_lock<std::mutex> lock(watchdog_mutex_);
  std::uint64_t last_progress = ~0ull;
  auto stalled_since = clock::now();
  clock::time_point abort_seen{};
  bool abort_noticed = false;
  while (!job_done_) {
    watchdog_cv_.wait_for(lock, std::chrono::milliseconds(100));
    if (job_done_) break;
    const auto now = clock::now();
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
      // A rank waiting on another process waits on progress this watchdog
      // cannot see: deadlocks across processes are not reported.
      if (s.blocked && s.remote) all_waiting = false;
    }
    // A helper running a chunk may be what the waiting ranks wait for.
    if (scheduler_->helpers_busy()) all_waiting = false;
    if (!all_waiting || progress != last_progress) {
      last_progress = progress;
      stalled_since = now;
      continue;
    }
    if (now - stalled_since > std::chrono::duration<double>(config_.deadlock_timeout_s)) {
      lock.unlock();
      abort(PURE_ERR_OTHER, deadlock_report());
      lock.lock();
    }
  }
}

}  // namespace pure
