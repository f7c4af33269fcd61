// Parking a rank thread without losing wake-ups (an event count on a futex).
//
// Protocol, after Taskflow's notifier: the waiter announces itself
// (prepare), re-checks its condition, then sleeps only if the state word has
// not moved (commit). A notifier first publishes whatever the waiter waits
// for, then calls notify(). The two seq_cst fences (one in prepare, one in
// notify) order "publish; read state" against "announce; re-check": either the
// notifier sees the waiter's bit and wakes it, or the waiter's re-check sees
// the published data. Bit 0 of the state word means "a waiter is announced";
// the rest is an epoch bumped by every wake.
#pragma once

#include <atomic>
#include <cstdint>

namespace pure {

class Parker {
 public:
  Parker() = default;
  Parker(const Parker&) = delete;
  Parker& operator=(const Parker&) = delete;

  // Waiter side. Returns the token to pass to park().
  std::uint32_t prepare() {
    std::uint32_t token = state_.fetch_or(1, std::memory_order_seq_cst) | 1u;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return token;
  }
  // The condition became true after prepare(): withdraw the announcement.
  void cancel() { state_.fetch_and(~1u, std::memory_order_relaxed); }
  // Sleeps until notified or `timeout_ns` passes (0 = no timeout).
  void park(std::uint32_t token, long timeout_ns);

  // Notifier side: cheap when nobody is parked (a fence and a load).
  void notify() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    std::uint32_t s = state_.load(std::memory_order_relaxed);
    if (s & 1u) wake(s);
  }

 private:
  void wake(std::uint32_t seen);
  alignas(64) std::atomic<std::uint32_t> state_{0};
};

}  // namespace pure
