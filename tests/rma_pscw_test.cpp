// Generalised active target (post/start/complete/wait) within a process:
// neighbour exchanges over many epochs, every rank exposing itself to all
// others, starts issued before the matching posts, pure_win_test polled to
// completion, PURE_MODE_NOCHECK, and switching between fence and PSCW
// epochs on one window. 2 to 16 ranks on the 2 cores.
#include <cstdint>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class RmaPscw : public testing::TestWithParam<int> {};

PURE_Group group_of(const std::vector<int>& ranks) {
  PURE_Group world, g;
  pure_comm_group(W, &world);
  pure_group_incl(world, static_cast<int>(ranks.size()), ranks.data(), &g);
  pure_group_free(&world);
  return g;
}

// Each rank exposes itself to its left neighbour and accesses its right
// one: the left neighbour's data must be there after wait, epoch after
// epoch, whatever order the calls come in.
TEST_P(RmaPscw, NeighbourExchangeManyEpochs) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kEpochs = 50;
    std::uint64_t cell[2] = {0, 0};
    PURE_Win win;
    ASSERT_EQ(pure_win_create(cell, sizeof cell, 8, PURE_INFO_NULL, W, &win), PURE_SUCCESS);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    PURE_Group to = group_of({right}), from = group_of({left});
    for (int e = 0; e < kEpochs; ++e) {
      cell[1] = key_of(rank, e, 1);  // read by the left neighbour in this epoch
      const std::uint64_t mine = key_of(rank, e);
      std::uint64_t got = 0;
      // Odd epochs: start before post (start must not wait for the post).
      if (e % 2 == 0) {
        EXPECT_PURE_OK(pure_win_post(from, 0, win));
      }
      EXPECT_PURE_OK(pure_win_start(to, 0, win));
      if (e % 2 == 1) {
        EXPECT_PURE_OK(pure_win_post(from, 0, win));
      }
      EXPECT_PURE_OK(pure_put(&mine, 1, PURE_UINT64_T, right, 0, 1, PURE_UINT64_T, win));
      EXPECT_PURE_OK(pure_get(&got, 1, PURE_UINT64_T, right, 1, 1, PURE_UINT64_T, win));
      EXPECT_PURE_OK(pure_win_complete(win));
      EXPECT_EQ(got, key_of(right, e, 1)) << "epoch " << e;
      EXPECT_PURE_OK(pure_win_wait(win));
      ASSERT_EQ(cell[0], key_of(left, e)) << "epoch " << e;
    }
    pure_group_free(&to);
    pure_group_free(&from);
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Every rank exposes itself to every other and accumulates into all of
// them; targets poll with pure_win_test.
TEST_P(RmaPscw, AllToAllWithTest) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kEpochs = 10;
    std::vector<int> others;
    for (int r = 0; r < size; ++r)
      if (r != rank) others.push_back(r);
    PURE_Group g = group_of(others);
    long total = 0;
    PURE_Win win;
    ASSERT_EQ(pure_win_create(&total, sizeof total, sizeof total, PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    long expected = 0;
    for (int e = 0; e < kEpochs; ++e) {
      EXPECT_PURE_OK(pure_win_post(g, 0, win));
      EXPECT_PURE_OK(pure_win_start(g, 0, win));
      const long add = rank + 1 + e;
      for (int t : others)
        EXPECT_PURE_OK(pure_accumulate(&add, 1, PURE_LONG, t, 0, 1, PURE_LONG, PURE_SUM, win));
      EXPECT_PURE_OK(pure_win_complete(win));
      for (int r = 0; r < size; ++r)
        if (r != rank) expected += r + 1 + e;
      int flag = 0;
      PollGuard guard("pure_win_test");
      while (!flag) {
        EXPECT_PURE_OK(pure_win_test(win, &flag));
        guard();
      }
      ASSERT_EQ(total, expected) << "epoch " << e;
    }
    pure_group_free(&g);
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Fence epochs, then PSCW, then passive target, then fence again on one
// window; NOCHECK where the program knows the post came first (a barrier).
TEST_P(RmaPscw, SwitchingEpochKinds) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    int cell = -1;
    PURE_Win win;
    ASSERT_EQ(pure_win_create(&cell, sizeof cell, sizeof cell, PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    EXPECT_PURE_OK(pure_win_fence(0, win));
    EXPECT_PURE_OK(pure_put(&rank, 1, PURE_INT, right, 0, 1, PURE_INT, win));
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
    EXPECT_EQ(cell, left);

    PURE_Group to = group_of({right}), from = group_of({left});
    EXPECT_PURE_OK(pure_win_post(from, PURE_MODE_NOCHECK, win));
    EXPECT_PURE_OK(pure_barrier(W));  // every post is done: start may say NOCHECK
    EXPECT_PURE_OK(pure_win_start(to, PURE_MODE_NOCHECK, win));
    const int twice = 2 * rank;
    EXPECT_PURE_OK(pure_put(&twice, 1, PURE_INT, right, 0, 1, PURE_INT, win));
    EXPECT_PURE_OK(pure_win_complete(win));
    EXPECT_PURE_OK(pure_win_wait(win));
    EXPECT_EQ(cell, 2 * left);
    pure_group_free(&to);
    pure_group_free(&from);
    EXPECT_PURE_OK(pure_barrier(W));  // every rank read its cell before the next write

    EXPECT_PURE_OK(pure_win_lock(PURE_LOCK_EXCLUSIVE, right, 0, win));
    const int thrice = 3 * rank;
    EXPECT_PURE_OK(pure_put(&thrice, 1, PURE_INT, right, 0, 1, PURE_INT, win));
    EXPECT_PURE_OK(pure_win_unlock(right, win));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_EQ(cell, 3 * left);

    int got = -1;
    EXPECT_PURE_OK(pure_win_fence(0, win));
    EXPECT_PURE_OK(pure_get(&got, 1, PURE_INT, right, 0, 1, PURE_INT, win));
    EXPECT_PURE_OK(pure_win_fence(0, win));
    EXPECT_EQ(got, 3 * rank);
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, RmaPscw, kRankCounts, rank_count_name);

}  // namespace
}  // namespace pure_testing
