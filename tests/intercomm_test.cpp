// Intercommunicators: creation from two groups (even and odd world ranks,
// and uneven ones), their queries, point-to-point between the groups
// (ranks name the other group; wildcards report the sender's rank in its
// group), every collective MPI defines on them with PURE_ROOT and
// PURE_PROC_NULL roots in either group, and merge, dup, split, create,
// compare and free. Every value received is checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "harness.h"
#include "intercomm_pair.h"

namespace pure_testing {
namespace {

class Intercomms : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, Intercomms, pure_testing::rank_sweep({2, 3, 4, 8, 16}), rank_count_name);

TEST_P(Intercomms, CreateAndQuery) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    for (int low : {-1, 1, size - 1}) {
      if (low == 0 || low == size) continue;
      Pair p = make_pair_of(rank, size, low);
      int flag = 0, lsize = -1, rsize = -1, lrank = -1;
      EXPECT_PURE_OK(pure_comm_test_inter(p.inter, &flag));
      EXPECT_EQ(flag, 1);
      EXPECT_PURE_OK(pure_comm_test_inter(p.local, &flag));
      EXPECT_EQ(flag, 0);
      EXPECT_PURE_OK(pure_comm_size(p.inter, &lsize));
      EXPECT_PURE_OK(pure_comm_rank(p.inter, &lrank));
      EXPECT_PURE_OK(pure_comm_remote_size(p.inter, &rsize));
      EXPECT_EQ(lsize, static_cast<int>(p.mine().size()));
      EXPECT_EQ(rsize, static_cast<int>(p.theirs().size()));
      EXPECT_EQ(lrank, my_index(p.mine(), rank));
      // The remote group, in world ranks.
      PURE_Group remote, world;
      EXPECT_PURE_OK(pure_comm_remote_group(p.inter, &remote));
      EXPECT_PURE_OK(pure_comm_group(PURE_COMM_WORLD, &world));
      std::vector<int> ranks(static_cast<std::size_t>(rsize)), worlds(ranks.size());
      std::iota(ranks.begin(), ranks.end(), 0);
      EXPECT_PURE_OK(pure_group_translate_ranks(remote, rsize, ranks.data(), world, worlds.data()));
      EXPECT_EQ(worlds, p.theirs());
      PURE_Group local_group;
      EXPECT_PURE_OK(pure_comm_group(p.inter, &local_group));
      int cmp = -1;
      PURE_Group expected_local;
      EXPECT_PURE_OK(pure_comm_group(p.local, &expected_local));
      EXPECT_PURE_OK(pure_group_compare(local_group, expected_local, &cmp));
      EXPECT_EQ(cmp, PURE_IDENT);
      for (PURE_Group* g : {&remote, &world, &local_group, &expected_local})
        EXPECT_PURE_OK(pure_group_free(g));
      // Remote size of an intracommunicator is an error.
      EXPECT_PURE_OK(pure_comm_set_errhandler(p.local, PURE_ERRORS_RETURN));
      EXPECT_EQ(pure_comm_remote_size(p.local, &rsize), PURE_ERR_COMM);
      free_pair(p);
    }
  });
}

TEST_P(Intercomms, PointToPointNamesTheOtherGroup) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    Pair p = make_pair_of(rank, size);
    const int me = my_index(p.mine(), rank);
    const int n = static_cast<int>(p.theirs().size());
    // Every member sends to every member of the other group, small and
    // large (rendezvous) messages, and receives from each by rank.
    for (std::size_t bytes : {std::size_t{8}, std::size_t{100000}}) {
      std::vector<std::vector<char>> out, in(static_cast<std::size_t>(n), std::vector<char>(bytes));
      std::vector<PURE_Request> reqs;
      for (int j = 0; j < n; ++j) {
        out.push_back(make_payload(bytes, key_of(rank, p.theirs()[static_cast<std::size_t>(j)], bytes)));
        PURE_Request r;
        EXPECT_PURE_OK(pure_isend(out.back().data(), static_cast<int>(bytes), PURE_BYTE, j, 5,
                                  p.inter, &r));
        reqs.push_back(r);
      }
      for (int i = 0; i < n; ++i) {
        PURE_Status st;
        EXPECT_PURE_OK(pure_recv(in[static_cast<std::size_t>(i)].data(), static_cast<int>(bytes),
                                 PURE_BYTE, i, 5, p.inter, &st));
        EXPECT_EQ(st.MPI_SOURCE, i);
        EXPECT_TRUE(payload_ok(in[static_cast<std::size_t>(i)].data(), bytes,
                               key_of(p.theirs()[static_cast<std::size_t>(i)], rank, bytes)));
      }
      EXPECT_PURE_OK(pure_waitall(static_cast<int>(reqs.size()), reqs.data(), PURE_STATUSES_IGNORE));
    }
    // Wildcards report the sender's rank in its own group.
    if (!p.in_a || me == 0) {
      const int to = 0;
      int value = rank;
      EXPECT_PURE_OK(pure_send(&value, 1, PURE_INT, to, 9, p.inter));
    }
    if (p.in_a && me == 0) {
      std::vector<bool> seen(static_cast<std::size_t>(n), false);
      for (int k = 0; k < n; ++k) {
        int value = -1;
        PURE_Status st;
        EXPECT_PURE_OK(pure_probe(PURE_ANY_SOURCE, 9, p.inter, &st));
        EXPECT_PURE_OK(pure_recv(&value, 1, PURE_INT, PURE_ANY_SOURCE, PURE_ANY_TAG, p.inter, &st));
        ASSERT_GE(st.MPI_SOURCE, 0);
        ASSERT_LT(st.MPI_SOURCE, n);
        EXPECT_EQ(value, p.theirs()[static_cast<std::size_t>(st.MPI_SOURCE)]);
        seen[static_cast<std::size_t>(st.MPI_SOURCE)] = true;
      }
      EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](bool s) { return s; }));
    }
    if (!p.in_a && me == 0) {
      int value = -1;
      PURE_Status st;
      EXPECT_PURE_OK(pure_recv(&value, 1, PURE_INT, 0, 9, p.inter, &st));
      EXPECT_EQ(st.MPI_SOURCE, 0);
      EXPECT_EQ(value, p.a[0]);
    }
    // A rank outside the other group is refused.
    EXPECT_PURE_OK(pure_comm_set_errhandler(p.inter, PURE_ERRORS_RETURN));
    int x = 0;
    EXPECT_EQ(pure_send(&x, 1, PURE_INT, n, 0, p.inter), PURE_ERR_RANK);
    free_pair(p);
  });
}

// One collective in every direction: `root_group_a` says which group holds
// the root; `root_rank` is its rank there.
struct Roots {
  bool in_root_group;
  bool is_root;
  int arg;  // what this rank passes as root
};
Roots roots(const Pair& p, int rank, bool root_group_a, int root_rank) {
  const bool in_root_group = p.in_a == root_group_a;
  const bool is_root = in_root_group && my_index(p.mine(), rank) == root_rank;
  return {in_root_group, is_root,
          in_root_group ? (is_root ? PURE_ROOT : PURE_PROC_NULL) : root_rank};
}

TEST_P(Intercomms, RootedCollectives) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    Pair p = make_pair_of(rank, size);
    const int me = my_index(p.mine(), rank);
    for (bool root_group_a : {true, false}) {
      const std::vector<int>& root_group = root_group_a ? p.a : p.b;
      const std::vector<int>& other = root_group_a ? p.b : p.a;
      const int root_rank = static_cast<int>(root_group.size()) - 1;
      const Roots r = roots(p, rank, root_group_a, root_rank);
      const int n_other = static_cast<int>(other.size());

      // bcast: the root's 1000 doubles reach every member of the other group.
      std::vector<double> buf(1000, -1.0);
      if (r.is_root) for (int i = 0; i < 1000; ++i) buf[static_cast<std::size_t>(i)] = i * 0.5 + root_rank;
      EXPECT_PURE_OK(pure_bcast(buf.data(), 1000, PURE_DOUBLE, r.arg, p.inter));
      if (!r.in_root_group) {
        for (int i = 0; i < 1000; ++i) ASSERT_EQ(buf[static_cast<std::size_t>(i)], i * 0.5 + root_rank);
      }
      if (r.in_root_group && !r.is_root) {
        EXPECT_EQ(buf[0], -1.0);  // untouched
      }

      // reduce: the root gets the sum over the other group.
      long long mine[3] = {rank, 2LL * rank, 1}, sum[3] = {-1, -1, -1};
      EXPECT_PURE_OK(pure_reduce(mine, sum, 3, PURE_LONG_LONG, PURE_SUM, r.arg, p.inter));
      if (r.is_root) {
        long long s = 0;
        for (int w : other) s += w;
        EXPECT_EQ(sum[0], s);
        EXPECT_EQ(sum[1], 2 * s);
        EXPECT_EQ(sum[2], n_other);
      }

      // gather and gatherv: the root gets every other-group member's block.
      std::vector<int> send3 = {rank, rank + 1000, rank + 2000};
      std::vector<int> all(static_cast<std::size_t>(3 * n_other), -1);
      EXPECT_PURE_OK(pure_gather(send3.data(), 3, PURE_INT, all.data(), 3, PURE_INT, r.arg, p.inter));
      if (r.is_root) {
        for (int k = 0; k < n_other; ++k)
          for (int i = 0; i < 3; ++i)
            EXPECT_EQ(all[static_cast<std::size_t>(3 * k + i)], other[static_cast<std::size_t>(k)] + 1000 * i);
      }
      // v: member k of the other group sends k+1 ints, placed in reverse order.
      std::vector<int> counts(static_cast<std::size_t>(n_other)), displs(counts.size());
      int total = 0;
      for (int k = n_other - 1; k >= 0; --k) {
        counts[static_cast<std::size_t>(k)] = k + 1;
        displs[static_cast<std::size_t>(k)] = total;
        total += k + 1;
      }
      std::vector<int> vsend(static_cast<std::size_t>(me + 1));
      for (int i = 0; i <= me; ++i) vsend[static_cast<std::size_t>(i)] = rank * 100 + i;
      std::vector<int> vall(static_cast<std::size_t>(total), -1);
      EXPECT_PURE_OK(pure_gatherv(vsend.data(), me + 1, PURE_INT, vall.data(), counts.data(),
                                  displs.data(), PURE_INT, r.arg, p.inter));
      if (r.is_root) {
        for (int k = 0; k < n_other; ++k)
          for (int i = 0; i <= k; ++i)
            EXPECT_EQ(vall[static_cast<std::size_t>(displs[static_cast<std::size_t>(k)] + i)],
                      other[static_cast<std::size_t>(k)] * 100 + i);
      }

      // scatter and scatterv: the other group's member k gets block k.
      std::vector<int> blocks(static_cast<std::size_t>(2 * n_other));
      for (int k = 0; k < 2 * n_other; ++k) blocks[static_cast<std::size_t>(k)] = 7 * k + 1;
      int got2[2] = {-1, -1};
      EXPECT_PURE_OK(pure_scatter(blocks.data(), 2, PURE_INT, got2, 2, PURE_INT, r.arg, p.inter));
      if (!r.in_root_group) {
        EXPECT_EQ(got2[0], 7 * (2 * me) + 1);
        EXPECT_EQ(got2[1], 7 * (2 * me + 1) + 1);
      }
      std::vector<int> vgot(static_cast<std::size_t>(me + 1), -1);
      std::vector<int> vblocks(static_cast<std::size_t>(total));
      for (int k = 0; k < n_other; ++k)
        for (int i = 0; i <= k; ++i)
          vblocks[static_cast<std::size_t>(displs[static_cast<std::size_t>(k)] + i)] = k * 10 + i;
      EXPECT_PURE_OK(pure_scatterv(vblocks.data(), counts.data(), displs.data(), PURE_INT,
                                   vgot.data(), me + 1, PURE_INT, r.arg, p.inter));
      if (!r.in_root_group) {
        for (int i = 0; i <= me; ++i) EXPECT_EQ(vgot[static_cast<std::size_t>(i)], me * 10 + i);
      }
    }
    free_pair(p);
  });
}

// A non-commutative op across the groups: the result must fold the other
// group's inputs in their rank order.
void affine(void* in, void* inout, int* len, PURE_Datatype*) {
  auto* f = static_cast<long long*>(in);
  auto* g = static_cast<long long*>(inout);
  for (int k = 0; k < *len; ++k) {
    const long long a = f[2 * k] * g[2 * k] % 1000003, b = (f[2 * k] * g[2 * k + 1] + f[2 * k + 1]) % 1000003;
    g[2 * k] = a;
    g[2 * k + 1] = b;
  }
}

TEST_P(Intercomms, AllToAllCollectives) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    Pair p = make_pair_of(rank, size);
    const int me = my_index(p.mine(), rank);
    const std::vector<int>& other = p.theirs();
    const int n_other = static_cast<int>(other.size()), n_mine = static_cast<int>(p.mine().size());
    EXPECT_PURE_OK(pure_barrier(p.inter));

    // allreduce: each group gets the other's sum; and a non-commutative op.
    int v = rank + 1, s = -1;
    EXPECT_PURE_OK(pure_allreduce(&v, &s, 1, PURE_INT, PURE_SUM, p.inter));
    int expect = 0;
    for (int w : other) expect += w + 1;
    EXPECT_EQ(s, expect);
    PURE_Datatype pair_type;
    EXPECT_PURE_OK(pure_type_contiguous(2, PURE_LONG_LONG, &pair_type));
    EXPECT_PURE_OK(pure_type_commit(&pair_type));
    PURE_Op op;
    EXPECT_PURE_OK(pure_op_create(affine, 0, &op));
    long long f[2] = {rank % 7 + 2, rank % 5 + 1}, folded[2] = {0, 0};
    EXPECT_PURE_OK(pure_allreduce(f, folded, 1, pair_type, op, p.inter));
    long long acc[2] = {other.back() % 7 + 2, other.back() % 5 + 1};
    for (int k = n_other - 2; k >= 0; --k) {
      long long in[2] = {other[static_cast<std::size_t>(k)] % 7 + 2, other[static_cast<std::size_t>(k)] % 5 + 1};
      int one = 1;
      affine(in, acc, &one, nullptr);
    }
    EXPECT_EQ(folded[0], acc[0]);
    EXPECT_EQ(folded[1], acc[1]);
    EXPECT_PURE_OK(pure_op_free(&op));
    EXPECT_PURE_OK(pure_type_free(&pair_type));

    // allgather(v): each member gets the other group's blocks.
    std::vector<int> all(static_cast<std::size_t>(2 * n_other), -1);
    int mine2[2] = {rank, -rank};
    EXPECT_PURE_OK(pure_allgather(mine2, 2, PURE_INT, all.data(), 2, PURE_INT, p.inter));
    for (int k = 0; k < n_other; ++k) {
      EXPECT_EQ(all[static_cast<std::size_t>(2 * k)], other[static_cast<std::size_t>(k)]);
      EXPECT_EQ(all[static_cast<std::size_t>(2 * k + 1)], -other[static_cast<std::size_t>(k)]);
    }
    std::vector<int> counts(static_cast<std::size_t>(n_other)), displs(counts.size());
    int total = 0;
    for (int k = 0; k < n_other; ++k) {
      counts[static_cast<std::size_t>(k)] = k % 3;
      displs[static_cast<std::size_t>(k)] = total + 1;  // a gap before each block
      total += k % 3 + 1;
    }
    std::vector<int> vsend(static_cast<std::size_t>(me % 3), rank);
    std::vector<int> vall(static_cast<std::size_t>(total + 1), -7);
    EXPECT_PURE_OK(pure_allgatherv(vsend.data(), me % 3, PURE_INT, vall.data(), counts.data(),
                                   displs.data(), PURE_INT, p.inter));
    for (int k = 0; k < n_other; ++k) {
      EXPECT_EQ(vall[static_cast<std::size_t>(displs[static_cast<std::size_t>(k)] - 1)], -7);
      for (int i = 0; i < k % 3; ++i)
        EXPECT_EQ(vall[static_cast<std::size_t>(displs[static_cast<std::size_t>(k)] + i)],
                  other[static_cast<std::size_t>(k)]);
    }

    // alltoall(v): block j goes to the other group's member j.
    std::vector<int> out(static_cast<std::size_t>(n_other)), in(out.size(), -1);
    for (int j = 0; j < n_other; ++j) out[static_cast<std::size_t>(j)] = rank * 1000 + other[static_cast<std::size_t>(j)];
    EXPECT_PURE_OK(pure_alltoall(out.data(), 1, PURE_INT, in.data(), 1, PURE_INT, p.inter));
    for (int j = 0; j < n_other; ++j) EXPECT_EQ(in[static_cast<std::size_t>(j)], other[static_cast<std::size_t>(j)] * 1000 + rank);
    std::vector<int> sc(static_cast<std::size_t>(n_other)), sd(sc.size()), rc(sc.size()), rd(sc.size());
    int st = 0, rt = 0;
    for (int j = 0; j < n_other; ++j) {
      sc[static_cast<std::size_t>(j)] = (me + j) % 3;
      sd[static_cast<std::size_t>(j)] = st;
      st += sc[static_cast<std::size_t>(j)];
      rc[static_cast<std::size_t>(j)] = (j + me) % 3;
      rd[static_cast<std::size_t>(j)] = rt;
      rt += rc[static_cast<std::size_t>(j)];
    }
    std::vector<int> vout(static_cast<std::size_t>(st) + 1, rank), vin(static_cast<std::size_t>(rt) + 1, -1);
    EXPECT_PURE_OK(pure_alltoallv(vout.data(), sc.data(), sd.data(), PURE_INT, vin.data(),
                                  rc.data(), rd.data(), PURE_INT, p.inter));
    for (int j = 0; j < n_other; ++j)
      for (int i = 0; i < rc[static_cast<std::size_t>(j)]; ++i)
        EXPECT_EQ(vin[static_cast<std::size_t>(rd[static_cast<std::size_t>(j)] + i)], other[static_cast<std::size_t>(j)]);

    // reduce_scatter_block and reduce_scatter: the other group's sums,
    // spread over this group. Both groups' totals must agree: 2 * n_a * n_b.
    const int rcount = 2 * n_other;
    std::vector<int> contrib(static_cast<std::size_t>(rcount * n_mine));
    for (int i = 0; i < rcount * n_mine; ++i) contrib[static_cast<std::size_t>(i)] = rank + i;
    std::vector<int> block(static_cast<std::size_t>(rcount), -1);
    EXPECT_PURE_OK(pure_reduce_scatter_block(contrib.data(), block.data(), rcount, PURE_INT,
                                             PURE_SUM, p.inter));
    int other_sum = 0;
    for (int w : other) other_sum += w;
    for (int i = 0; i < rcount; ++i)
      EXPECT_EQ(block[static_cast<std::size_t>(i)], other_sum + n_other * (me * rcount + i));
    // reduce_scatter: this group's counts (member k gets 2*n_other - ... ).
    std::vector<int> rcounts(static_cast<std::size_t>(n_mine));
    for (int k = 0; k < n_mine; ++k) rcounts[static_cast<std::size_t>(k)] = rcount;
    std::vector<int> block2(static_cast<std::size_t>(rcount), -1);
    EXPECT_PURE_OK(pure_reduce_scatter(contrib.data(), block2.data(), rcounts.data(), PURE_INT,
                                       PURE_SUM, p.inter));
    EXPECT_EQ(block2, block);

    // Scans are not defined on intercommunicators.
    EXPECT_PURE_OK(pure_comm_set_errhandler(p.inter, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_scan(&v, &s, 1, PURE_INT, PURE_SUM, p.inter), PURE_ERR_COMM);
    EXPECT_EQ(pure_bcast(&v, 1, PURE_INT, n_other, p.inter), PURE_ERR_ROOT);
    free_pair(p);
  });
}

// allgather(v) with blocks past the eager limit (single-copy rendezvous):
// each leader sends its group's blocks before it waits for them to leave,
// so the two leaders do not wait for each other's receives (they did, and
// deadlocked; found by MPICH's coll/icallgather). Groups of uneven sizes.
TEST_P(Intercomms, LargeAllgather) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    Pair p = make_pair_of(rank, size, size > 2 ? 1 : -1);
    const std::vector<int>& other = p.theirs();
    const int n_other = static_cast<int>(other.size());
    for (int items : {3000, 40000}) {
      std::vector<int> mine(static_cast<std::size_t>(items));
      for (int i = 0; i < items; ++i) mine[static_cast<std::size_t>(i)] = rank * 1000003 + i;
      std::vector<int> all(static_cast<std::size_t>(items) * static_cast<std::size_t>(n_other), -1);
      EXPECT_PURE_OK(
          pure_allgather(mine.data(), items, PURE_INT, all.data(), items, PURE_INT, p.inter));
      std::vector<int> counts(static_cast<std::size_t>(n_other), items), displs(counts.size());
      for (int k = 0; k < n_other; ++k) displs[static_cast<std::size_t>(k)] = (n_other - 1 - k) * items;
      std::vector<int> vall(all.size(), -1);
      EXPECT_PURE_OK(pure_allgatherv(mine.data(), items, PURE_INT, vall.data(), counts.data(),
                                     displs.data(), PURE_INT, p.inter));
      for (int k = 0; k < n_other; ++k)
        for (int i = 0; i < items; ++i) {
          const int want = other[static_cast<std::size_t>(k)] * 1000003 + i;
          ASSERT_EQ(all[static_cast<std::size_t>(k * items + i)], want) << "allgather " << k;
          ASSERT_EQ(vall[static_cast<std::size_t>((n_other - 1 - k) * items + i)], want)
              << "allgatherv " << k;
        }
    }
    free_pair(p);
  });
}

TEST_P(Intercomms, MergeDupSplitCreate) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    Pair p = make_pair_of(rank, size);
    const int me = my_index(p.mine(), rank);
    // Merge: B (high) after A; then A high: A after B.
    for (bool a_high : {false, true}) {
      PURE_Comm merged;
      EXPECT_PURE_OK(pure_intercomm_merge(p.inter, p.in_a ? a_high : !a_high, &merged));
      std::vector<int> order(static_cast<std::size_t>(size), -1);
      EXPECT_PURE_OK(pure_allgather(&rank, 1, PURE_INT, order.data(), 1, PURE_INT, merged));
      std::vector<int> expect = a_high ? p.b : p.a;
      const std::vector<int>& second = a_high ? p.a : p.b;
      expect.insert(expect.end(), second.begin(), second.end());
      EXPECT_EQ(order, expect);
      EXPECT_PURE_OK(pure_comm_free(&merged));
    }
    // Both groups pass the same high: one group first, the same for everyone.
    PURE_Comm same;
    EXPECT_PURE_OK(pure_intercomm_merge(p.inter, 1, &same));
    std::vector<int> order(static_cast<std::size_t>(size), -1);
    EXPECT_PURE_OK(pure_allgather(&rank, 1, PURE_INT, order.data(), 1, PURE_INT, same));
    std::vector<int> ab = p.a, ba = p.b;
    ab.insert(ab.end(), p.b.begin(), p.b.end());
    ba.insert(ba.end(), p.a.begin(), p.a.end());
    EXPECT_TRUE(order == ab || order == ba);
    EXPECT_PURE_OK(pure_comm_free(&same));

    // Dup: congruent, and its traffic apart from the original's.
    PURE_Comm dup;
    EXPECT_PURE_OK(pure_comm_dup(p.inter, &dup));
    int cmp = -1, flag = 0;
    EXPECT_PURE_OK(pure_comm_compare(p.inter, dup, &cmp));
    EXPECT_EQ(cmp, PURE_CONGRUENT);
    EXPECT_PURE_OK(pure_comm_compare(p.inter, p.local, &cmp));
    EXPECT_EQ(cmp, PURE_UNEQUAL);
    EXPECT_PURE_OK(pure_comm_test_inter(dup, &flag));
    EXPECT_EQ(flag, 1);
    // Member `me` sends to member `me mod n` of the other group on both.
    const int partner = me % static_cast<int>(p.theirs().size());
    int a = rank, b = -rank, ra = 0, rb = 0;
    PURE_Request reqs[2];
    EXPECT_PURE_OK(pure_isend(&a, 1, PURE_INT, partner, 3, p.inter, &reqs[0]));
    EXPECT_PURE_OK(pure_isend(&b, 1, PURE_INT, partner, 3, dup, &reqs[1]));
    // Members of the other group that chose this rank as partner.
    for (int k = 0; k < static_cast<int>(p.theirs().size()); ++k) {
      if (k % static_cast<int>(p.mine().size()) != me) continue;
      EXPECT_PURE_OK(pure_recv(&rb, 1, PURE_INT, k, 3, dup, PURE_STATUS_IGNORE));
      EXPECT_PURE_OK(pure_recv(&ra, 1, PURE_INT, k, 3, p.inter, PURE_STATUS_IGNORE));
      EXPECT_EQ(ra, p.theirs()[static_cast<std::size_t>(k)]);
      EXPECT_EQ(rb, -p.theirs()[static_cast<std::size_t>(k)]);
    }
    EXPECT_PURE_OK(pure_waitall(2, reqs, PURE_STATUSES_IGNORE));
    int x = rank + 1, sx = -1;
    EXPECT_PURE_OK(pure_allreduce(&x, &sx, 1, PURE_INT, PURE_MAX, dup));
    EXPECT_EQ(sx, *std::max_element(p.theirs().begin(), p.theirs().end()) + 1);
    EXPECT_PURE_OK(pure_comm_free(&dup));

    // Split by parity of the local rank: the halves meet their other halves;
    // with a single member in a group, odd colours have one side empty.
    PURE_Comm half;
    const int color = me % 2;
    EXPECT_PURE_OK(pure_comm_split(p.inter, color, -me, &half));
    int mine_with = 0, theirs_with = 0;
    for (std::size_t k = 0; k < p.mine().size(); ++k) mine_with += static_cast<int>(k % 2) == color;
    for (std::size_t k = 0; k < p.theirs().size(); ++k) theirs_with += static_cast<int>(k % 2) == color;
    if (theirs_with == 0) {
      EXPECT_EQ(half, PURE_COMM_NULL);
    } else {
      int hs = -1, hr = -1, rs = -1;
      EXPECT_PURE_OK(pure_comm_size(half, &hs));
      EXPECT_PURE_OK(pure_comm_rank(half, &hr));
      EXPECT_PURE_OK(pure_comm_remote_size(half, &rs));
      EXPECT_EQ(hs, mine_with);
      EXPECT_EQ(rs, theirs_with);
      // Keys reverse the order: the highest local rank of the colour is 0.
      EXPECT_EQ(hr, (mine_with - 1) - me / 2);
      int y = rank, sy = -1;
      EXPECT_PURE_OK(pure_allreduce(&y, &sy, 1, PURE_INT, PURE_MIN, half));
      int expect_min = size;
      for (std::size_t k = 0; k < p.theirs().size(); ++k)
        if (static_cast<int>(k % 2) == color) expect_min = std::min(expect_min, p.theirs()[k]);
      EXPECT_EQ(sy, expect_min);
      EXPECT_PURE_OK(pure_comm_free(&half));
    }

    // Create from the first member of each group.
    PURE_Group g, first;
    EXPECT_PURE_OK(pure_comm_group(p.inter, &g));
    int zero = 0;
    EXPECT_PURE_OK(pure_group_incl(g, 1, &zero, &first));
    PURE_Comm created;
    EXPECT_PURE_OK(pure_comm_create(p.inter, first, &created));
    EXPECT_EQ(created == PURE_COMM_NULL, me != 0);
    if (created != PURE_COMM_NULL) {
      int rs = -1;
      EXPECT_PURE_OK(pure_comm_remote_size(created, &rs));
      EXPECT_EQ(rs, 1);
      int got = -1;
      EXPECT_PURE_OK(pure_sendrecv(&rank, 1, PURE_INT, 0, 1, &got, 1, PURE_INT, 0, 1, created,
                                   PURE_STATUS_IGNORE));
      EXPECT_EQ(got, p.theirs()[0]);
      EXPECT_PURE_OK(pure_comm_free(&created));
    }
    EXPECT_PURE_OK(pure_group_free(&g));
    EXPECT_PURE_OK(pure_group_free(&first));
    free_pair(p);
  });
}

TEST_P(Intercomms, BadArgumentsAreRefused) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    PURE_Comm ic = PURE_COMM_NULL;
    // Overlapping groups: world with itself.
    PURE_Comm dup;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &dup));
    EXPECT_PURE_OK(pure_comm_set_errhandler(dup, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_intercomm_create(dup, size, PURE_COMM_WORLD, 0, 1, &ic), PURE_ERR_RANK);
    if (rank == 0) {
      EXPECT_EQ(pure_intercomm_create(dup, 0, PURE_COMM_WORLD, size, 1, &ic), PURE_ERR_RANK);
    }
    EXPECT_EQ(pure_intercomm_merge(dup, 0, &ic), PURE_ERR_COMM);
    EXPECT_PURE_OK(pure_comm_free(&dup));
  });
}

}  // namespace
}  // namespace pure_testing
