// Litmus tests of the runtime's store-load handshakes: the protocols whose
// correctness rests on a seq_cst fence, which ThreadSanitizer does not model
// (GCC's ignores atomic_thread_fence altogether), so the TSan suite cannot
// check them.
//
// Each handshake is two threads that each store and then load what the
// other stored. Without a store-load fence between, both loads can miss the
// other's store (on x86 a store waits in the store buffer while a later
// load runs): the "store buffering" outcome. Each test runs the runtime's
// own code for the two sides many times, started together with a random
// skew so that the two sides often overlap, and checks that the outcome the
// fence forbids never occurs.
//
// The DISABLED_ tests build the same protocol code with the fence policy
// replaced by a compiler-only barrier and expect to observe the forbidden
// outcome: run by hand (--gtest_also_run_disabled_tests, on an otherwise
// idle machine with two cores) they show that these litmus tests catch a
// missing fence. They are not run by ctest: whether two threads overlap at
// all depends on the machine's load.
#include <gtest/gtest.h>

#include <sched.h>

#include <atomic>
#include <cstdint>
#include <thread>

#include "base/cpu.h"
#include "base/parker.h"
#include "collectives/round.h"

namespace {

// A fence policy that keeps only the compiler's order: the mutation.
struct NoFence {
  static void store_load() { std::atomic_signal_fence(std::memory_order_seq_cst); }
};

// Spins `n` pauses: the random skew between the two sides.
void skew(std::uint32_t n) {
  for (; n > 0; --n) pure::cpu_relax();
}

// Runs `rounds` rounds of a two-thread handshake and counts the rounds whose
// outcome is forbidden. Each round: `reset()` on the leader, then both
// threads start together (the leader publishes the round number, the other
// spins on it), each waits a random skew, then runs its side: `a()` on the
// leader, `b()` on the other; `forbidden(ra, rb)` judges their results.
// Waiting spins, then yields, so the test also finishes when the two threads
// share a core.
template <class Reset, class A, class B, class Forbidden>
int count_forbidden(int rounds, Reset reset, A a, B b, Forbidden forbidden) {
  alignas(pure::kCacheLine) std::atomic<int> go{0};
  alignas(pure::kCacheLine) std::atomic<int> done{0};
  alignas(pure::kCacheLine) bool rb = false;  // written by the other thread before `done`
  auto spin_until = [](auto&& cond) {
    for (int i = 0; !cond(); ++i) {
      if (i < 4096)
        pure::cpu_relax();
      else
        sched_yield();
    }
  };
  std::thread other([&] {
    std::uint32_t seed = 0x9e3779b9u;
    for (int r = 1; r <= rounds; ++r) {
      spin_until([&] { return go.load(std::memory_order_acquire) >= r; });
      seed = seed * 1664525u + 1013904223u;
      skew((seed >> 24) % 64);
      rb = b();
      done.store(r, std::memory_order_release);
    }
  });
  int count = 0;
  std::uint32_t seed = 12345u;
  for (int r = 1; r <= rounds; ++r) {
    reset();
    go.store(r, std::memory_order_release);
    seed = seed * 1664525u + 1013904223u;
    // The other side first has to see `go`: start a little later on average.
    skew((seed >> 24) % 96);
    const bool ra = a();
    spin_until([&] { return done.load(std::memory_order_acquire) >= r; });
    if (forbidden(ra, rb)) ++count;
  }
  other.join();
  return count;
}

// ---- Parker (base/parker.h): announce-then-recheck against publish-then-check.
// The waiter announces itself (prepare) and re-checks its condition; the
// notifier publishes the condition and looks for an announcement
// (notify). Forbidden: the waiter misses the data and the notifier misses
// the announcement -- the waiter would sleep through its wake-up.

template <class Fence>
int parker_lost_wakeups(int rounds, bool asymmetric) {
  pure::BasicParker<Fence> parker;
  parker.set_asymmetric(asymmetric);
  alignas(pure::kCacheLine) std::atomic<int> data{0};
  return count_forbidden(
      rounds,
      [&] {
        data.store(0, std::memory_order_relaxed);
        parker.cancel();
      },
      [&] {  // waiter: true when its re-check saw the data
        parker.prepare();
        return data.load(std::memory_order_acquire) != 0;
      },
      [&] {  // notifier: true when it saw the announcement
        data.store(1, std::memory_order_release);
        return parker.notify();
      },
      [](bool waiter_saw_data, bool notifier_saw_waiter) {
        return !waiter_saw_data && !notifier_saw_waiter;
      });
}

constexpr int kRounds = 100000;

TEST(Litmus, ParkerNeverLosesAWakeUp) {
  EXPECT_EQ(parker_lost_wakeups<pure::SeqCstFence>(kRounds, false), 0);
}

TEST(Litmus, ParkerNeverLosesAWakeUpAsymmetric) {
  if (!pure::Parker::asymmetric_supported()) GTEST_SKIP() << "no membarrier(2) here";
  // The waiter's membarrier is a system call: fewer rounds.
  EXPECT_EQ(parker_lost_wakeups<pure::SeqCstFence>(kRounds / 10, true), 0);
}

TEST(Litmus, DISABLED_ParkerWithoutItsFenceLosesWakeUps) {
  const int lost = parker_lost_wakeups<NoFence>(kRounds * 10, false);
  std::printf("without the fence: %d of %d handshakes lost the wake-up\n", lost, kRounds * 10);
  EXPECT_GT(lost, 0);
}

// ---- Round arrivals (collectives/round.h): publish_and_see_all. Two
// members arrive at once; each publishes its sequence number and looks at
// the other's. Forbidden: neither sees the other -- then nobody knows it is
// the last to arrive, and the round (ranks sharing cores) is never released.

template <class Fence>
int arrivals_unseen(int rounds) {
  alignas(pure::kCacheLine) std::atomic<std::uint64_t> seq0{0};
  alignas(pure::kCacheLine) std::atomic<std::uint64_t> seq1{0};
  std::uint64_t s = 0;  // the round number both publish; set by the leader's reset
  auto seq_of = [&](int k) -> std::atomic<std::uint64_t>& { return k == 0 ? seq0 : seq1; };
  return count_forbidden(
      rounds, [&] { ++s; },
      [&] { return pure::coll::publish_and_see_all<Fence>(seq0, s, 2, 0, seq_of); },
      [&] { return pure::coll::publish_and_see_all<Fence>(seq1, s, 2, 1, seq_of); },
      [](bool first_saw_all, bool second_saw_all) { return !first_saw_all && !second_saw_all; });
}

TEST(Litmus, ArrivingMembersAlwaysSeeTheLastArrival) {
  EXPECT_EQ(arrivals_unseen<pure::SeqCstFence>(kRounds), 0);
}

TEST(Litmus, DISABLED_ArrivalsWithoutTheFenceGoUnseen) {
  const int unseen = arrivals_unseen<NoFence>(kRounds * 10);
  std::printf("without the fence: %d of %d rounds where neither member saw the other\n", unseen,
              kRounds * 10);
  EXPECT_GT(unseen, 0);
}

}  // namespace
