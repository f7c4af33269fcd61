#include "job/process.h"

#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>

#include "net/cluster.h"
#include "collectives/dropbox.h"
#include "net/comm_net.h"
#include "base/error.h"
#include "base/fiber.h"
#include "job/rank.h"
#include "sched/scheduler.h"
#include "base/topology.h"

namespace pure {

Process::Process(const Config& config, RankMap map, int proc, Cluster* cluster)
    : config_(config),
      map_(std::move(map)),
      proc_(proc),
      cluster_(cluster),
      tag_ub_(cluster ? cluster->user_tag_ub() : INT_MAX),
      size_(static_cast<int>(map_.ranks_of(proc).size())),
      // More ranks than cores in our cpuset means they must share cores.
      oversubscribed_(size_ > Topology::get().cores()),
      world_dropbox_(std::make_shared<Dropbox>(size_)),
      queues_(new std::atomic<EagerQueue*>[static_cast<size_t>(size_) * static_cast<size_t>(size_)]),
      queue_storage_(static_cast<size_t>(size_) * static_cast<size_t>(size_)) {
  const int ranks = size_;
  for (size_t i = 0; i < static_cast<size_t>(ranks) * static_cast<size_t>(ranks); ++i)
    queues_[i].store(nullptr, std::memory_order_relaxed);
  if (cluster_) {
    // Every process creates the world's MPI communicators, in the same order.
    std::vector<int> world(static_cast<size_t>(map_.ranks()));
    for (int r = 0; r < map_.ranks(); ++r) world[static_cast<size_t>(r)] = r;
    world_net_ = CommNet::layout(world, map_, proc_);
    world_net_->create_world();
  }
  // Ranks sharing cores take turns as fibers, one group per core (fiber.h).
  // Not across processes: MPI keeps per-kernel-thread state of its own.
  if (config_.fibers && oversubscribed_ && !cluster_ && Fibers::supported())
    fibers_ = std::make_unique<Fibers>(ranks, Topology::get().cores());
  ranks_.reserve(static_cast<size_t>(ranks));
  for (int i = 0; i < ranks; ++i) ranks_.push_back(std::make_unique<Rank>(*this, i));
  scheduler_ = std::make_unique<sched::Scheduler>(*this);
}

Process::~Process() = default;

EagerQueue& Process::queue_for_sender(int from, int to) {
  const size_t s = slot(from, to);
  if (EagerQueue* q = queues_[s].load(std::memory_order_relaxed)) return *q;
  queue_storage_[s] = std::make_unique<EagerQueue>(static_cast<size_t>(config_.queue_slots),
                                                   config_.eager_limit);
  // Release pairs with the receiver's acquire in queue_for_receiver: it sees
  // the initialised slots before the pointer.
  queues_[s].store(queue_storage_[s].get(), std::memory_order_release);
  return *queue_storage_[s];
}

void Process::abort(int code, const std::string& message) {
  if (code == 0) code = 1;  // an abort always ends the job with a failure
  {
    std::lock_guard<std::mutex> lock(abort_mutex_);
    if (abort_code_.load(std::memory_order_relaxed) != 0) return;  // the first abort wins
    abort_message_ = message;
    std::fprintf(stderr, "%s\n", message.c_str());
    std::fflush(stderr);
    abort_code_.store(code, std::memory_order_release);
  }
  // Across processes the whole job ends at once: MPI_Abort reaches every
  // process (their ranks may be blocked on this one) and does not return.
  if (cluster_) cluster_->abort(code);
  for (auto& r : ranks_) r->parker().notify();
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
  }
  watchdog_cv_.notify_all();
}

void Process::rank_main(int index, const RankMain& entry, int argc, char** argv) {
  Rank& self = *ranks_[static_cast<size_t>(index)];
  // Processes sharing a node take consecutive cores (Cluster::node_offset).
  // With fibers only a group's host runs on its thread (on core `index`);
  // the others' threads sleep while their ranks run on the host.
  if (config_.bind == Bind::core && (!fibers_ || fibers_->host(index)))
    Topology::get().bind_current_thread(index + (cluster_ ? cluster_->node_offset() : 0));
  if (fibers_) fibers_->enter(index);
  Rank::set_current(&self);
  const int world = world_rank(index);

  // Every rank gets its own argv, as every MPI process has its own.
  std::vector<std::string> args(argv, argv + argc);
  std::vector<char*> argv_copy;
  for (auto& a : args) argv_copy.push_back(a.data());
  argv_copy.push_back(nullptr);

  int code = 0;
  try {
    code = entry(argc, argv_copy.data());
    if (code != 0) {
      abort(code, "pure: rank " + std::to_string(world) + " exited with code " +
                      std::to_string(code) + "; ending the job");
    } else if (self.state() == Rank::State::running) {
      abort(PURE_ERR_OTHER, "pure: rank " + std::to_string(world) +
                                " returned without calling pure_finalize; ending the job");
    }
  } catch (const JobAborted&) {
    // Another rank ended the job; its message is already printed.
  } catch (const Error& e) {
    abort(e.code(), "pure: rank " + std::to_string(world) + ": " + e.what());
  } catch (const std::exception& e) {
    abort(PURE_ERR_OTHER, "pure: rank " + std::to_string(world) +
                              " threw an exception: " + e.what() + "; ending the job");
  } catch (...) {
    abort(PURE_ERR_OTHER,
          "pure: rank " + std::to_string(world) + " threw an unknown exception; ending the job");
  }
  Rank::set_current(nullptr);
  self.finished.store(true, std::memory_order_release);
  running_.fetch_sub(1, std::memory_order_acq_rel);
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
  }
  watchdog_cv_.notify_all();
  // Runs the group's other ranks to their end; returns on our own thread.
  if (fibers_) fibers_->leave(index);
}

int Process::run(const RankMain& entry, int argc, char** argv) {
  running_.store(size(), std::memory_order_relaxed);
  std::thread dog([this] { watchdog(); });
  scheduler_->start_helpers();
  std::vector<std::thread> threads;
  threads.reserve(ranks_.size());
  for (int i = 0; i < size(); ++i)
    threads.emplace_back([this, i, &entry, argc, argv] { rank_main(i, entry, argc, argv); });
  for (auto& t : threads) t.join();
  scheduler_->stop_helpers();
  if (config_.stats) scheduler_->print_stats();
  {
    std::lock_guard<std::mutex> lock(watchdog_mutex_);
    job_done_ = true;
  }
  watchdog_cv_.notify_all();
  dog.join();
  return abort_code();
}

std::string Process::deadlock_report() {
  std::string report =
      "pure: deadlock: every running rank has been blocked for " +
      std::to_string(config_.deadlock_timeout_s) + " s with no progress anywhere:\n";
  for (auto& r : ranks_) {
    if (r->finished.load(std::memory_order_acquire)) {
      report += "  rank " + std::to_string(r->world()) + ": finished\n";
      continue;
    }
    const char* call = r->wait_call.load(std::memory_order_relaxed);
    report += "  rank " + std::to_string(r->world()) + ": blocked in " + (call ? call : "?");
    int peer = r->wait_peer.load(std::memory_order_relaxed);
    if (peer != -1) report += " peer=" + std::to_string(peer);
    int tag = r->wait_tag.load(std::memory_order_relaxed);
    if (tag != -1) report += " tag=" + std::to_string(tag);
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
      progress += r->waits_done.load(std::memory_order_relaxed);
      if (!r->finished.load(std::memory_order_acquire) &&
          !r->in_wait.load(std::memory_order_acquire))
        all_waiting = false;
      // A rank waiting on another process waits on progress this watchdog
      // cannot see: deadlocks across processes are not reported.
      if (r->in_wait.load(std::memory_order_acquire) &&
          r->wait_remote.load(std::memory_order_relaxed))
        all_waiting = false;
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
