// Pure Tasks: index ranges, exactly-once execution under every chunk and
// steal policy at 2 to 16 ranks with random delays in the chunks, exceptions,
// stealing from ranks blocked in recv / barrier / allreduce, helper threads,
// nested execute, parallel_for, the C interface and the settings.
//
// Tests that need a steal to happen make it happen instead of hoping for it:
// the owner's chunks wait (yielding, with a generous bound against hangs)
// until a chunk ran on another thread, so the other chunks can only be taken
// by thieves. The bound is never a timing assertion: reaching it fails the
// test as a hang would.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "harness.h"
#include "pure/pure.hpp"

extern "C" {
int c_task_sum(const int* in, int64_t n, int factor, int chunks, long long* total,
               int* exactly_once);
int c_task_null_function(void);
int c_idx_range_outside_chunk(void);
}


namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

// Per-chunk run counters of one execution.
class ChunkCounts {
 public:
  explicit ChunkCounts(std::int64_t chunks) : n_(chunks), counts_(new std::atomic<int>[chunks]) {
    for (std::int64_t c = 0; c < n_; ++c) counts_[c].store(0, std::memory_order_relaxed);
  }
  // Records a run of [start, end]; flags ids out of range.
  void add(chunk_id_t start, chunk_id_t end) {
    if (start < 0 || end < start || end >= n_) {
      bad_range_.store(true, std::memory_order_relaxed);
      return;
    }
    for (chunk_id_t c = start; c <= end; ++c) counts_[c].fetch_add(1, std::memory_order_relaxed);
  }
  // Every chunk ran exactly once, and no run was out of range.
  testing::AssertionResult exactly_once() const {
    if (bad_range_.load()) return testing::AssertionFailure() << "a chunk range was out of bounds";
    for (std::int64_t c = 0; c < n_; ++c) {
      const int k = counts_[c].load();
      if (k != 1) return testing::AssertionFailure() << "chunk " << c << " ran " << k << " times";
    }
    return testing::AssertionSuccess();
  }

 private:
  std::int64_t n_;
  std::unique_ptr<std::atomic<int>[]> counts_;
  std::atomic<bool> bad_range_{false};
};

// Random delays that widen race windows: mostly nothing or a short spin,
// sometimes a yield, rarely a short sleep.
void random_delay(std::uint64_t key) {
  const std::uint64_t h = mix(key);
  switch (h & 63) {
    case 0:
      std::this_thread::sleep_for(std::chrono::microseconds(20 + (h >> 8) % 80));
      break;
    case 1: case 2: case 3:
      std::this_thread::yield();
      break;
    default:
      if ((h & 3) == 0) {
        volatile std::uint64_t sink = 0;
        for (std::uint64_t i = 0; i < (h >> 16) % 3000; ++i) sink = sink + i;
      }
  }
}

// Waits until `flag` is set, yielding; false after a bound that only a hang
// reaches.
bool wait_for(const std::atomic<bool>& flag) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!flag.load(std::memory_order_acquire)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

int my_rank() {
  int r = -1;
  pure_comm_rank(W, &r);
  return r;
}

// ------------------------------------------------------------ index ranges

template <class T>
void check_cover(std::int64_t n, chunk_id_t chunks) {
  const std::int64_t grain = pure::cache_line_grain<T>();
  std::int64_t expect_lo = 0;
  for (chunk_id_t c = 0; c < chunks; ++c) {
    const auto [lo, hi] = pure_aligned_idx_range<T>(n, c, c, chunks);
    ASSERT_EQ(lo, expect_lo) << "n=" << n << " chunks=" << chunks << " c=" << c;
    ASSERT_GE(hi, lo - 1);
    ASSERT_TRUE(lo == n || lo % grain == 0) << "chunk " << c << " starts off a cache line";
    expect_lo = hi + 1;
    // A run of chunks covers exactly the union of its chunks.
    if (c + 2 < chunks) {
      const auto run = pure_aligned_idx_range<T>(n, c, c + 2, chunks);
      EXPECT_EQ(run.first, lo);
      EXPECT_EQ(run.second, pure_aligned_idx_range<T>(n, c + 2, c + 2, chunks).second);
    }
  }
  EXPECT_EQ(expect_lo, n) << "n=" << n << " chunks=" << chunks;
  // The whole task is one range.
  const auto all = pure_aligned_idx_range<T>(n, 0, chunks - 1, chunks);
  EXPECT_EQ(all.first, 0);
  EXPECT_EQ(all.second, n - 1);
}

struct Bytes24 {
  char b[24];
};
struct Bytes128 {
  char b[128];
};

TEST(TasksIdxRange, ChunksCoverEveryElementOnceOnCacheLines) {
  for (std::int64_t n : {0, 1, 7, 8, 9, 63, 64, 65, 100, 1000, 1001, 4099, 100000}) {
    for (chunk_id_t chunks : {1, 2, 3, 7, 8, 64, 128, 1000}) {
      check_cover<char>(n, chunks);
      check_cover<double>(n, chunks);
      check_cover<Bytes24>(n, chunks);
      check_cover<Bytes128>(n, chunks);
      check_cover<std::byte>(n, chunks);
    }
  }
}

TEST(TasksIdxRange, AlignedBoundariesAreCacheLineAddresses) {
  constexpr std::int64_t n = 1003;
  struct alignas(64) Line {
    double v[8];
  };
  std::vector<Line> storage(n / 8 + 1);
  const double* base = storage[0].v;
  for (chunk_id_t c = 0; c < 37; ++c) {
    const auto [lo, hi] = pure_aligned_idx_range<double>(n, c, c, 37);
    if (lo <= hi) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(base + lo) % 64, 0u) << c;
    }
  }
}

TEST(TasksIdxRange, UnalignedChunksDifferByAtMostOne) {
  for (std::int64_t n : {0, 1, 5, 99, 1000}) {
    for (chunk_id_t chunks : {1, 3, 8, 128}) {
      std::int64_t next = 0;
      std::int64_t smallest = n, largest = 0;
      for (chunk_id_t c = 0; c < chunks; ++c) {
        const auto [lo, hi] = pure_idx_range(n, c, c, chunks);
        EXPECT_EQ(lo, next);
        next = hi + 1;
        smallest = std::min(smallest, hi - lo + 1);
        largest = std::max(largest, hi - lo + 1);
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(largest - smallest, 1);
    }
  }
}

TEST(TasksIdxRange, InvalidRangesThrow) {
  EXPECT_THROW(pure_idx_range(10, 3, 2, 8), std::out_of_range);
  EXPECT_THROW(pure_idx_range(10, 0, 8, 8), std::out_of_range);
  EXPECT_THROW(pure_idx_range(10, -1, 0, 8), std::out_of_range);
  EXPECT_THROW(pure_idx_range(-1, 0, 0, 8), std::out_of_range);
  EXPECT_THROW(pure_idx_range(10, 0, 0, 0), std::out_of_range);
  // Without a chunk count the range needs a running task.
  EXPECT_THROW(pure_idx_range(10, 0, 0), std::logic_error);
  EXPECT_THROW(pure_aligned_idx_range<double>(10, 0, 0), std::logic_error);
}

// ------------------------------------------------- exactly once, every policy

using Policies = std::tuple<pure::ChunkPolicy, pure::StealPolicy, int>;

const char* name_of(pure::ChunkPolicy p) { return p == pure::ChunkPolicy::single ? "single" : "guided"; }
const char* name_of(pure::StealPolicy p) {
  return p == pure::StealPolicy::random ? "random" : p == pure::StealPolicy::numa ? "numa" : "sticky";
}

class TasksExactlyOnce : public testing::TestWithParam<Policies> {};

// Every rank executes tasks of several sizes, with its own imbalance and
// random delays, then meets the others in an allreduce or a barrier, where
// the early ones steal. Checks every chunk ran once, the per-execution
// argument, and that the counters add up: all ranks' own plus stolen chunks
// equal all chunks of all tasks.
TEST_P(TasksExactlyOnce, EveryChunkRunsOnce) {
  const auto [chunk_policy, steal_policy, ranks] = GetParam();
  pure::Config config;
  config.chunk_policy = chunk_policy;
  config.steal_policy = steal_policy;
  config.max_task_chunks = 96;
  expect_clean_run(
      ranks,
      [](int rank, int size) {
        const pure::TaskStats before = pure::task_stats();
        long long chunks_total = 0;
        for (int round = 0; round < 4; ++round) {
          for (chunk_id_t requested : {1, 7, 64, 500}) {
            const chunk_id_t chunks = std::min<chunk_id_t>(requested, 96);
            ChunkCounts counts(chunks);
            std::atomic<bool> bad_args{false};
            const bool heavy = rank == round % size;
            int token = rank * 1000 + round;
            PureTask task(
                [&](chunk_id_t start, chunk_id_t end, std::optional<void*> args) {
                  if (!args || *args != &token) bad_args.store(true);
                  for (chunk_id_t c = start; c <= end; ++c) {
                    random_delay(key_of(rank, round, requested, c));
                    if (heavy) random_delay(key_of(rank, round, requested, c + 1000000));
                  }
                  counts.add(start, end);
                },
                requested);
            task.execute(&token);
            EXPECT_TRUE(counts.exactly_once()) << "rank " << rank << " round " << round;
            EXPECT_FALSE(bad_args.load());
            chunks_total += chunks;
            if ((round + requested) % 2 == 0) {
              int one = 1, sum = 0;
              EXPECT_PURE_OK(pure_allreduce(&one, &sum, 1, PURE_INT, PURE_SUM, W));
              EXPECT_EQ(sum, size);
            } else {
              EXPECT_PURE_OK(pure_barrier(W));
            }
          }
        }
        EXPECT_PURE_OK(pure_barrier(W));  // nobody is still stealing our chunks
        const pure::TaskStats after = pure::task_stats();
        EXPECT_EQ(after.tasks - before.tasks, 16);
        long long mine[2] = {after.own_chunks - before.own_chunks +
                                 after.stolen_chunks - before.stolen_chunks,
                             chunks_total};
        long long sums[2] = {0, 0};
        EXPECT_PURE_OK(pure_allreduce(mine, sums, 2, PURE_LONG_LONG, PURE_SUM, W));
        EXPECT_EQ(sums[0], sums[1]) << "chunks run by all ranks != chunks of all tasks";
      },
      config);
}

INSTANTIATE_TEST_SUITE_P(
    Policies, TasksExactlyOnce,
    testing::Combine(testing::Values(pure::ChunkPolicy::single, pure::ChunkPolicy::guided),
                     testing::Values(pure::StealPolicy::random, pure::StealPolicy::numa,
                                     pure::StealPolicy::sticky),
                     pure_testing::rank_sweep({2, 4, 8, 16})),
    [](const testing::TestParamInfo<Policies>& info) {
      return std::string(name_of(std::get<0>(info.param))) + "_" +
             name_of(std::get<1>(info.param)) + "_ranks" + std::to_string(std::get<2>(info.param));
    });

// -------------------------------------------- ranks blocked in a call steal

enum class Blocked { recv, barrier, allreduce };

class TasksStealWhileBlocked
    : public testing::TestWithParam<std::tuple<Blocked, int>> {};

// Rank 0 executes a task while every other rank blocks in recv (from rank
// 0), barrier or allreduce; rank 0 only gets there after its task. Rank 0's
// chunks wait until a chunk ran on a rank that was inside that call, so the
// task can only finish through such a steal; that rank's counters show it.
TEST_P(TasksStealWhileBlocked, BlockedRanksRunChunks) {
  const Blocked blocked = std::get<0>(GetParam());
  const int ranks = std::get<1>(GetParam());
  constexpr chunk_id_t kChunks = 64;
  std::vector<std::atomic<bool>> in_call(static_cast<size_t>(ranks));
  for (auto& f : in_call) f.store(false);
  std::atomic<bool> stolen_in_call{false};
  std::atomic<bool> gave_up{false};
  ChunkCounts counts(kChunks);
  auto release = [&](int rank, int size) {
    int one = 1, sum = 0;
    switch (blocked) {
      case Blocked::recv:
        if (rank == 0) {
          for (int r = 1; r < size; ++r) EXPECT_PURE_OK(pure_send(&one, 1, PURE_INT, r, 5, W));
        } else {
          EXPECT_PURE_OK(pure_recv(&sum, 1, PURE_INT, 0, 5, W, PURE_STATUS_IGNORE));
        }
        break;
      case Blocked::barrier:
        EXPECT_PURE_OK(pure_barrier(W));
        break;
      case Blocked::allreduce:
        EXPECT_PURE_OK(pure_allreduce(&one, &sum, 1, PURE_INT, PURE_SUM, W));
        EXPECT_EQ(sum, size);
        break;
    }
  };
  expect_clean_run(ranks, [&](int rank, int size) {
    EXPECT_PURE_OK(pure_barrier(W));
    if (rank == 0) {
      PureTask task([&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
        const int me = my_rank();
        counts.add(start, end);
        if (me == 0) {
          if (!wait_for(stolen_in_call)) gave_up.store(true);
        } else if (in_call[static_cast<size_t>(me)].load(std::memory_order_relaxed)) {
          stolen_in_call.store(true, std::memory_order_release);
        }
      }, kChunks);
      task.execute();
      release(rank, size);
      EXPECT_FALSE(gave_up.load()) << "no blocked rank stole a chunk (hang bound reached)";
      EXPECT_TRUE(counts.exactly_once());
    } else {
      const long long before = pure::task_stats().stolen_chunks;
      in_call[static_cast<size_t>(rank)].store(true, std::memory_order_relaxed);
      release(rank, size);
      in_call[static_cast<size_t>(rank)].store(false, std::memory_order_relaxed);
      const long long stolen = pure::task_stats().stolen_chunks - before;
      long long total = 0;
      // Sum the blocked ranks' steals at rank 0's side below.
      EXPECT_GE(stolen, 0);
      EXPECT_PURE_OK(pure_reduce(&stolen, &total, 1, PURE_LONG_LONG, PURE_SUM, 0, W));
      return;
    }
    long long zero = 0, total = 0;
    EXPECT_PURE_OK(pure_reduce(&zero, &total, 1, PURE_LONG_LONG, PURE_SUM, 0, W));
    EXPECT_GT(total, 0) << "the blocked ranks' counters show no stolen chunk";
    // Rank 0's view of another rank's counters agrees.
    long long seen = 0;
    for (int r = 1; r < size; ++r) seen += pure::task_stats(r).stolen_chunks;
    EXPECT_GE(seen, total);
  });
}

INSTANTIATE_TEST_SUITE_P(
    Calls, TasksStealWhileBlocked,
    testing::Combine(testing::Values(Blocked::recv, Blocked::barrier, Blocked::allreduce),
                     pure_testing::rank_sweep({2, 4, 8, 16})),
    [](const testing::TestParamInfo<std::tuple<Blocked, int>>& info) {
      const Blocked b = std::get<0>(info.param);
      return std::string(b == Blocked::recv ? "recv" : b == Blocked::barrier ? "barrier" : "allreduce") +
             "_ranks" + std::to_string(std::get<1>(info.param));
    });

// ------------------------------------------------------------- exceptions

TEST(TasksExceptions, ChunkExceptionReachesTheOwner) {
  expect_clean_run(4, [](int rank, int) {
    PureTask task([&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
      for (chunk_id_t c = start; c <= end; ++c)
        if (c == 5) throw std::runtime_error("chunk 5 failed");
    }, 32);
    try {
      task.execute();
      ADD_FAILURE() << "rank " << rank << ": execute did not throw";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "chunk 5 failed");
    }
    EXPECT_PURE_OK(pure_barrier(W));
  });
}

// Only chunks run by a thief throw, and the owner's chunks wait for one: the
// exception must cross threads.
TEST(TasksExceptions, StolenChunkExceptionReachesTheOwner) {
  struct Thrown {
    int by;
  };
  std::atomic<bool> stolen{false};
  std::atomic<bool> gave_up{false};
  expect_clean_run(3, [&](int rank, int) {
    if (rank == 0) {
      PureTask task([&](chunk_id_t, chunk_id_t, std::optional<void*>) {
        const int me = my_rank();
        if (me == 0) {
          if (!wait_for(stolen)) gave_up.store(true);
          return;
        }
        stolen.store(true, std::memory_order_release);
        throw Thrown{me};
      }, 16);
      bool caught = false;
      try {
        task.execute();
      } catch (const Thrown& t) {
        caught = true;
        EXPECT_NE(t.by, 0);
      }
      EXPECT_TRUE(caught);
      EXPECT_FALSE(gave_up.load());
      // The scheduler is usable again at once.
      ChunkCounts counts(20);
      PureTask again([&](chunk_id_t s, chunk_id_t e, std::optional<void*>) { counts.add(s, e); }, 20);
      again.execute();
      EXPECT_TRUE(counts.exactly_once());
    }
    EXPECT_PURE_OK(pure_barrier(W));
  });
}

// Every chunk throws; exactly one exception comes out, and it is one of them.
TEST(TasksExceptions, FirstExceptionWins) {
  expect_clean_run(4, [](int, int) {
    for (int round = 0; round < 5; ++round) {
      PureTask task([&](chunk_id_t start, chunk_id_t, std::optional<void*>) {
        random_delay(key_of(round, start));
        throw std::runtime_error("chunk " + std::to_string(start));
      }, 24);
      try {
        task.execute();
        ADD_FAILURE() << "execute did not throw";
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("chunk ", 0), 0u) << e.what();
      }
    }
    EXPECT_PURE_OK(pure_barrier(W));
  });
}

// pure_abort inside a chunk, wherever it runs, ends the job with its code
// and nobody hangs (the owner waits for stolen chunks before unwinding).
TEST(TasksExceptions, AbortInsideAChunkEndsTheJob) {
  const JobResult r = run_ranks_capturing(4, [](int rank, int) {
    if (rank == 0) {
      PureTask task([&](chunk_id_t start, chunk_id_t, std::optional<void*>) {
        if (start == 9) pure_abort(W, 9);
      }, 32);
      task.execute();
    }
    EXPECT_PURE_OK(pure_barrier(W));
  });
  EXPECT_EQ(r.code, 9);
  EXPECT_NE(r.err.find("pure_abort: called with error code 9"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[PURE_ERR"), std::string::npos) << "a status is no error class: " << r.err;
}

// ------------------------------------------------------------ helper threads

// One rank and two helpers: every chunk the owner does not run, a helper
// runs, and the owner's chunks wait until one did.
TEST(TasksHelpers, HelpersStealChunks) {
  pure::Config config;
  config.helpers = 2;
  std::atomic<bool> helped{false};
  std::atomic<bool> gave_up{false};
  expect_clean_run(1, [&](int, int) {
    const std::thread::id owner = std::this_thread::get_id();
    for (int round = 0; round < 3; ++round) {
      ChunkCounts counts(40);
      helped.store(false);
      PureTask task([&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
        counts.add(start, end);
        if (std::this_thread::get_id() == owner) {
          if (!wait_for(helped)) gave_up.store(true);
        } else {
          helped.store(true, std::memory_order_release);
        }
      }, 40);
      task.execute();
      EXPECT_TRUE(counts.exactly_once());
    }
    EXPECT_FALSE(gave_up.load());
    const pure::TaskStats helpers = pure::task_stats(PURE_TASK_HELPERS);
    const pure::TaskStats own = pure::task_stats();
    EXPECT_GT(helpers.stolen_chunks, 0);
    EXPECT_EQ(helpers.tasks, 0);
    EXPECT_EQ(own.tasks, 3);
    EXPECT_EQ(own.own_chunks + helpers.stolen_chunks, 120);
  }, config);
}

class TasksHelpersAndRanks : public testing::TestWithParam<int> {};

TEST_P(TasksHelpersAndRanks, ShareTheWork) {
  pure::Config config;
  config.helpers = 2;
  config.chunk_policy = pure::ChunkPolicy::guided;
  expect_clean_run(GetParam(), [](int rank, int) {
    for (int round = 0; round < 6; ++round) {
      ChunkCounts counts(50);
      PureTask task([&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
        random_delay(key_of(rank, round, start));
        counts.add(start, end);
      }, 50);
      task.execute();
      EXPECT_TRUE(counts.exactly_once());
      if (round % 2) {
        EXPECT_PURE_OK(pure_barrier(W));
      }
    }
  }, config);
}

INSTANTIATE_TEST_SUITE_P(Ranks, TasksHelpersAndRanks, pure_testing::rank_sweep({1, 2, 4, 16}),
                         rank_count_name);

// ------------------------------------------------------------------ nesting

// Each outer chunk executes an inner task: it runs serially, on the thread
// of the outer chunk, in one call over all its chunks, and the outer chunk's
// index ranges are unchanged afterwards. Some outer chunks are stolen (the
// owner's wait until one is), so nesting happens on thieves too.
TEST(TasksNested, InnerExecuteRunsSerially) {
  constexpr chunk_id_t kOuter = 12, kInner = 5;
  constexpr std::int64_t n = 1000;
  std::atomic<bool> stolen{false};
  std::atomic<bool> gave_up{false};
  std::atomic<int> inner_runs{0};
  std::atomic<int> problems{0};
  expect_clean_run(4, [&](int rank, int) {
    if (rank == 0) {
      ChunkCounts outer_counts(kOuter);
      PureTask outer([&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
        outer_counts.add(start, end);
        const auto before = pure_idx_range(n, start, end);
        const std::thread::id here = std::this_thread::get_id();
        ChunkCounts inner_counts(kInner);
        PureTask inner([&](chunk_id_t s, chunk_id_t e, std::optional<void*> args) {
          if (std::this_thread::get_id() != here || s != 0 || e != kInner - 1 || args)
            problems.fetch_add(1);
          if (pure_idx_range(n, s, e) != pure_idx_range(n, s, e, kInner)) problems.fetch_add(1);
          inner_counts.add(s, e);
          inner_runs.fetch_add(1);
        }, kInner);
        inner.execute();
        if (!inner_counts.exactly_once()) problems.fetch_add(1);
        if (pure_idx_range(n, start, end) != before) problems.fetch_add(1);
        if (my_rank() == 0) {
          if (!wait_for(stolen)) gave_up.store(true);
        } else {
          stolen.store(true, std::memory_order_release);
        }
      }, kOuter);
      outer.execute();
      EXPECT_TRUE(outer_counts.exactly_once());
    }
    EXPECT_PURE_OK(pure_barrier(W));
  });
  EXPECT_FALSE(gave_up.load());
  EXPECT_EQ(problems.load(), 0);
  EXPECT_EQ(inner_runs.load(), kOuter);
}

// ------------------------------------------------- API forms and small cases

// The form of the paper and of the issue, with execute() and execute(&args).
TEST(TasksApi, PaperSnippetComputesEveryElement) {
  expect_clean_run(4, [](int rank, int) {
    const std::int64_t n = 10007 + rank;
    struct Free {
      void operator()(double* p) const { ::operator delete[](p, std::align_val_t{64}); }
    };
    std::unique_ptr<double[], Free> in(static_cast<double*>(
        ::operator new[](sizeof(double) * static_cast<size_t>(n), std::align_val_t{64})));
    std::unique_ptr<double[], Free> out(static_cast<double*>(
        ::operator new[](sizeof(double) * static_cast<size_t>(n), std::align_val_t{64})));
    for (std::int64_t i = 0; i < n; ++i) {
      in[i] = static_cast<double>(i);
      out[i] = -1;
    }
    auto f = [](double x) { return 2 * x + 1; };
    double offset = 0;
    PureTask t = [&](chunk_id_t start, chunk_id_t end, std::optional<void*> args) {
      auto [lo, hi] = pure_aligned_idx_range<double>(n, start, end);  // inclusive hi
      const double add = args ? *static_cast<double*>(*args) : 0.0;
      for (auto i = lo; i <= hi; ++i) out[i] = f(in[i]) + add;
    };
    t.execute();
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0 * i + 1) << i;
    offset = 0.5;
    t.execute(&offset);
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0 * i + 1.5) << i;
    EXPECT_PURE_OK(pure_barrier(W));
  });
}

TEST(TasksApi, ParallelForVisitsEveryIndexOnce) {
  expect_clean_run(4, [](int, int) {
    for (std::int64_t n : {0, 1, 63, 64, 65, 5000}) {
      const std::int64_t begin = 17;
      ChunkCounts seen(n > 0 ? n : 1);
      pure::parallel_for(begin, begin + n, [&](std::int64_t i) { seen.add(i - begin, i - begin); });
      if (n > 0) {
        EXPECT_TRUE(seen.exactly_once()) << n;
      }
      std::vector<double> v(static_cast<size_t>(n));
      pure::parallel_for<double>(0, n, [&](std::int64_t i) { v[static_cast<size_t>(i)] = 3.0 * i; });
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(v[static_cast<size_t>(i)], 3.0 * i);
    }
    EXPECT_PURE_OK(pure_barrier(W));
  });
}

// A task's chunk count is its own request, capped at PURE_MAX_TASK_CHUNKS;
// 0 asks for the maximum. On one rank without helpers the task runs
// serially, as one call over all chunks.
TEST(TasksApi, ChunkCountsAndTheSerialCase) {
  pure::Config config;
  config.max_task_chunks = 48;
  expect_clean_run(1, [](int, int) {
    for (chunk_id_t requested : {0, 1, 5, 48, 1000}) {
      const chunk_id_t expect = requested == 0 || requested > 48 ? 48 : requested;
      int calls = 0;
      chunk_id_t got_start = -1, got_end = -1;
      PureTask task([&](chunk_id_t s, chunk_id_t e, std::optional<void*>) {
        ++calls;
        got_start = s;
        got_end = e;
        const auto [lo, hi] = pure_idx_range(expect * 10, s, e);
        EXPECT_EQ(lo, 0);
        EXPECT_EQ(hi, expect * 10 - 1);
      }, requested);
      task.execute();
      EXPECT_EQ(calls, 1);
      EXPECT_EQ(got_start, 0);
      EXPECT_EQ(got_end, expect - 1);
    }
    EXPECT_EQ(pure::task_stats().tasks, 5);
  }, config);
}

TEST(TasksApi, CInterface) {
  expect_clean_run(4, [](int rank, int) {
    std::vector<int> in(3001);
    long long expect = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      in[i] = static_cast<int>(i % 97) + rank;
      expect += 3LL * in[i];
    }
    long long total = 0;
    int once = 0;
    EXPECT_PURE_OK(c_task_sum(in.data(), static_cast<int64_t>(in.size()), 3, 16, &total, &once));
    EXPECT_EQ(total, expect);
    EXPECT_TRUE(once);
    EXPECT_EQ(c_idx_range_outside_chunk(), PURE_ERR_OTHER);
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    EXPECT_EQ(c_task_null_function(), PURE_ERR_ARG);
    PURE_Task_stats stats;
    EXPECT_PURE_OK(pure_task_get_stats(rank, &stats));
    EXPECT_EQ(stats.tasks, 1);
    EXPECT_EQ(pure_task_get_stats(99, &stats), PURE_ERR_RANK);
    EXPECT_PURE_OK(pure_barrier(W));
  });
}

TEST(TasksApi, ExecuteOutsideARankThrows) {
  PureTask task([](chunk_id_t, chunk_id_t, std::optional<void*>) {});
  EXPECT_THROW(task.execute(), std::logic_error);
  EXPECT_THROW(pure::task_stats(), std::logic_error);
}

TEST(TasksApi, StatsArePrintedAtExitOnRequest) {
  pure::Config config;
  config.stats = true;
  config.helpers = 1;
  const JobResult r = run_ranks_capturing(2, [](int, int) {
    PureTask task([](chunk_id_t, chunk_id_t, std::optional<void*>) {}, 8);
    task.execute();
  }, config);
  EXPECT_EQ(r.code, 0);
  // One row per rank (the table: job/observers.cpp), whose tasks column says 1.
  for (const char* line : {"pure: stats:     0    0 |", "pure: stats:     1    0 |",
                           "|      1 ", "pure: stats: 1 helper thread(s)"})
    EXPECT_NE(r.err.find(line), std::string::npos) << line << "\n" << r.err;
}

}  // namespace
}  // namespace pure_testing
