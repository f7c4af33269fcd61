// The wait loop (SSW-loop): the one primitive every blocking wait goes
// through, for rank threads and helper threads alike.
//
// A wait is staged. When the caller asks for it (kWaitTight) and the thread
// has a core of its own, it first polls its condition in a tight, bounded
// loop: a line that arrives is seen within nanoseconds. Then each round of
// the loop drives the thread's work (WaitWork: the rank's point-to-point
// progress), re-checks the condition, lets the thread steal one task chunk
// (work-first: its own condition is always checked before stealing), and
// backs off: spin with cpu_relax, then sched_yield, then park on the
// thread's Parker (announce, re-check, sleep: parker.h), so that 16 ranks on
// 2 cores hand their cores to whoever can make progress. Where ranks sharing
// a core are fibers (fiber.h), every round instead switches to the next rank
// of the core (tens of ns, where a kernel switch costs over a microsecond);
// a fiber backs off as above only once it is the last unfinished rank of its
// core. A thread that waits on another process (MPI) polls and never sleeps
// long: nobody notifies it of MPI traffic.
//
// Whoever makes a waited-for condition true and may have a waiter parked on
// it calls that waiter's Parker::notify() after publishing.
#pragma once

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "base/cpu.h"
#include "base/error.h"
#include "base/fiber.h"
#include "base/parker.h"
#include "base/peers.h"
#include "base/stats.h"
#include "base/trace.h"
#include "pure/run.hpp"

namespace pure {

struct BackoffPolicy {
  std::uint32_t spin_rounds;   // rounds of spinning before yielding
  std::uint32_t yield_rounds;  // rounds of sched_yield before parking
  long park_timeout_ns;        // a parked thread re-checks at least this often

  // `shared_cores`: more threads than cores. Why these numbers:
  // docs/perf-notes.md, "Wait loop back-off".
  static BackoffPolicy for_mode(WaitMode mode, bool shared_cores) {
    if (mode == WaitMode::spin) return {1u << 30, 1u << 30, 10'000'000};
    if (mode == WaitMode::park) return {16, 4, 10'000'000};
    // Sharing cores, a waiting thread's core is better spent on the threads
    // it waits for.
    if (shared_cores) return {4, 8, 10'000'000};
    return {1u << 16, 64, 10'000'000};
  }
  // Spins long enough before parking that parks are rare (parker.h's
  // asymmetric protocol pays off).
  bool own_core() const { return spin_rounds >= (1u << 12); }
};

// What a thread is blocked on, for the deadlock report.
struct WaitSite {
  const char* call;     // e.g. "pure_recv"
  int peer;             // communicator rank or -1
  int tag;
  bool remote = false;  // waits on another process (MPI): poll, never sleep long
  // Called now and then while the wait goes on (never on its first rounds),
  // with `check_arg`: it throws an Error when the wait can never end, e.g.
  // members of a communicator in different collectives (collectives/call_log.h).
  void (*check)(const void*) = nullptr;
  const void* check_arg = nullptr;
};

// What the deadlock watchdog sees of one thread: whether it is blocked, where,
// and a count that moves whenever it makes progress. One writer (the thread
// itself: plain stores, no locked read-modify-write on its path) and any
// number of readers.
class WaitStatus {
 public:
  struct Snapshot {
    bool finished;
    bool blocked;
    bool remote;
    std::uint64_t progress;
    const char* call;
    int peer;
    int tag;
  };

  void enter(const WaitSite& site, bool remote) {
    call_.store(site.call, std::memory_order_relaxed);
    peer_.store(site.peer, std::memory_order_relaxed);
    tag_.store(site.tag, std::memory_order_relaxed);
    remote_.store(remote, std::memory_order_relaxed);
    // Release: a reader that sees blocked also sees where.
    blocked_.store(true, std::memory_order_release);
  }
  void leave() {
    blocked_.store(false, std::memory_order_relaxed);
    progressed();
  }
  // Progress without leaving the wait (a stolen chunk ran).
  void progressed() {
    progress_.store(progress_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  // Running a stolen chunk is work, not waiting: the watchdog must not count
  // the thread as blocked meanwhile (nor a helper as idle).
  bool working() const { return working_.load(std::memory_order_relaxed); }
  void set_working(bool on) { working_.store(on, std::memory_order_relaxed); }
  void finish() { finished_.store(true, std::memory_order_release); }

  Snapshot read() const {
    Snapshot s;
    s.finished = finished_.load(std::memory_order_acquire);
    s.blocked = blocked_.load(std::memory_order_acquire) && !working();
    s.remote = remote_.load(std::memory_order_relaxed);
    s.progress = progress_.load(std::memory_order_relaxed);
    s.call = call_.load(std::memory_order_relaxed);
    s.peer = peer_.load(std::memory_order_relaxed);
    s.tag = tag_.load(std::memory_order_relaxed);
    return s;
  }

 private:
  std::atomic<bool> blocked_{false};
  std::atomic<bool> working_{false};
  std::atomic<bool> remote_{false};
  std::atomic<bool> finished_{false};
  std::atomic<std::uint64_t> progress_{0};
  std::atomic<const char*> call_{nullptr};
  std::atomic<int> peer_{-1};
  std::atomic<int> tag_{0};
};

// What a waiting thread does each round besides checking its condition; the
// layers above implement it (a rank: its point-to-point progress and task
// stealing; a helper thread: stealing only).
class WaitWork {
 public:
  virtual ~WaitWork() = default;
  // One step of everything the thread owes others: match posted receives,
  // push queued sends; `stuck` also drains full incoming queues so that
  // their senders can go on.
  virtual void progress(bool stuck) = 0;
  // Runs one chunk of another thread's task; whether it ran one.
  virtual bool steal() = 0;
  // Something this thread waits for is in flight in another process.
  virtual bool remote_in_flight() = 0;
};

// Flags of Waiter::wait_until.
enum WaitFlags : unsigned {
  // Poll the condition in a tight loop first (own core only): for waits on
  // one line another thread is about to write.
  kWaitTight = 1u << 0,
  // No progress and no stealing: for waits inside the progress engine
  // itself, which must not re-enter it.
  kWaitNoWork = 1u << 1,
  // Do not unwind when the job aborts: for waits that must finish before
  // their frame may go (stolen chunks still running on this stack).
  kWaitIgnoreAbort = 1u << 2,
};

// The job's abort as the rank Waiters of one process see it (the Process
// owns it).
//
// A rank must not unwind the moment it learns of the abort: its frames hold
// buffers that others may still be reading (a scatter root's send buffer and
// displacements, a rendezvous sender's data, a task's data a thief runs a
// chunk of). So each rank *settles* first -- it stops touching others'
// memory -- and unwinds only once every rank of the process has settled or
// finished (Waiter::unwind_for_abort). Ranks stuck in their own code
// outside any wait never settle; the watchdog's PURE_ABORT_GRACE ends the
// process then, as it would without this wait.
struct AbortState {
  std::atomic<int> code{0};  // non-zero once the job aborts
  // Ranks not yet settled nor finished: set to the rank count before they
  // start (Process::run).
  std::atomic<int> unsettled{0};
  // The process's ranks, whom the last settlement wakes (ranks unwinding for
  // the abort wait for it in the wait loop); set before they start.
  const Peers* peers = nullptr;
};

// One thread's side of waiting: its Parker, its back-off policy, its place
// among the fibers of its core, and its WaitStatus.
class Waiter {
 public:
  static constexpr int kTightSpins = 256;

  // `fiber` is the thread's index among `fibers` (nullptr: not a fiber);
  // `abort` is the job's (nullptr: a helper thread, which never aborts).
  Waiter(BackoffPolicy policy, Fibers* fibers, int fiber, AbortState* abort);
  Waiter(const Waiter&) = delete;
  Waiter& operator=(const Waiter&) = delete;

  // Set once by the owner before the thread first waits.
  void set_work(WaitWork* work) { work_ = work; }
  // The thread's trace buffer (PURE_TRACE) and counters (PURE_STATS), each
  // nullptr when off; set once by the owner before the thread runs.
  void set_observers(trace::Buffer* trace, RankStats* stats) {
    trace_ = trace;
    stats_ = stats;
  }
  trace::Buffer* trace() const { return trace_; }
  RankStats* stats() const { return stats_; }
  // While `where` is set (the thread runs code that must not wait: an
  // active-message handler), a wait that would block fails instead, naming
  // it; nullptr allows waits again. Only the owning thread sets and reads it.
  void forbid_waits(const char* where) { waits_forbidden_ = where; }
  const char* waits_forbidden() const { return waits_forbidden_; }

  Parker& parker() { return parker_; }
  WaitStatus& status() { return status_; }
  const WaitStatus& status() const { return status_; }
  bool own_core() const { return policy_.own_core(); }
  bool aborted() const { return abort_ && abort_->code.load(std::memory_order_acquire) != 0; }
  // The job aborted: settles, waits (in the wait loop, with no work) until
  // every rank of the process has settled or finished, then throws
  // JobAborted.
  [[noreturn]] void unwind_for_abort();
  // This rank reads nothing of other ranks' any more: it unwinds for the
  // abort, or its program returned. Counts once.
  void settle();

  // Polls `done` up to `rounds` times in a tight loop, on a core of our own
  // only. True once done() held.
  template <class Done>
  [[gnu::always_inline]] bool spin(Done&& done, int rounds = kTightSpins) {
    if (done()) return true;
    if (!own_core()) return false;
    for (int i = 0; i < rounds; ++i) {
      cpu_relax();
      if (done()) return true;
    }
    return false;
  }

  // Blocks until done() holds (see the header); throws JobAborted when the
  // job aborts meanwhile. done() may act (a send that
  // finds room pushes its message): its true answer is used, never re-asked.
  template <class Done>
  [[gnu::always_inline]] void wait_until(Done&& done, const WaitSite& site, unsigned flags = 0) {
    if ((flags & kWaitTight) && spin(done)) return;
    loop(done, site, flags);
  }

  // A poll (test, iprobe) found nothing. A program that polls in a loop
  // never enters the wait loop, so with fibers each empty poll lets the next
  // rank of the core run: it may be the one the poll waits for. Every
  // kPollMissesPerKernelYield-th miss also offers the core to the kernel:
  // what the poll waits for may be another process's thread on this host
  // (each process sizes its waiting by its own ranks), which a loop of
  // polls would otherwise starve.
  void poll_missed() {
    if (fibers_) fibers_->yield(fiber_);
    if (++polls_missed_ % kPollMissesPerKernelYield == 0) sched_yield();
  }
  // Hands the core on for a moment: to the next fiber of this core, else to
  // the kernel.
  void yield_core() {
    if (!fibers_ || !fibers_->yield(fiber_)) sched_yield();
  }

 private:
  // The rounds of the wait loop, inlined into each waiter with its
  // condition: the condition is polled every round, and a call through a
  // pointer for it costs what the check itself does (docs/perf-notes.md,
  // "Closing the layering's gap").
  template <class Done>
  void loop(Done& done, const WaitSite& site, unsigned flags);
  // A full incoming queue blocks its sender; after this many rounds a
  // waiting rank drains its queues into its unexpected list so that
  // senders go on.
  static constexpr std::uint32_t kDrainAfterRounds = 128;
  // A thread waiting on another process polls MPI at least this often.
  static constexpr long kRemotePollNs = 50'000;
  // See poll_missed().
  static constexpr std::uint32_t kPollMissesPerKernelYield = 64;
  // A fiber that has waited this many rounds also offers its core to other
  // threads at each turn, should the job share the machine.
  static constexpr std::uint32_t kFiberKernelYieldRounds = 64;
  // A wait with a check (WaitSite::check) runs it every this many rounds (a
  // few microseconds apart while spinning), and before each park.
  static constexpr std::uint32_t kCheckEveryRounds = 64;
  // The first round that did not find the condition true: the wait is
  // announced to the watchdog (and, observed, timed from here).
  void enter(const WaitSite& site, bool remote, std::uint64_t* began);
  // Runs the site's check; a wait it ends (by throwing) is left first.
  void run_check(const WaitSite& site, std::uint64_t began, trace::How how);
  // The wait that began at `began` (observed waits) ends, having reached `how`.
  void leave(const WaitSite& site, std::uint64_t began, trace::How how);

  Parker parker_;
  std::uint32_t polls_missed_ = 0;  // the rank's own: only its thread polls
  const BackoffPolicy policy_;
  Fibers* const fibers_;
  const int fiber_;
  AbortState* const abort_;
  bool settled_ = false;  // this thread's own
  WaitWork* work_ = nullptr;
  trace::Buffer* trace_ = nullptr;
  RankStats* stats_ = nullptr;
  WaitStatus status_;
  const char* waits_forbidden_ = nullptr;  // forbid_waits
};

template <class Done>
void Waiter::loop(Done& done, const WaitSite& site, unsigned flags) {
  WaitWork* const work = (flags & kWaitNoWork) ? nullptr : work_;
  const bool abortable = !(flags & kWaitIgnoreAbort);
  std::uint32_t round = 0;
  bool entered = false;
  bool remote = false;  // waits on another process: poll MPI, never sleep long
  // Observed (PURE_TRACE, PURE_STATS): when the wait began and the last
  // stage it reached.
  std::uint64_t began = 0;
  trace::How how = trace::How::spin;
  for (;;) {
    // Abort first: once the job is ending, a peer's buffers may be unwinding
    // and progress must not copy from or into them.
    if (abortable && aborted()) {
      if (entered) leave(site, began, how);
      unwind_for_abort();
    }
    if (work) work->progress(round >= kDrainAfterRounds);
    if (done()) break;
    if (!entered) {
      remote = site.remote || (work && work->remote_in_flight());
      enter(site, remote, &began);
      entered = true;
    }
    // Work-first: our own condition was checked above; only now may we run
    // one chunk of another thread's task.
    if (work && work->steal()) {
      round = 0;
      status_.progressed();
      continue;
    }
    if (fibers_ && fibers_->yield(fiber_, round > 0)) {
      // The next fiber of this core ran and it is our turn again.
      if (round >= kFiberKernelYieldRounds) sched_yield();
      how = std::max(how, trace::How::fiber);
    } else if (round < policy_.spin_rounds) {
      // Polling MPI takes long enough by itself: no pause on top of it.
      if (!remote) cpu_relax();
    } else if (round < policy_.spin_rounds + policy_.yield_rounds) {
      sched_yield();
      how = std::max(how, trace::How::yield);
    } else if (remote && parker_.asymmetric()) {
      // Polling another process, with the asymmetric Parker: a park would
      // cost a process-wide barrier (membarrier) every kRemotePollNs,
      // interrupting every running rank of the process. Sleep without
      // announcing instead; a local notify() is then seen at the next poll.
      if (work) work->progress(true);
      if (done()) break;
      Parker::sleep_for(kRemotePollNs);
    } else {
      // A parked thread's rounds are up to park_timeout_ns apart: the site's
      // check runs before each park too.
      if (site.check) run_check(site, began, how);
      // Announce, re-check, sleep: a notify() between the re-check and the
      // sleep is not lost (parker.h).
      const std::uint32_t token = parker_.prepare();
      if (work) work->progress(true);
      if (done()) {
        parker_.cancel();
        break;
      }
      if (abortable && aborted()) {
        parker_.cancel();
        continue;  // the top of the loop unwinds
      }
      // Nobody notifies us of MPI traffic: a wait on another process sleeps
      // briefly and polls MPI again.
      parker_.park(token, remote ? kRemotePollNs : policy_.park_timeout_ns);
      how = std::max(how, trace::How::park);
    }
    ++round;
    if (site.check && round % kCheckEveryRounds == 0) run_check(site, began, how);
  }
  if (entered) leave(site, began, how);
}

}  // namespace pure
