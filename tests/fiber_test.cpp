// Rank fibers (runtime/fiber.h): ranks that share a core take turns on their
// group host's kernel thread, each keeping its own thread-local state.
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
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

// Whether a job of n ranks runs them as fibers on this machine.
bool fibers_expected(int n, const pure::Config& config) {
  return pure_testing::job_config(config).fibers && n > cores() && pure::Fibers::supported();
}

class FiberJobs : public testing::TestWithParam<int> {};

// Every rank checks its thread-locals (and errno) after each of many
// switches, and records which kernel thread it ran on. With fibers a rank
// runs on its group host's thread (rank r % cores); without, on its own.
void check_identity(int n, const pure::Config& config) {
  std::vector<std::atomic<long>> seen(static_cast<size_t>(n));
  std::vector<std::atomic<int>> moved(static_cast<size_t>(n));
  expect_clean_run(
      n,
      [&](int rank, int size) {
        t_rank = rank;
        t_name = "rank " + std::to_string(rank);
        seen[static_cast<size_t>(rank)].store(kernel_thread());
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
          if (kernel_thread() != seen[static_cast<size_t>(rank)].load()) moved[static_cast<size_t>(rank)]++;
        }
      },
      config);
  const bool fibers = fibers_expected(n, config);
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(moved[static_cast<size_t>(r)].load(), 0) << "rank " << r << " changed kernel thread";
    const int host = fibers ? r % cores() : r;
    if (host != r) {
      EXPECT_EQ(seen[static_cast<size_t>(r)].load(), seen[static_cast<size_t>(host)].load())
          << "rank " << r << " did not run on its host, rank " << host;
    }
    for (int q = 0; q < r; ++q) {
      if ((fibers ? q % cores() : q) != host) {
        EXPECT_NE(seen[static_cast<size_t>(r)].load(), seen[static_cast<size_t>(q)].load())
            << "ranks " << q << " and " << r << " share a kernel thread";
      }
    }
  }
}

TEST_P(FiberJobs, RanksKeepTheirThreadLocalsOnTheirHostsThread) {
  // Under PURE_FIBERS=off (tools/test.sh's second pass), or where the
  // machine has no fibers, this checks that every rank has its own thread.
  check_identity(GetParam(), pure::Config{});
}

TEST_P(FiberJobs, WithFibersOffEveryRankHasItsOwnThread) {
  pure::Config config;
  config.fibers = false;
  check_identity(GetParam(), config);
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
  });
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
    });
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, FiberJobs, pure_testing::kRankCounts,
                         pure_testing::rank_count_name);

}  // namespace
