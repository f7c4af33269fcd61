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
//
// Asymmetric mode (set_asymmetric): every message and every collective
// arrival notifies, but waiters park rarely when each rank has a core of its
// own (after a long spin). Then the notifier's fence -- which stalls the
// sender until its store's cache line arrives, every message -- is replaced
// by a compiler barrier, and the waiter's fence by membarrier(2)
// (MEMBARRIER_CMD_PRIVATE_EXPEDITED), which makes every running thread of
// the process execute a full barrier. Either a notifier's barrier point
// falls before its published store (then the store is visible to the
// waiter's re-check) or after it (then its later load of the state sees the
// announcement). It pays off where waiters park rarely (docs/perf-notes.md,
// "Parker"). With ranks sharing cores waiters park all the time, and the
// symmetric fences stay. A rank polling another process would park every
// 50 us, each park a barrier that interrupts every running rank: in
// asymmetric mode it sleeps between polls without announcing instead
// (Waiter::loop, base/waiter.h).
#pragma once

#include <atomic>
#include <cstdint>

#include "base/cpu.h"

namespace pure {

// The futex word and the system calls; what does not depend on the fence.
class ParkerWord {
 public:
  ParkerWord() = default;
  ParkerWord(const ParkerWord&) = delete;
  ParkerWord& operator=(const ParkerWord&) = delete;

  // Chooses the asymmetric protocol (above) when `on` and the kernel offers
  // it. Call before any thread waits on or notifies this Parker.
  void set_asymmetric(bool on) { asymmetric_ = on && asymmetric_supported(); }
  bool asymmetric() const { return asymmetric_; }
  // Whether membarrier(2) with private expedited barriers is available
  // (registers the process for it on the first call).
  static bool asymmetric_supported();

  // A waiter is announced (about to sleep, or asleep): for the trace's
  // count of parked threads; a snapshot only.
  bool announced() const { return state_.load(std::memory_order_relaxed) & 1u; }
  // The condition became true after prepare(): withdraw the announcement.
  void cancel() { state_.fetch_and(~1u, std::memory_order_relaxed); }
  // Sleeps until notified or `timeout_ns` passes (0 = no timeout).
  void park(std::uint32_t token, long timeout_ns);
  // Sleeps `ns` without announcing: nobody can wake it early.
  static void sleep_for(long ns);

 protected:
  void wake(std::uint32_t seen);
  static void process_barrier();
  alignas(64) std::atomic<std::uint32_t> state_{0};
  bool asymmetric_ = false;  // fixed before use; shares the line notify() reads anyway
};

// `Fence` orders each side's store before its load (base/cpu.h); only the
// litmus test uses anything but SeqCstFence.
template <class Fence>
class BasicParker : public ParkerWord {
 public:
  // Waiter side. Returns the token to pass to park().
  std::uint32_t prepare() {
    std::uint32_t token = state_.fetch_or(1, std::memory_order_seq_cst) | 1u;
    if (asymmetric_)
      process_barrier();
    else
      Fence::store_load();
    return token;
  }

  // Notifier side: cheap when nobody is parked (a fence and a load). True
  // when a waiter was announced (it is woken).
  bool notify() {
    if (asymmetric_)
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the compiler's order only
    else
      Fence::store_load();
    std::uint32_t s = state_.load(std::memory_order_relaxed);
    if (!(s & 1u)) return false;
    wake(s);
    return true;
  }
};

using Parker = BasicParker<SeqCstFence>;

}  // namespace pure
