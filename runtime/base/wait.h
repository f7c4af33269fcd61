// The wait loop (SSW-loop): the one primitive every blocking call waits in.
//
// Each round it drives this rank's progress engine, re-checks the condition,
// lets the scheduler steal one task chunk (work-first: our own condition is
// always checked before stealing), then backs off. Backing off is staged:
// spin with cpu_relax, then sched_yield, then park on the rank's Parker.
// When every rank has a core of its own the spin stage is long (a message is
// usually microseconds away); when ranks outnumber cores it is short, so 16
// ranks on 2 cores hand their cores to whoever can make progress. Where
// ranks sharing a core are fibers (fiber.h), every round instead switches to
// the next rank of the core (tens of ns, where a kernel switch costs over a
// microsecond); a fiber backs off as above only once it is the last
// unfinished rank of its core.
#pragma once

#include <sched.h>

#include <cstdint>

#include "pure/run.hpp"

namespace pure {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

struct BackoffPolicy {
  std::uint32_t spin_rounds;   // rounds of spinning before yielding
  std::uint32_t yield_rounds;  // rounds of sched_yield before parking
  long park_timeout_ns;        // a parked rank re-checks at least this often

  static BackoffPolicy for_mode(WaitMode mode, bool oversubscribed) {
    if (mode == WaitMode::spin) return {1u << 30, 1u << 30, 10'000'000};
    if (mode == WaitMode::park) return {16, 4, 10'000'000};
    // Ranks sharing cores: a waiting rank's core is better spent on the
    // ranks it waits for. Measured (8 ranks on 2 cores, barrier): 64 spins
    // and 8 yields 14 us; 4 and 8 6 us; without yields (straight to the
    // futex) 50 us, since then nearly every wait sleeps and is woken.
    if (oversubscribed) return {4, 8, 10'000'000};
    return {1u << 16, 64, 10'000'000};
  }
};

// What a rank is blocked on, for the deadlock report.
struct WaitSite {
  const char* call;     // e.g. "pure_recv"
  int peer;             // communicator rank or -1
  int tag;
  bool remote = false;  // waits on another process (MPI): poll, never sleep long
};

}  // namespace pure
