// Rank: the context of one rank thread. Owns the rank's handle tables
// (communicators, derived datatypes), its point-to-point endpoint and its
// request pool; waits go through Rank::wait_until.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "channels/bsend_buffer.h"
#include "channels/endpoint.h"
#include "base/handle_table.h"
#include "comm/comm.h"
#include "types/datatype.h"
#include "base/error.h"
#include "base/fiber.h"
#include "base/parker.h"
#include "base/wait.h"

namespace pure {

class Process;
class RankCollectives;
namespace sched {
class Worker;
}

class Rank {
 public:
  Rank(Process& process, int index);
  Rank(const Rank&) = delete;
  Rank& operator=(const Rank&) = delete;
  ~Rank();

  // The rank of the calling thread, or nullptr outside rank threads. Only the
  // flat C layer calls this (the one thread_local of the runtime).
  static Rank* current();
  static void set_current(Rank* rank);
  // The scheduler state of the calling thread (its rank's, or a helper
  // thread's), or nullptr. It shares the thread_local of current();
  // set_current sets it for rank threads.
  static sched::Worker* current_worker();
  static void set_current_worker(sched::Worker* worker);

  Process& process() { return process_; }
  int index() const { return index_; }  // local index inside the process
  int world() const { return world_; }  // rank in PURE_COMM_WORLD
  Parker& parker() { return parker_; }
  Endpoint& p2p() { return *endpoint_; }
  BsendBuffer& bsend_buffer() { return bsend_buffer_; }

  enum class State { created, running, finalized };
  State state() const { return state_; }
  void set_state(State s) { state_ = s; }
  int thread_level() const { return thread_level_; }
  void set_thread_level(int level) { thread_level_ = level; }

  // ---- handle tables ----
  Comm* comm(PURE_Comm handle);  // nullptr when invalid or freed
  PURE_Comm add_comm(std::unique_ptr<Comm> comm);
  void free_comm(PURE_Comm handle);
  // True when `handle` named a communicator of this rank that was freed.
  bool comm_freed(PURE_Comm handle) { return comms_.freed(handle); }
  // Groups, user ops and collective scratch (collectives/rank_state.h).
  RankCollectives& collectives() { return *collectives_; }
  // The datatype behind a handle, or nullptr when invalid or freed.
  const Datatype* type(PURE_Datatype handle);
  TypeRef type_ref(PURE_Datatype handle);
  PURE_Datatype add_type(std::unique_ptr<Datatype> type);
  Datatype* mutable_derived_type(PURE_Datatype handle);
  void free_type(PURE_Datatype handle);

  // ---- request pool ----
  Request* new_request();
  void free_request(Request* r);

  // ---- waiting ----
  // Spins long before parking: the rank has a core of its own.
  bool own_core() const { return policy_.spin_rounds >= kAsymmetricSpinRounds; }
  // Blocks until done() holds, through the staged wait loop (wait.h).
  template <class Done>
  void wait_until(Done&& done, const WaitSite& site);
  // A poll (test, iprobe) found nothing. A program that polls in a loop
  // never enters the wait loop, so with fibers each empty poll lets the next
  // rank of the group run: it may be the one the poll waits for.
  void poll_missed() {
    if (fibers_) fibers_->yield(index_);
  }
  // Hands the core on for a moment: to the next rank of this core's group
  // when ranks are fibers (fiber.h), else to the kernel.
  void yield_core() {
    if (!fibers_ || !fibers_->yield(index_)) sched_yield();
  }

  // One step of everything this rank owes others: match posted receives,
  // push queued sends; `stuck` also drains full incoming queues so that their
  // senders can go on.
  void progress(bool stuck) { endpoint_->progress(stuck); }

  // Deadlock-report bookkeeping (read by the Process watchdog).
  std::atomic<bool> in_wait{false};
  std::atomic<std::uint64_t> waits_done{0};
  std::atomic<const char*> wait_call{nullptr};
  std::atomic<int> wait_peer{-1};
  std::atomic<int> wait_tag{0};
  std::atomic<bool> wait_remote{false};  // the wait needs another process
  std::atomic<bool> finished{false};

 private:
  void enter_wait(const WaitSite& site, bool remote);
  void leave_wait();
  bool aborted() const;
  bool steal();
  static constexpr std::uint32_t kDrainAfterRounds = 128;
  static constexpr long kRemotePollNs = 50'000;
  static constexpr std::uint32_t kAsymmetricSpinRounds = 1u << 12;
  static constexpr std::uint32_t kFiberKernelYieldRounds = 64;

  Process& process_;
  const int index_;
  const int world_;
  Parker parker_;
  Fibers* const fibers_;  // nullptr unless ranks sharing cores are fibers
  State state_ = State::created;
  int thread_level_ = PURE_THREAD_SINGLE;
  HandleTable<std::unique_ptr<Comm>> comms_{PURE_HANDLE_KIND_COMM, 3};  // 1 world, 2 self
  std::unique_ptr<RankCollectives> collectives_;
  std::vector<std::shared_ptr<Datatype>> types_;  // derived types; index = low bits - 256
  std::unique_ptr<Endpoint> endpoint_;
  BsendBuffer bsend_buffer_;
  std::vector<std::unique_ptr<Request>> request_storage_;
  Request* free_requests_ = nullptr;
  BackoffPolicy policy_;
};

template <class Done>
void Rank::wait_until(Done&& done, const WaitSite& site) {
  std::uint32_t round = 0;
  bool entered = false;
  bool remote = false;  // waits on another process: poll MPI, never sleep long
  for (;;) {
    // Abort first: once the job is ending, a peer's buffers may be unwinding
    // and progress() must not copy from or into them.
    if (aborted()) throw JobAborted{};
    // A full incoming queue blocks its sender; after a short while we drain
    // it into the unexpected list so that the sender can go on.
    progress(round >= kDrainAfterRounds);
    if (done()) break;
    if (!entered) {
      remote = site.remote || endpoint_->remote_in_flight();
      enter_wait(site, remote);
      entered = true;
    }
    // Work-first: our own condition was checked above; only now may we run
    // one chunk of another rank's task (runtime/sched).
    if (steal()) {
      round = 0;
      waits_done.store(waits_done.load(std::memory_order_relaxed) + 1,
                       std::memory_order_relaxed);  // progress, for the watchdog
      continue;
    }
    if (fibers_ && fibers_->yield(index_)) {
      // Ranks sharing this core are fibers (fiber.h): the next one ran and
      // it is our turn again. Waiting long, each turn also offers the core
      // to other threads, should the job share the machine.
      if (round >= kFiberKernelYieldRounds) sched_yield();
    } else if (round < policy_.spin_rounds) {
      // Polling MPI takes long enough by itself: no pause on top of it.
      if (!remote) cpu_relax();
    } else if (round < policy_.spin_rounds + policy_.yield_rounds) {
      sched_yield();
    } else if (remote && parker_.asymmetric()) {
      // Polling another process, with the asymmetric Parker: a park would
      // cost a process-wide barrier (membarrier) every kRemotePollNs,
      // interrupting every running rank of the process. Sleep without
      // announcing instead; a local notify() is then seen at the next poll.
      progress(true);
      if (done()) break;
      if (aborted()) throw JobAborted{};
      Parker::sleep_for(kRemotePollNs);
    } else {
      // Announce, re-check, sleep: a notify() between the re-check and the
      // sleep is not lost (parker.h). done() may act (a send that finds
      // room pushes its message), so its answer is used, never re-asked.
      std::uint32_t token = parker_.prepare();
      progress(true);
      if (done()) {
        parker_.cancel();
        break;
      }
      if (aborted()) {
        parker_.cancel();
        throw JobAborted{};
      }
      // Nobody notifies us of MPI traffic: a wait on another process
      // sleeps briefly and polls MPI again.
      parker_.park(token, remote ? kRemotePollNs : policy_.park_timeout_ns);
    }
    ++round;
  }
  if (entered) leave_wait();
}

}  // namespace pure
