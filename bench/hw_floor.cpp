// The machine's floors under Pure's intra-node targets: what two threads on
// two cores can do with nothing but cache lines, and what a context switch
// costs when threads share a core. Pure's numbers are read against these
// (tools/bench.sh floor); nothing from the runtime is used here, except by
// the last figure, which measures the runtime's own switch.
//
//   one-way, one line      a ping-pong over one shared line: each side
//                          spins (pause) until the line holds its turn, then
//                          writes the other's: half a round trip
//   one-way, two lines     the same, each side writing its own line and
//                          spinning on the other's (an eager slot vs a flag)
//   exchange               both sides at once: store my sequence number,
//                          spin until the other's arrives (a two-rank
//                          barrier or allreduce: the symmetric pattern)
//   yield switch           4 threads pinned to one core calling sched_yield:
//                          what one switch between rank threads costs when
//                          ranks outnumber cores, as threads
//   fiber switch           the same 4 ranks as Pure's fibers (runtime/fiber.h):
//                          one switch to the next rank of the core, thread
//                          pointer included
//
// Each figure is the best of 20 batches. Usage: hw_floor [--quick]
// Prints JSON Lines for tools/bench_report.py, one object per figure:
//   {"bench":"floor","kind":"one_line","ns":N}
// kinds one_line, two_lines, exchange, yield_switch, fiber_switch; "ns" is
// null for the fiber switch where fibers are not supported.
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "base/fiber.h"

namespace {

struct alignas(64) Line {
  std::atomic<std::uint64_t> v{0};
};

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

using Clock = std::chrono::steady_clock;

// Runs body(me, iteration) on two threads pinned to CPUs 0 and 1; returns
// the best batch's nanoseconds per iteration, divided by `per`.
template <class Body>
double two_threads(long iterations, double per, Body body) {
  constexpr int kBatches = 20;
  const long batch = iterations / kBatches;
  double best = 1e30;
  std::thread other([&] {
    pin(1);
    for (long i = 0; i < batch * kBatches; ++i) body(1, i);
  });
  pin(0);
  for (int b = 0; b < kBatches; ++b) {
    const auto t0 = Clock::now();
    for (long i = b * batch; i < (b + 1) * batch; ++i) body(0, i);
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    if (ns / static_cast<double>(batch) < best) best = ns / static_cast<double>(batch);
  }
  other.join();
  return best / per;
}

double one_line(long n) {
  Line line;
  return two_threads(n, 2.0, [&](int me, long i) {
    const std::uint64_t mine = 2 * static_cast<std::uint64_t>(i) + static_cast<std::uint64_t>(me);
    while (line.v.load(std::memory_order_acquire) != mine) relax();
    line.v.store(mine + 1, std::memory_order_release);
  });
}

double two_lines(long n) {
  Line flag[2];
  return two_threads(n, 2.0, [&](int me, long i) {
    const std::uint64_t k = static_cast<std::uint64_t>(i) + 1;
    if (me == 0) {
      flag[0].v.store(k, std::memory_order_release);
      while (flag[1].v.load(std::memory_order_acquire) < k) relax();
    } else {
      while (flag[0].v.load(std::memory_order_acquire) < k) relax();
      flag[1].v.store(k, std::memory_order_release);
    }
  });
}

double exchange(long n) {
  Line arrived[2];
  return two_threads(n, 1.0, [&](int me, long i) {
    const std::uint64_t k = static_cast<std::uint64_t>(i) + 1;
    arrived[me].v.store(k, std::memory_order_release);
    while (arrived[1 - me].v.load(std::memory_order_acquire) < k) relax();
  });
}

double yield_switch(long n) {
  constexpr int kThreads = 4;
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([n] {
      pin(0);
      for (long i = 0; i < n; ++i) sched_yield();
    });
  for (auto& t : threads) t.join();
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  return ns / (static_cast<double>(kThreads) * static_cast<double>(n));
}

double fiber_switch(long n) {
  constexpr int kRanks = 4;
  pure::Fibers fibers(kRanks, 1);  // one group: rank 0's thread hosts all four
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kRanks; ++t)
    threads.emplace_back([n, t, &fibers] {
      if (t == 0) pin(0);
      fibers.enter(t);
      for (long i = 0; i < n; ++i) fibers.yield(t);
      fibers.leave(t);
    });
  for (auto& t : threads) t.join();
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  return ns / (static_cast<double>(kRanks) * static_cast<double>(n));
}

void print(const char* kind, double ns) {
  std::printf("{\"bench\":\"floor\",\"kind\":\"%s\",\"ns\":%.1f}\n", kind, ns);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  if (std::thread::hardware_concurrency() < 2) {
    std::fprintf(stderr, "hw_floor: needs two CPUs\n");
    return 1;
  }
  const long n = quick ? 400000 : 2000000;
  print("one_line", one_line(n));
  print("two_lines", two_lines(n));
  print("exchange", exchange(n));
  print("yield_switch", yield_switch(quick ? 20000 : 100000));
  if (pure::Fibers::supported())
    print("fiber_switch", fiber_switch(quick ? 200000 : 1000000));
  else
    std::printf("{\"bench\":\"floor\",\"kind\":\"fiber_switch\",\"ns\":null}\n");
  return 0;
}
