#include "base/waiter.h"

namespace pure {

Waiter::Waiter(BackoffPolicy policy, Fibers* fibers, int fiber, const std::atomic<int>* abort_code)
    : policy_(policy), fibers_(fibers), fiber_(fiber), abort_code_(abort_code) {
  // A thread that spins long before it parks parks rarely: its notifiers can
  // skip their fence, and its rare parks pay for a process-wide barrier
  // (parker.h). Threads sharing cores park all the time and keep the fences.
  parker_.set_asymmetric(own_core());
}

void Waiter::enter(const WaitSite& site, bool remote, std::uint64_t* began) {
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
