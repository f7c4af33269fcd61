// One-sided atomics within a process: accumulates from every rank at once
// on the same elements lose nothing (sums of integers and doubles, maxima,
// bitwise ops, MINLOC pairs, long doubles that no instruction changes
// atomically, derived layouts), fetch-and-op hands out every ticket exactly
// once, compare-and-swap makes a working mutex, get-accumulate swaps and
// reads atomically, and exclusive locks protect read-modify-write through
// get and put. 2 to 16 ranks on the 2 cores.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class RmaAtomics : public testing::TestWithParam<int> {};

// Every rank adds into every element of rank 0's array, many times, in
// one passive epoch, then the owner checks the totals.
TEST_P(RmaAtomics, ConcurrentAccumulatesLoseNothing) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kElems = 8;
    constexpr int kRounds = 200;
    struct Mem {
      std::int64_t sum[kElems];
      double dsum[kElems];
      std::int32_t max[kElems];
      std::uint16_t bor[kElems];
      long double ld[kElems];
      std::int8_t small[kElems];
    };
    Mem mem{};
    PURE_Win win;
    ASSERT_EQ(pure_win_create(&mem, sizeof mem, 1, PURE_INFO_NULL, W, &win), PURE_SUCCESS);
    EXPECT_PURE_OK(pure_barrier(W));
    std::vector<std::int64_t> ones(kElems, 1);
    std::vector<double> halves(kElems, 0.5);
    std::vector<long double> quarters(kElems, 0.25L);
    std::vector<std::int8_t> small_ones(kElems, 1);
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    for (int round = 0; round < kRounds; ++round) {
      EXPECT_PURE_OK(pure_accumulate(ones.data(), kElems, PURE_INT64_T, 0, offsetof(Mem, sum),
                                     kElems, PURE_INT64_T, PURE_SUM, win));
      EXPECT_PURE_OK(pure_accumulate(halves.data(), kElems, PURE_DOUBLE, 0, offsetof(Mem, dsum),
                                     kElems, PURE_DOUBLE, PURE_SUM, win));
      std::int32_t candidate[kElems];
      for (int i = 0; i < kElems; ++i) candidate[i] = rank * kRounds + round + i;
      EXPECT_PURE_OK(pure_accumulate(candidate, kElems, PURE_INT32_T, 0, offsetof(Mem, max),
                                     kElems, PURE_INT32_T, PURE_MAX, win));
      std::uint16_t bit[kElems];
      for (int i = 0; i < kElems; ++i) bit[i] = static_cast<std::uint16_t>(1u << ((rank + i) % 16));
      EXPECT_PURE_OK(pure_accumulate(bit, kElems, PURE_UINT16_T, 0, offsetof(Mem, bor), kElems,
                                     PURE_UINT16_T, PURE_BOR, win));
      EXPECT_PURE_OK(pure_accumulate(quarters.data(), kElems, PURE_LONG_DOUBLE, 0,
                                     offsetof(Mem, ld), kElems, PURE_LONG_DOUBLE, PURE_SUM, win));
      if (round < 100) {
        EXPECT_PURE_OK(pure_accumulate(small_ones.data(), kElems, PURE_INT8_T, 0,
                                       offsetof(Mem, small), kElems, PURE_INT8_T, PURE_SUM, win));
      }
    }
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    EXPECT_PURE_OK(pure_barrier(W));
    if (rank == 0) {
      for (int i = 0; i < kElems; ++i) {
        EXPECT_EQ(mem.sum[i], static_cast<std::int64_t>(size) * kRounds) << "element " << i;
        EXPECT_EQ(mem.dsum[i], 0.5 * size * kRounds) << "element " << i;
        EXPECT_EQ(mem.max[i], (size - 1) * kRounds + kRounds - 1 + i) << "element " << i;
        std::uint16_t bits = 0;
        for (int r = 0; r < size; ++r) bits = static_cast<std::uint16_t>(bits | (1u << ((r + i) % 16)));
        EXPECT_EQ(mem.bor[i], bits) << "element " << i;
        EXPECT_EQ(mem.ld[i], 0.25L * size * kRounds) << "element " << i;
        EXPECT_EQ(mem.small[i], static_cast<std::int8_t>(size * 100)) << "element " << i;
      }
    }
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// MINLOC on pairs, through fence epochs: the smallest value wins, ties go
// to the smaller index. MPI_SHORT_INT has padding inside its elements.
TEST_P(RmaAtomics, MinlocPairsUnderFence) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    struct DoubleInt {
      double value;
      int index;
    };
    struct ShortInt {
      short value;
      int index;
    };
    DoubleInt best[4];
    ShortInt small[4];
    for (int i = 0; i < 4; ++i) {
      best[i] = {1e9, -1};
      small[i] = {-30000, -1};
    }
    PURE_Win wd, ws;
    ASSERT_EQ(pure_win_create(best, sizeof best, sizeof(DoubleInt), PURE_INFO_NULL, W, &wd),
              PURE_SUCCESS);
    ASSERT_EQ(pure_win_create(small, sizeof small, sizeof(ShortInt), PURE_INFO_NULL, W, &ws),
              PURE_SUCCESS);
    EXPECT_PURE_OK(pure_win_fence(0, wd));
    EXPECT_PURE_OK(pure_win_fence(0, ws));
    DoubleInt mine[4];
    ShortInt mine_s[4];
    for (int i = 0; i < 4; ++i) {
      // Values repeat every three ranks: ties between ranks.
      mine[i] = {static_cast<double>((rank % 3) + i), rank};
      mine_s[i] = {static_cast<short>(10 - rank % 3 - i), rank};
    }
    for (int t = 0; t < size; ++t) {
      EXPECT_PURE_OK(pure_accumulate(mine, 4, PURE_DOUBLE_INT, t, 0, 4, PURE_DOUBLE_INT,
                                     PURE_MINLOC, wd));
      EXPECT_PURE_OK(pure_accumulate(mine_s, 4, PURE_SHORT_INT, t, 0, 4, PURE_SHORT_INT,
                                     PURE_MAXLOC, ws));
    }
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, wd));
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, ws));
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(best[i].value, static_cast<double>(i));
      EXPECT_EQ(best[i].index, 0);
      EXPECT_EQ(small[i].value, static_cast<short>(10 - i));
      EXPECT_EQ(small[i].index, 0);
    }
    EXPECT_PURE_OK(pure_win_free(&wd));
    EXPECT_PURE_OK(pure_win_free(&ws));
  });
}

// Fetch-and-op on one counter from every rank: every ticket is handed out
// exactly once.
TEST_P(RmaAtomics, FetchAndOpTicketsAreUnique) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kTickets = 300;
    long counter = 0;
    PURE_Win win;
    ASSERT_EQ(pure_win_create(&counter, sizeof counter, sizeof counter, PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    std::vector<long> mine(kTickets);
    const long one = 1;
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    for (int i = 0; i < kTickets; ++i) {
      EXPECT_PURE_OK(pure_fetch_and_op(&one, &mine[i], PURE_LONG, size - 1, 0, PURE_SUM, win));
      EXPECT_PURE_OK(pure_win_flush(size - 1, win));
    }
    long now = -1;
    EXPECT_PURE_OK(pure_fetch_and_op(nullptr, &now, PURE_LONG, size - 1, 0, PURE_NO_OP, win));
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    EXPECT_GE(now, kTickets);
    std::vector<long> all(static_cast<std::size_t>(size) * kTickets);
    EXPECT_PURE_OK(pure_allgather(mine.data(), kTickets, PURE_LONG, all.data(), kTickets,
                                  PURE_LONG, W));
    std::sort(all.begin(), all.end());
    for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], static_cast<long>(i));
    EXPECT_PURE_OK(pure_barrier(W));
    if (rank == size - 1) {
      EXPECT_EQ(counter, static_cast<long>(size) * kTickets);
    }
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// A spin lock made of compare-and-swap on rank 0's word guards a counter
// that is read and written with plain get and put.
TEST_P(RmaAtomics, CompareAndSwapMutex) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kRounds = 50;
    struct Mem {
      int lock;
      int counter;
    };
    Mem mem{0, 0};
    PURE_Win win;
    ASSERT_EQ(pure_win_create(&mem, sizeof mem, sizeof(int), PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    const int unlocked = 0, locked = rank + 1;
    for (int round = 0; round < kRounds; ++round) {
      int seen = -1;
      do {
        EXPECT_PURE_OK(pure_compare_and_swap(&locked, &unlocked, &seen, PURE_INT, 0, 0, win));
        EXPECT_PURE_OK(pure_win_flush(0, win));
      } while (seen != 0);
      int value = -1;
      EXPECT_PURE_OK(pure_get(&value, 1, PURE_INT, 0, 1, 1, PURE_INT, win));
      EXPECT_PURE_OK(pure_win_flush(0, win));
      ++value;
      EXPECT_PURE_OK(pure_put(&value, 1, PURE_INT, 0, 1, 1, PURE_INT, win));
      EXPECT_PURE_OK(pure_win_flush(0, win));
      int mine = -1;
      EXPECT_PURE_OK(pure_compare_and_swap(&unlocked, &locked, &mine, PURE_INT, 0, 0, win));
      EXPECT_PURE_OK(pure_win_flush(0, win));
      EXPECT_EQ(mine, locked);
    }
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    EXPECT_PURE_OK(pure_barrier(W));
    if (rank == 0) {
      EXPECT_EQ(mem.counter, size * kRounds);
    }
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Exclusive locks serialise read-modify-write through get and put; shared
// locks let readers in together.
TEST_P(RmaAtomics, ExclusiveLocksSerialise) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kRounds = 40;
    std::int64_t cell[2] = {0, 0};
    PURE_Win win;
    ASSERT_EQ(pure_win_create(cell, sizeof cell, 8, PURE_INFO_NULL, W, &win), PURE_SUCCESS);
    const int target = size / 2;
    for (int round = 0; round < kRounds; ++round) {
      EXPECT_PURE_OK(pure_win_lock(PURE_LOCK_EXCLUSIVE, target, 0, win));
      std::int64_t v[2];
      EXPECT_PURE_OK(pure_get(v, 2, PURE_INT64_T, target, 0, 2, PURE_INT64_T, win));
      EXPECT_PURE_OK(pure_win_flush(target, win));
      EXPECT_EQ(v[0], v[1]) << "two writers were inside the lock at once";
      v[0] += 1;
      v[1] += 1;
      EXPECT_PURE_OK(pure_put(v, 2, PURE_INT64_T, target, 0, 2, PURE_INT64_T, win));
      EXPECT_PURE_OK(pure_win_unlock(target, win));
      EXPECT_PURE_OK(pure_win_lock(PURE_LOCK_SHARED, target, 0, win));
      EXPECT_PURE_OK(pure_get(v, 2, PURE_INT64_T, target, 0, 2, PURE_INT64_T, win));
      EXPECT_PURE_OK(pure_win_unlock(target, win));
      EXPECT_EQ(v[0], v[1]);
    }
    EXPECT_PURE_OK(pure_barrier(W));
    if (rank == target) {
      EXPECT_EQ(cell[0], static_cast<std::int64_t>(size) * kRounds);
      EXPECT_EQ(cell[1], static_cast<std::int64_t>(size) * kRounds);
    }
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Get-accumulate: REPLACE swaps values in atomically, element by element
// (every value put into an element comes out of it exactly once, or is
// left in it), NO_OP reads atomically; derived layouts on all three sides.
TEST_P(RmaAtomics, GetAccumulateSwapsAndReads) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kSwaps = 100;
    int slot[3] = {-1, -1, -1};
    PURE_Win win;
    ASSERT_EQ(pure_win_create(slot, sizeof slot, sizeof(int), PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    PURE_Datatype spread;  // elements 0 and 2 of three
    ASSERT_EQ(pure_type_vector(2, 1, 2, PURE_INT, &spread), PURE_SUCCESS);
    pure_type_commit(&spread);
    std::vector<int> out0, out2;
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    for (int i = 0; i < kSwaps; ++i) {
      const int mine[2] = {rank * kSwaps + i, -(rank * kSwaps + i) - 2};
      int old[3] = {0, 0, 0};
      EXPECT_PURE_OK(pure_get_accumulate(mine, 2, PURE_INT, old, 1, spread, 0, 0, 1, spread,
                                         PURE_REPLACE, win));
      EXPECT_PURE_OK(pure_win_flush(0, win));
      out0.push_back(old[0]);
      out2.push_back(old[2]);
    }
    int now[2] = {0, 0};
    EXPECT_PURE_OK(pure_get_accumulate(nullptr, 0, PURE_INT, now, 2, PURE_INT, 0, 0, 1, spread,
                                       PURE_NO_OP, win));
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    EXPECT_PURE_OK(pure_barrier(W));
    const std::size_t n = static_cast<std::size_t>(size) * kSwaps;
    std::vector<int> all0(n), all2(n);
    EXPECT_PURE_OK(pure_gather(out0.data(), kSwaps, PURE_INT, all0.data(), kSwaps, PURE_INT, 0, W));
    EXPECT_PURE_OK(pure_gather(out2.data(), kSwaps, PURE_INT, all2.data(), kSwaps, PURE_INT, 0, W));
    if (rank == 0) {
      // What came out of an element, plus what is left in it, is its first
      // value and every value put into it.
      all0.push_back(slot[0]);
      all2.push_back(slot[2]);
      std::sort(all0.begin(), all0.end());
      std::sort(all2.begin(), all2.end());
      EXPECT_EQ(all0[0], -1);
      EXPECT_EQ(all2.back(), -1);
      for (std::size_t i = 1; i <= n; ++i) {
        ASSERT_EQ(all0[i], static_cast<int>(i - 1));
        ASSERT_EQ(all2[n - i], -static_cast<int>(i - 1) - 2);
      }
      EXPECT_EQ(slot[1], -1) << "the gap between the elements was written";
    }
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_win_free(&win));
    pure_type_free(&spread);
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, RmaAtomics, kRankCounts, rank_count_name);

}  // namespace
}  // namespace pure_testing
