#include "base/waiter.h"

#include "pure/pure.h"

namespace pure {

Waiter::Waiter(BackoffPolicy policy, Fibers* fibers, int fiber, AbortState* abort)
    : policy_(policy), fibers_(fibers), fiber_(fiber), abort_(abort) {
  // A thread that spins long before it parks parks rarely: its notifiers can
  // skip their fence, and its rare parks pay for a process-wide barrier
  // (parker.h). Threads sharing cores park all the time and keep the fences.
  parker_.set_asymmetric(own_core());
}

void Waiter::settle() {
  if (settled_ || !abort_) return;
  settled_ = true;
  // Release: pairs with the acquire load in unwind_for_abort, so that every
  // read this rank made of a peer's memory happens before that peer unwinds
  // and frees it (the decrements form one release sequence).
  if (abort_->unsettled.fetch_sub(1, std::memory_order_acq_rel) != 1 || !abort_->peers) return;
  // The last one: ranks unwinding for an abort may be parked on the count.
  for (int k = 0; k < abort_->peers->size(); ++k) abort_->peers->parker(k).notify();
}

void Waiter::unwind_for_abort() {
  settle();
  // No work: stealing a chunk would read another rank's memory again. The
  // last to settle wakes us (settle above).
  if (abort_)
    wait_until([this] { return abort_->unsettled.load(std::memory_order_acquire) == 0; },
               WaitSite{"the abort (waiting for every rank to stop)", -1, -1},
               kWaitNoWork | kWaitIgnoreAbort);
  throw JobAborted{};
}

void Waiter::enter(const WaitSite& site, bool remote, std::uint64_t* began) {
  // Refused where it would block, not at every wait: a condition already
  // true (a request complete, a queue with room) never gets here.
  if (waits_forbidden_) fail(PURE_ERR_OTHER, "called %s, which must not wait", waits_forbidden_);
  status_.enter(site, remote);
  if (trace_ || stats_) *began = trace::now();
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
