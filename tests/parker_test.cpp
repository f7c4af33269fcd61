// Parker: no wake-up is ever lost, in either protocol (parker.h). Two
// threads hand a turn back and forth; each waits for its turn the way the
// wait loop does -- announce, re-check, park -- but parks with no timeout
// and never spins first, so every handoff goes through the racy window
// between a waiter's re-check and its sleep. A lost wake-up hangs the test,
// which ctest's TIMEOUT then fails, instead of costing a delay.
#include "base/parker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>

namespace {

using pure::Parker;

class ParkerHandoff : public ::testing::TestWithParam<bool> {};

TEST_P(ParkerHandoff, NoWakeUpIsLost) {
  const bool asymmetric = GetParam();
  Parker parker[2];
  for (Parker& p : parker) {
    p.set_asymmetric(asymmetric);
    // Without membarrier(2) the asymmetric request falls back to fences.
    EXPECT_EQ(p.asymmetric(), asymmetric && Parker::asymmetric_supported());
  }
  constexpr std::uint64_t kHandoffs = 100000;
  std::atomic<std::uint64_t> turn{0};  // thread t % 2 moves it from t to t + 1
  std::atomic<std::uint64_t> parks{0};
  auto player = [&](int me) {
    std::uint32_t seed = 12345u + static_cast<std::uint32_t>(me) * 7919u;
    // A short random spin before announcing and before publishing, so that
    // announcements and publications often coincide: the lost-wake-up race.
    auto jitter = [&] {
      seed = seed * 1103515245u + 12345u;
      for (std::uint32_t i = (seed >> 16) % 96; i > 0; --i) std::atomic_signal_fence(std::memory_order_seq_cst);
    };
    for (std::uint64_t t = static_cast<std::uint64_t>(me); t < kHandoffs; t += 2) {
      // Poll first for a random while (the other thread is waking up): the
      // announcement below then often lands right on its publication.
      seed = seed * 1103515245u + 12345u;
      for (std::uint32_t i = (seed >> 12) % 4096; i > 0 && turn.load(std::memory_order_acquire) != t; --i) {
      }
      while (turn.load(std::memory_order_acquire) != t) {
        std::uint32_t token = parker[me].prepare();
        if (turn.load(std::memory_order_acquire) == t) {
          parker[me].cancel();
          break;
        }
        parker[me].park(token, 0);
        parks.fetch_add(1, std::memory_order_relaxed);
      }
      jitter();
      // Now and then publish only once the other thread has announced
      // itself (it waits for this turn, so it will): it then re-checks,
      // finds nothing and parks, so the sleeping side of the handoff is
      // exercised on any machine, however the threads are scheduled.
      if (t % 1024 < 2 && t + 1 < kHandoffs)
        while (!parker[1 - me].announced()) std::this_thread::yield();
      // Publish, then notify: the order every notifier in the runtime uses.
      turn.store(t + 1, std::memory_order_release);
      parker[1 - me].notify();
    }
  };
  std::thread other(player, 1);
  player(0);
  other.join();
  EXPECT_EQ(turn.load(), kHandoffs);
  EXPECT_GT(parks.load(), 0u);  // the waits did sleep, so the window was exercised
}

INSTANTIATE_TEST_SUITE_P(Protocols, ParkerHandoff, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "asymmetric" : "symmetric";
                         });

}  // namespace
