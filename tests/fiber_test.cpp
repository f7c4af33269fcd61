// Rank fibers (runtime/base/fiber.h): ranks that share cores take turns on
// the hosts' kernel threads, each keeping its own thread-local state
// wherever it runs.
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>
#include <cerrno>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/fiber.h"
#include "harness.h"
#include "base/topology.h"

namespace {

using pure_testing::expect_clean_run;
using pure_testing::PollGuard;

// What a translated MPI program's globals become: thread-locals, one with a
// dynamic initialiser.
thread_local int t_rank = -1;
thread_local std::string t_name = "unset";

long kernel_thread() { return syscall(SYS_gettid); }

int cores() { return pure::Topology::get().cores(); }

// Whether a job of n ranks runs them as fibers on this machine (with
// PURE_FIBERS=off in the environment, never).
bool fibers_expected(int n, const pure::Config& config) {
  const pure::Config c = pure_testing::job_config(config);
  return c.fibers && n > cores() && pure::Fibers::supported();
}

class FiberJobs : public testing::TestWithParam<int> {};

// Every rank checks its thread-locals (and errno) after each of many
// switches, and records the kernel threads it ran on. With fibers ranks run
// on the hosts' threads only (any of them: a rank moves to a core with
// nothing to run); without, each rank on its own thread all along. What a
// rank that moved sees of its thread: pthread_self() stays its own (it is
// read through the thread pointer, which moves with the rank), while
// gettid() names the kernel thread of the host running it now.
void check_identity(int n, const pure::Config& config) {
  std::mutex mutex;
  std::vector<std::set<long>> ran_on(static_cast<size_t>(n));
  expect_clean_run(
      n,
      [&](int rank, int size) {
        t_rank = rank;
        t_name = "rank " + std::to_string(rank);
        const pthread_t self = pthread_self();
        for (int round = 0; round < 200; ++round) {
          errno = rank + 1;
          EXPECT_PURE_OK(pure_barrier(PURE_COMM_WORLD));
          std::vector<long> mine{rank, 1}, sum(2);
          EXPECT_PURE_OK(
              pure_allreduce(mine.data(), sum.data(), 2, PURE_LONG, PURE_SUM, PURE_COMM_WORLD));
          EXPECT_EQ(sum[0], size * (size - 1) / 2);
          EXPECT_EQ(sum[1], size);
          // From the second round on: the first may run the C++ runtime's
          // waits for a function-local static being initialised by another
          // rank, which leave EAGAIN in errno.
          if (round > 0) {
            EXPECT_EQ(errno, rank + 1);
          }
          EXPECT_EQ(t_rank, rank);
          EXPECT_EQ(t_name, "rank " + std::to_string(rank));
          EXPECT_TRUE(pthread_equal(pthread_self(), self)) << "rank " << rank << ", round " << round;
          const long tid = kernel_thread();
          std::lock_guard<std::mutex> hold(mutex);
          ran_on[static_cast<size_t>(rank)].insert(tid);
        }
      },
      config);
  std::set<long> all;
  for (const auto& threads : ran_on) all.insert(threads.begin(), threads.end());
  if (fibers_expected(n, config)) {
    EXPECT_LE(static_cast<int>(all.size()), cores()) << "ranks ran on more threads than hosts";
  } else {
    for (int r = 0; r < n; ++r)
      EXPECT_EQ(ran_on[static_cast<size_t>(r)].size(), 1u) << "rank " << r << " changed thread";
    EXPECT_EQ(static_cast<int>(all.size()), n) << "ranks shared a kernel thread";
  }
}

TEST_P(FiberJobs, RanksKeepTheirThreadLocalsWhereverTheyRun) {
  // Under PURE_FIBERS=off (tools/test.sh's second pass), or where the
  // machine has no fibers, this checks that every rank has its own thread.
  check_identity(GetParam(), pure::Config{});
}

TEST_P(FiberJobs, WithFibersOffEveryRankHasItsOwnThread) {
  pure::Config config;
  config.fibers = false;
  check_identity(GetParam(), config);
}

// Uneven work: the ranks that start on host 0 (r % cores == 0) compute, the
// others only wait in the allreduce. A host whose ranks all wait takes a
// heavy rank that is ready while host 0 runs another, so heavy ranks run
// on more than one kernel thread. The iterations go on until that is seen
// (at most a bound far beyond what it takes), so the check is of behaviour,
// not of timing; every rank stops at the same iteration, agreed by the
// allreduce.
TEST_P(FiberJobs, ReadyRanksMoveToTheHostWithNothingToRun) {
  const int n = GetParam();
  if (!fibers_expected(n, pure::Config{}) || cores() < 2) GTEST_SKIP() << "no fibers here";
  std::atomic<int> heavy_moved{0};
  expect_clean_run(n, [&](int rank, int) {
    const bool heavy = rank % cores() == 0;
    std::set<long> threads;
    volatile double sink = 0;
    for (int it = 0; it < 5000; ++it) {
      if (heavy)
        for (int k = 0; k < 200000; ++k) sink = sink + k * 1e-9;
      threads.insert(kernel_thread());
      int moved = heavy && threads.size() > 1 ? 1 : 0, any = 0;
      EXPECT_PURE_OK(pure_allreduce(&moved, &any, 1, PURE_INT, PURE_MAX, PURE_COMM_WORLD));
      if (any) break;
    }
    if (heavy && threads.size() > 1) heavy_moved.fetch_add(1);
  }, pure::Config{});
  EXPECT_GE(heavy_moved.load(), 1) << "no heavy rank ever ran on another host";
}

// A program that polls (test, testall, testany, testsome, iprobe) never
// enters the wait loop; with fibers each empty poll must still let its
// group run, since the message it polls for may come from the same core.
TEST_P(FiberJobs, PollingLoopsLetTheGroupRun) {
  const int n = GetParam();
  expect_clean_run(n, [&](int rank, int size) {
    // The partners are the ranks that share our core, when they exist.
    const int step = size > cores() ? cores() : 1;
    const int to = (rank + step) % size;
    const int from = (rank - step + size) % size;
    for (int kind = 0; kind < 5; ++kind) {
      int in = -1;
      int out = rank * 10 + kind;
      PURE_Request reqs[2];
      if (kind == 4) {
        // iprobe until the message is there, then receive it.
        EXPECT_PURE_OK(pure_isend(&out, 1, PURE_INT, to, kind, PURE_COMM_WORLD, &reqs[1]));
        int flag = 0;
        PollGuard guard("pure_iprobe");
        while (!flag) {
          EXPECT_PURE_OK(pure_iprobe(from, kind, PURE_COMM_WORLD, &flag, PURE_STATUS_IGNORE));
          guard();
        }
        EXPECT_PURE_OK(pure_recv(&in, 1, PURE_INT, from, kind, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
        EXPECT_PURE_OK(pure_wait(&reqs[1], PURE_STATUS_IGNORE));
      } else {
        EXPECT_PURE_OK(pure_irecv(&in, 1, PURE_INT, from, kind, PURE_COMM_WORLD, &reqs[0]));
        EXPECT_PURE_OK(pure_isend(&out, 1, PURE_INT, to, kind, PURE_COMM_WORLD, &reqs[1]));
        EXPECT_PURE_OK(pure_wait(&reqs[1], PURE_STATUS_IGNORE));
        PollGuard guard("polling for a receive");
        for (int flag = 0; !flag; guard()) {
          if (kind == 0) {
            EXPECT_PURE_OK(pure_test(&reqs[0], &flag, PURE_STATUS_IGNORE));
          } else if (kind == 1) {
            EXPECT_PURE_OK(pure_testall(1, reqs, &flag, PURE_STATUSES_IGNORE));
          } else if (kind == 2) {
            int index = -1;
            EXPECT_PURE_OK(pure_testany(1, reqs, &index, &flag, PURE_STATUS_IGNORE));
          } else {
            int done = 0;
            int index = -1;
            EXPECT_PURE_OK(pure_testsome(1, reqs, &done, &index, PURE_STATUSES_IGNORE));
            flag = done == 1;
          }
        }
      }
      EXPECT_EQ(in, from * 10 + kind) << "kind " << kind;
    }
  }, pure::Config{});
}

// Ranks end in any order: a host while its group still runs, members before
// it, and an exception caught across switches keeps its own state.
TEST_P(FiberJobs, RanksEndInAnyOrder) {
  const int n = GetParam();
  for (int first : {0, n - 1}) {
    SCOPED_TRACE("rank " + std::to_string(first) + " ends first");
    expect_clean_run(n, [&](int rank, int size) {
      PURE_Comm rest;
      EXPECT_PURE_OK(
          pure_comm_split(PURE_COMM_WORLD, rank == first ? PURE_UNDEFINED : 0, rank, &rest));
      if (rank == first) return;
      int me = -1;
      int m = 0;
      pure_comm_rank(rest, &me);
      pure_comm_size(rest, &m);
      EXPECT_EQ(m, size - 1);
      for (int round = 0; round < 100; ++round) {
        int got = -1;
        EXPECT_PURE_OK(pure_sendrecv(&round, 1, PURE_INT, (me + 1) % m, round, &got, 1, PURE_INT,
                                     (me - 1 + m) % m, round, rest, PURE_STATUS_IGNORE));
        EXPECT_EQ(got, round);
      }
      try {
        throw std::runtime_error("rank " + std::to_string(rank));
      } catch (const std::exception& e) {
        // Other ranks run (and may throw) while this exception is in flight.
        EXPECT_PURE_OK(pure_barrier(rest));
        EXPECT_EQ(std::string(e.what()), "rank " + std::to_string(rank));
        EXPECT_TRUE(std::current_exception() != nullptr);
      }
      EXPECT_PURE_OK(pure_comm_free(&rest));
    }, pure::Config{});
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, FiberJobs, pure_testing::kRankCounts,
                         pure_testing::rank_count_name);

}  // namespace
