#include "base/waiter.h"

#include <algorithm>

namespace pure {

namespace {
// A full incoming queue blocks its sender; after this many rounds a waiting
// rank drains its queues into its unexpected list so that senders go on.
constexpr std::uint32_t kDrainAfterRounds = 128;
// A thread waiting on another process polls MPI at least this often.
constexpr long kRemotePollNs = 50'000;
// A fiber that has waited this many rounds also offers its core to other
// threads at each turn, should the job share the machine.
constexpr std::uint32_t kFiberKernelYieldRounds = 64;
// A wait with a check (WaitSite::check) runs it every this many rounds (a
// few microseconds apart while spinning), and before each park.
constexpr std::uint32_t kCheckEveryRounds = 64;
}  // namespace

Waiter::Waiter(BackoffPolicy policy, Fibers* fibers, int fiber, const std::atomic<int>* abort_code)
    : policy_(policy), fibers_(fibers), fiber_(fiber), abort_code_(abort_code) {
  // A thread that spins long before it parks parks rarely: its notifiers can
  // skip their fence, and its rare parks pay for a process-wide barrier
  // (parker.h). Threads sharing cores park all the time and keep the fences.
  parker_.set_asymmetric(own_core());
}

void Waiter::loop(FunctionRef<bool()> done, const WaitSite& site, unsigned flags) {
  WaitWork* const work = (flags & kWaitNoWork) ? nullptr : work_;
  const bool abortable = !(flags & kWaitIgnoreAbort);
  std::uint32_t round = 0;
  bool entered = false;
  bool remote = false;  // waits on another process: poll MPI, never sleep long
  // Observed (PURE_TRACE, PURE_STATS): when the wait began and the last
  // stage it reached.
  const bool observed = trace_ || stats_;
  std::uint64_t began = 0;
  trace::How how = trace::How::spin;
  for (;;) {
    // Abort first: once the job is ending, a peer's buffers may be unwinding
    // and progress must not copy from or into them.
    if (abortable && aborted()) {
      if (entered) leave(site, began, how);
      throw JobAborted{};
    }
    if (work) work->progress(round >= kDrainAfterRounds);
    if (done()) break;
    if (!entered) {
      remote = site.remote || (work && work->remote_in_flight());
      status_.enter(site, remote);
      entered = true;
      if (observed) began = trace::now();
    }
    // Work-first: our own condition was checked above; only now may we run
    // one chunk of another thread's task.
    if (work && work->steal()) {
      round = 0;
      status_.progressed();
      continue;
    }
    if (fibers_ && fibers_->yield(fiber_)) {
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

void Waiter::run_check(const WaitSite& site, std::uint64_t began, trace::How how) {
  try {
    site.check(site.check_arg);
  } catch (...) {
    leave(site, began, how);
    throw;
  }
}

void Waiter::leave(const WaitSite& site, std::uint64_t began, trace::How how) {
  status_.leave();
  if (!trace_ && !stats_) return;
  const std::uint64_t end = trace::now();
  if (stats_) stats_->blocked += end - began;
  if (trace_) {
    trace_->push(trace::Event{began, end, "wait", 0, -1, site.peer, site.tag, -1,
                              trace::Event::Kind::slice, how});
    trace_->waited(how);
  }
}

}  // namespace pure
