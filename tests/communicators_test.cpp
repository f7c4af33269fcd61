// Communicators and groups: dup, split (with PURE_UNDEFINED), create from a
// group, compare, free (a freed handle is refused with a clear error), names,
// group algebra, separation of point-to-point traffic between communicators,
// and collectives running at the same time on disjoint communicators.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "collectives_harness.h"
#include "pure/pure.h"

using coll_test::run_ranks;
using coll_test::run_ranks_capturing;

namespace {

class Communicators : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, Communicators, pure_testing::rank_sweep({2, 3, 4, 8, 16}),
                         coll_test::rank_count_name);

TEST_P(Communicators, DupIsCongruentAndSeparatesTraffic) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    PURE_Comm dup = PURE_COMM_NULL;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &dup));
    int r = -1, s = -1, cmp = -1;
    EXPECT_PURE_OK(pure_comm_rank(dup, &r));
    EXPECT_PURE_OK(pure_comm_size(dup, &s));
    EXPECT_EQ(r, rank);
    EXPECT_EQ(s, size);
    EXPECT_PURE_OK(pure_comm_compare(PURE_COMM_WORLD, dup, &cmp));
    EXPECT_EQ(cmp, PURE_CONGRUENT);
    EXPECT_PURE_OK(pure_comm_compare(dup, dup, &cmp));
    EXPECT_EQ(cmp, PURE_IDENT);
    // Same source, tag and order of sends on two communicators: each
    // receive must match only its own communicator's message.
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int a = 100 + rank, b = 200 + rank, got_b = -1, got_a = -1;
    EXPECT_PURE_OK(pure_send(&a, 1, PURE_INT, next, 7, PURE_COMM_WORLD));
    EXPECT_PURE_OK(pure_send(&b, 1, PURE_INT, next, 7, dup));
    EXPECT_PURE_OK(pure_recv(&got_b, 1, PURE_INT, prev, 7, dup, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_recv(&got_a, 1, PURE_INT, prev, 7, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
    EXPECT_EQ(got_a, 100 + prev);
    EXPECT_EQ(got_b, 200 + prev);
    // Collectives on both, interleaved.
    for (int k = 0; k < 50; ++k) {
      int x = rank, sum_w = -1, sum_d = -1;
      EXPECT_PURE_OK(pure_allreduce(&x, &sum_d, 1, PURE_INT, PURE_SUM, dup));
      EXPECT_PURE_OK(pure_allreduce(&x, &sum_w, 1, PURE_INT, PURE_SUM, PURE_COMM_WORLD));
      EXPECT_EQ(sum_d, size * (size - 1) / 2);
      EXPECT_EQ(sum_w, size * (size - 1) / 2);
    }
    EXPECT_PURE_OK(pure_comm_free(&dup));
    EXPECT_EQ(dup, PURE_COMM_NULL);
  }));
}

TEST_P(Communicators, SplitByColourAndKey) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    // Colour by parity; rank 0 opts out; keys reverse the order.
    const int color = rank == 0 ? PURE_UNDEFINED : rank % 2;
    PURE_Comm sub = PURE_COMM_WORLD;
    EXPECT_PURE_OK(pure_comm_split(PURE_COMM_WORLD, color, -rank, &sub));
    if (rank == 0) {
      EXPECT_EQ(sub, PURE_COMM_NULL);
      return;
    }
    std::vector<int> members;
    for (int r = size - 1; r >= 1; --r)
      if (r % 2 == color) members.push_back(r);
    int r = -1, s = -1;
    EXPECT_PURE_OK(pure_comm_rank(sub, &r));
    EXPECT_PURE_OK(pure_comm_size(sub, &s));
    ASSERT_EQ(s, static_cast<int>(members.size()));
    EXPECT_EQ(members[static_cast<std::size_t>(r)], rank);
    // Gather the world ranks in sub-communicator order.
    std::vector<int> got(members.size(), -1);
    EXPECT_PURE_OK(pure_allgather(&rank, 1, PURE_INT, got.data(), 1, PURE_INT, sub));
    EXPECT_EQ(got, members);
    int cmp = -1;
    EXPECT_PURE_OK(pure_comm_compare(sub, PURE_COMM_WORLD, &cmp));
    EXPECT_EQ(cmp, PURE_UNEQUAL);
    // A split of the split.
    PURE_Comm half = PURE_COMM_NULL;
    EXPECT_PURE_OK(pure_comm_split(sub, r < s / 2, r, &half));
    int hs = -1, total = -1;
    EXPECT_PURE_OK(pure_comm_size(half, &hs));
    EXPECT_PURE_OK(pure_allreduce(&rank, &total, 1, PURE_INT, PURE_MAX, half));
    EXPECT_EQ(hs, r < s / 2 ? s / 2 : s - s / 2);
    EXPECT_PURE_OK(pure_comm_free(&half));
    EXPECT_PURE_OK(pure_comm_free(&sub));
  }));
}

// Different ranks in different communicators at the same time, each running
// a long mixed stream of collectives.
TEST_P(Communicators, ConcurrentCollectivesOnDisjointCommunicators) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    const int groups = std::max(1, size / 2 > 3 ? 3 : size / 2);
    PURE_Comm sub;
    EXPECT_PURE_OK(pure_comm_split(PURE_COMM_WORLD, rank % groups, rank, &sub));
    int r = -1, s = -1;
    EXPECT_PURE_OK(pure_comm_rank(sub, &r));
    EXPECT_PURE_OK(pure_comm_size(sub, &s));
    int expect_sum = 0;
    for (int w = rank % groups; w < size; w += groups) expect_sum += w;
    for (int k = 0; k < 300; ++k) {
      int sum = -1;
      EXPECT_PURE_OK(pure_allreduce(&rank, &sum, 1, PURE_INT, PURE_SUM, sub));
      ASSERT_EQ(sum, expect_sum) << "round " << k;
      std::vector<double> big(700, rank + k), bsum(700);
      if (k % 10 == 0) {
        EXPECT_PURE_OK(pure_allreduce(big.data(), bsum.data(), 700, PURE_DOUBLE, PURE_SUM, sub));
        ASSERT_EQ(bsum[699], expect_sum + static_cast<double>(k) * s);
      }
      int v = rank == (rank % groups) + groups * (k % s) ? k : -1;
      EXPECT_PURE_OK(pure_bcast(&v, 1, PURE_INT, k % s, sub));
      ASSERT_EQ(v, k);
    }
    EXPECT_PURE_OK(pure_comm_free(&sub));
  }));
}

TEST_P(Communicators, CreateFromGroup) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    PURE_Group world, evens, odds;
    EXPECT_PURE_OK(pure_comm_group(PURE_COMM_WORLD, &world));
    std::vector<int> even_ranks;
    for (int r = size - 2 + size % 2; r >= 0; r -= 2) even_ranks.push_back(r);  // reversed
    EXPECT_PURE_OK(pure_group_incl(world, static_cast<int>(even_ranks.size()), even_ranks.data(), &evens));
    EXPECT_PURE_OK(pure_group_excl(world, static_cast<int>(even_ranks.size()), even_ranks.data(), &odds));
    int gs = -1, gr = -2;
    EXPECT_PURE_OK(pure_group_size(evens, &gs));
    EXPECT_EQ(gs, static_cast<int>(even_ranks.size()));
    EXPECT_PURE_OK(pure_group_rank(evens, &gr));
    if (rank % 2 == 0) {
      EXPECT_EQ(even_ranks[static_cast<std::size_t>(gr)], rank);
    } else {
      EXPECT_EQ(gr, PURE_UNDEFINED);
    }
    PURE_Comm ce;
    EXPECT_PURE_OK(pure_comm_create(PURE_COMM_WORLD, evens, &ce));
    if (rank % 2 != 0) {
      EXPECT_EQ(ce, PURE_COMM_NULL);
    } else {
      int r = -1;
      EXPECT_PURE_OK(pure_comm_rank(ce, &r));
      EXPECT_EQ(r, gr);
      std::vector<int> got(even_ranks.size(), -1);
      EXPECT_PURE_OK(pure_allgather(&rank, 1, PURE_INT, got.data(), 1, PURE_INT, ce));
      EXPECT_EQ(got, even_ranks);
      PURE_Group cg;
      int cmp = -1;
      EXPECT_PURE_OK(pure_comm_group(ce, &cg));
      EXPECT_PURE_OK(pure_group_compare(cg, evens, &cmp));
      EXPECT_EQ(cmp, PURE_IDENT);
      EXPECT_PURE_OK(pure_group_free(&cg));
      EXPECT_PURE_OK(pure_comm_free(&ce));
    }
    // Disjoint groups in one call (MPI 2.2): evens pass theirs, odds theirs,
    // and each gets a communicator of its own group, in the group's order.
    PURE_Comm mine_comm;
    EXPECT_PURE_OK(pure_comm_create(PURE_COMM_WORLD, rank % 2 == 0 ? evens : odds, &mine_comm));
    ASSERT_NE(mine_comm, PURE_COMM_NULL);
    {
      PURE_Group own = rank % 2 == 0 ? evens : odds, cg;
      int own_size = -1, own_rank = -2, cs = -3, cr = -4, cmp = -1;
      EXPECT_PURE_OK(pure_group_size(own, &own_size));
      EXPECT_PURE_OK(pure_group_rank(own, &own_rank));
      EXPECT_PURE_OK(pure_comm_size(mine_comm, &cs));
      EXPECT_PURE_OK(pure_comm_rank(mine_comm, &cr));
      EXPECT_EQ(cs, own_size);
      EXPECT_EQ(cr, own_rank);
      EXPECT_PURE_OK(pure_comm_group(mine_comm, &cg));
      EXPECT_PURE_OK(pure_group_compare(cg, own, &cmp));
      EXPECT_EQ(cmp, PURE_IDENT);
      EXPECT_PURE_OK(pure_group_free(&cg));
      int sum = 0;
      EXPECT_PURE_OK(pure_allreduce(&rank, &sum, 1, PURE_INT, PURE_SUM, mine_comm));
      int expect = 0;
      for (int r = rank % 2; r < size; r += 2) expect += r;
      EXPECT_EQ(sum, expect) << "only the rank's own group took part";
      EXPECT_PURE_OK(pure_comm_free(&mine_comm));
    }
    // translate: world ranks 0..size-1 into the odd group
    std::vector<int> in(static_cast<std::size_t>(size) + 1), out(in.size(), -5);
    for (int r = 0; r < size; ++r) in[static_cast<std::size_t>(r)] = r;
    in[static_cast<std::size_t>(size)] = PURE_PROC_NULL;
    EXPECT_PURE_OK(pure_group_translate_ranks(world, size + 1, in.data(), odds, out.data()));
    for (int r = 0; r < size; ++r)
      EXPECT_EQ(out[static_cast<std::size_t>(r)], r % 2 ? r / 2 : PURE_UNDEFINED) << r;
    EXPECT_EQ(out[static_cast<std::size_t>(size)], PURE_PROC_NULL);
    int cmp = -1;
    EXPECT_PURE_OK(pure_group_compare(world, odds, &cmp));
    EXPECT_EQ(cmp, PURE_UNEQUAL);
    PURE_Group again;
    std::vector<int> all(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) all[static_cast<std::size_t>(r)] = size - 1 - r;
    EXPECT_PURE_OK(pure_group_incl(world, size, all.data(), &again));
    EXPECT_PURE_OK(pure_group_compare(world, again, &cmp));
    EXPECT_EQ(cmp, size == 1 ? PURE_IDENT : PURE_SIMILAR);
    for (PURE_Group* g : {&world, &evens, &odds, &again}) {
      EXPECT_PURE_OK(pure_group_free(g));
      EXPECT_EQ(*g, PURE_GROUP_NULL);
    }
  }));
}

TEST_P(Communicators, ManyDupFreeCycles) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    PURE_Comm keep;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &keep));
    for (int k = 0; k < 300; ++k) {
      PURE_Comm c;
      EXPECT_PURE_OK(pure_comm_split(k % 2 ? keep : PURE_COMM_WORLD, rank % 2, rank, &c));
      int x = 1, n = 0;
      EXPECT_PURE_OK(pure_allreduce(&x, &n, 1, PURE_INT, PURE_SUM, c));
      ASSERT_EQ(n, (size + 1 - rank % 2) / 2) << k;
      EXPECT_PURE_OK(pure_comm_free(&c));
    }
    EXPECT_PURE_OK(pure_comm_free(&keep));
  }));
}

TEST(CommunicatorNames, SetAndGet) {
  EXPECT_EQ(0, run_ranks(2, [](int, int) {
    char name[PURE_MAX_OBJECT_NAME];
    int len = -1;
    EXPECT_PURE_OK(pure_comm_get_name(PURE_COMM_WORLD, name, &len));
    EXPECT_STREQ(name, "PURE_COMM_WORLD");
    PURE_Comm d;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &d));
    EXPECT_PURE_OK(pure_comm_set_name(d, "solver"));
    EXPECT_PURE_OK(pure_comm_get_name(d, name, &len));
    EXPECT_STREQ(name, "solver");
    EXPECT_EQ(len, 6);
    EXPECT_PURE_OK(pure_comm_free(&d));
  }));
}

TEST(CommunicatorErrors, FreedHandleIsRefused) {
  EXPECT_EQ(0, run_ranks(3, [](int, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    PURE_Comm d, copy;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &d));
    copy = d;
    EXPECT_PURE_OK(pure_comm_free(&d));
    int x = 0;
    EXPECT_EQ(pure_barrier(copy), PURE_ERR_COMM);
    EXPECT_EQ(pure_allreduce(&x, &x, 1, PURE_INT, PURE_SUM, copy), PURE_ERR_COMM);
    EXPECT_EQ(pure_comm_free(&copy), PURE_ERR_COMM);
    PURE_Comm world = PURE_COMM_WORLD;
    EXPECT_EQ(pure_comm_free(&world), PURE_ERR_COMM);
    EXPECT_EQ(pure_comm_split(PURE_COMM_WORLD, -5, 0, &d), PURE_ERR_ARG);
    PURE_Group g, bad;
    EXPECT_PURE_OK(pure_comm_group(PURE_COMM_WORLD, &g));
    int ranks[2] = {0, 3};
    EXPECT_EQ(pure_group_incl(g, 2, ranks, &bad), PURE_ERR_RANK);
    PURE_Group stale = g;
    EXPECT_PURE_OK(pure_group_free(&g));
    int sz;
    EXPECT_EQ(pure_group_size(stale, &sz), PURE_ERR_GROUP);
  }));
}

TEST(CommunicatorErrors, FreedCommunicatorMessage) {
  auto r = run_ranks_capturing(2, [](int, int) {
    PURE_Comm d, copy;
    pure_comm_dup(PURE_COMM_WORLD, &d);
    copy = d;
    pure_comm_free(&d);
    pure_barrier(copy);
  });
  EXPECT_EQ(r.code, PURE_ERR_COMM);
  EXPECT_NE(r.err.find("pure_barrier: communicator handle 0x"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("was freed"), std::string::npos) << r.err;
}

}  // namespace
