// Collectives on intercommunicators as nonblocking (pure_iX) and persistent
// (pure_X_init, run twice) requests, and alltoallw blocking too: every
// collective MPI defines there, with the root in either group (PURE_ROOT,
// PURE_PROC_NULL), on even/odd and uneven groups, at 2 to 16 rank threads;
// several in flight at once, completed in reverse order; a non-commutative
// user op folded in the other group's rank order. Every element is checked.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "collectives_harness.h"
#include "harness.h"
#include "intercomm_pair.h"

namespace pure_testing {
namespace {

using coll_test::Affine;
using coll_test::compose;

std::size_t at(long long i) { return static_cast<std::size_t>(i); }

enum class Form { nonblocking, persistent };

void complete(Form f, PURE_Request r, const std::function<void()>& reset) {
  complete_request(f == Form::persistent, r, reset);
}

long long value(int world, int i) { return world * 100003LL + i; }

class InterNonblocking : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, InterNonblocking, pure_testing::rank_sweep({2, 3, 4, 8, 16}),
                         rank_count_name);

void every_collective(int rank, const Pair& p, Form f) {
  SCOPED_TRACE(f == Form::nonblocking ? "nonblocking" : "persistent");
  const PURE_Comm ic = p.inter;
  const PURE_Datatype LL = PURE_LONG_LONG;
  const std::vector<int>& other = p.theirs();
  const int me = my_index(p.mine(), rank), n_other = static_cast<int>(other.size());
  const int n_mine = static_cast<int>(p.mine().size());
  const bool persist = f == Form::persistent;
  PURE_Request r = PURE_REQUEST_NULL;
  constexpr int K = 5;  // items per block

  // barrier
  EXPECT_PURE_OK(persist ? pure_barrier_init(ic, PURE_INFO_NULL, &r) : pure_ibarrier(ic, &r));
  complete(f, r, [] {});

  // Rooted collectives, with the root the first member of A, then the last of B.
  for (int root_group = 0; root_group < 2; ++root_group) {
    const std::vector<int>& rg = root_group == 0 ? p.a : p.b;
    const int root_index = root_group == 0 ? 0 : static_cast<int>(rg.size()) - 1;
    const int root_world = rg[at(root_index)];
    const bool in_root_group = (root_group == 0) == p.in_a;
    const int root = !in_root_group ? root_index : rank == root_world ? PURE_ROOT : PURE_PROC_NULL;
    const std::string where = "root " + std::to_string(root_world);

    std::vector<long long> buf(K);
    auto fill_bcast = [&] {
      for (int i = 0; i < K; ++i) buf[at(i)] = root == PURE_ROOT ? value(rank, i) : -1;
    };
    fill_bcast();
    EXPECT_PURE_OK(persist ? pure_bcast_init(buf.data(), K, LL, root, ic, PURE_INFO_NULL, &r)
                           : pure_ibcast(buf.data(), K, LL, root, ic, &r));
    complete(f, r, fill_bcast);
    for (int i = 0; i < K; ++i)
      EXPECT_EQ(buf[at(i)], root == PURE_PROC_NULL ? -1 : value(root_world, i)) << "bcast " << where;

    // gather and gatherv: the root gets block j from the other group's member j.
    std::vector<long long> mine(K), all(at(K * n_other));
    for (int i = 0; i < K; ++i) mine[at(i)] = value(rank, i);
    auto clear_all = [&] { std::fill(all.begin(), all.end(), -1); };
    clear_all();
    EXPECT_PURE_OK(persist ? pure_gather_init(mine.data(), K, LL, all.data(), K, LL, root, ic,
                                              PURE_INFO_NULL, &r)
                           : pure_igather(mine.data(), K, LL, all.data(), K, LL, root, ic, &r));
    complete(f, r, clear_all);
    std::vector<int> counts(at(n_other)), displs(at(n_other));
    for (int j = 0; j < n_other; ++j) {
      counts[at(j)] = j % 3 + 1;
      displs[at(j)] = (n_other - 1 - j) * K;  // reversed
    }
    for (int j = 0; j < n_other; ++j)
      for (int i = 0; i < K; ++i)
        EXPECT_EQ(all[at(j * K + i)], root == PURE_ROOT ? value(other[at(j)], i) : -1)
            << "gather " << where;
    std::vector<long long> vall(all.size());
    auto clear_vall = [&] { std::fill(vall.begin(), vall.end(), -1); };
    clear_vall();
    const int my_count = me % 3 + 1;  // as the root's counts say of this member
    EXPECT_PURE_OK(persist ? pure_gatherv_init(mine.data(), my_count, LL, vall.data(),
                                               counts.data(), displs.data(), LL, root, ic,
                                               PURE_INFO_NULL, &r)
                           : pure_igatherv(mine.data(), my_count, LL, vall.data(), counts.data(),
                                           displs.data(), LL, root, ic, &r));
    complete(f, r, clear_vall);
    if (root == PURE_ROOT) {
      for (int j = 0; j < n_other; ++j)
        for (int i = 0; i < K; ++i)
          EXPECT_EQ(vall[at(displs[at(j)] + i)], i < counts[at(j)] ? value(other[at(j)], i) : -1)
              << "gatherv " << where;
    }

    // scatter and scatterv: member j of the other group gets block j.
    std::vector<long long> src(at(K * n_other)), got(K);
    for (int j = 0; j < n_other; ++j)
      for (int i = 0; i < K; ++i) src[at(j * K + i)] = value(other[at(j)], i + 50);
    auto clear_got = [&] { std::fill(got.begin(), got.end(), -1); };
    clear_got();
    EXPECT_PURE_OK(persist ? pure_scatter_init(src.data(), K, LL, got.data(), K, LL, root, ic,
                                               PURE_INFO_NULL, &r)
                           : pure_iscatter(src.data(), K, LL, got.data(), K, LL, root, ic, &r));
    complete(f, r, clear_got);
    for (int i = 0; i < K; ++i)
      EXPECT_EQ(got[at(i)], root >= 0 ? value(rank, i + 50) : -1) << "scatter " << where;
    clear_got();
    EXPECT_PURE_OK(persist ? pure_scatterv_init(src.data(), counts.data(), displs.data(), LL,
                                                got.data(), my_count, LL, root, ic,
                                                PURE_INFO_NULL, &r)
                           : pure_iscatterv(src.data(), counts.data(), displs.data(), LL,
                                            got.data(), my_count, LL, root, ic, &r));
    complete(f, r, clear_got);
    if (root >= 0) {
      // Block me starts at displs[me] = (n_mine - 1 - me) * K of the root's
      // buffer, which holds the values of the member at that position.
      const int holder = p.mine()[at(n_mine - 1 - me)];
      for (int i = 0; i < K; ++i)
        EXPECT_EQ(got[at(i)], i < my_count ? value(holder, i + 50) : -1) << "scatterv " << where;
    }

    // reduce: the sum of the other group's inputs at the root.
    std::vector<long long> sum(K);
    auto clear_sum = [&] { std::fill(sum.begin(), sum.end(), -1); };
    clear_sum();
    EXPECT_PURE_OK(persist ? pure_reduce_init(mine.data(), sum.data(), K, LL, PURE_SUM, root, ic,
                                              PURE_INFO_NULL, &r)
                           : pure_ireduce(mine.data(), sum.data(), K, LL, PURE_SUM, root, ic, &r));
    complete(f, r, clear_sum);
    for (int i = 0; i < K; ++i) {
      long long want = 0;
      for (int w : other) want += value(w, i);
      EXPECT_EQ(sum[at(i)], root == PURE_ROOT ? want : -1) << "reduce " << where;
    }
  }

  // allgather(v): every member gets the other group's blocks.
  std::vector<long long> mine(K), all(at(K * n_other));
  for (int i = 0; i < K; ++i) mine[at(i)] = value(rank, i + 7);
  auto clear_all = [&] { std::fill(all.begin(), all.end(), -1); };
  clear_all();
  EXPECT_PURE_OK(persist ? pure_allgather_init(mine.data(), K, LL, all.data(), K, LL, ic,
                                               PURE_INFO_NULL, &r)
                         : pure_iallgather(mine.data(), K, LL, all.data(), K, LL, ic, &r));
  complete(f, r, clear_all);
  for (int j = 0; j < n_other; ++j)
    for (int i = 0; i < K; ++i) EXPECT_EQ(all[at(j * K + i)], value(other[at(j)], i + 7)) << "allgather";
  std::vector<int> counts(at(n_other), K), displs(at(n_other));
  for (int j = 0; j < n_other; ++j) displs[at(j)] = (n_other - 1 - j) * K;
  clear_all();
  EXPECT_PURE_OK(persist ? pure_allgatherv_init(mine.data(), K, LL, all.data(), counts.data(),
                                                displs.data(), LL, ic, PURE_INFO_NULL, &r)
                         : pure_iallgatherv(mine.data(), K, LL, all.data(), counts.data(),
                                            displs.data(), LL, ic, &r));
  complete(f, r, clear_all);
  for (int j = 0; j < n_other; ++j)
    for (int i = 0; i < K; ++i)
      EXPECT_EQ(all[at(displs[at(j)] + i)], value(other[at(j)], i + 7)) << "allgatherv";

  // alltoall, alltoallv, alltoallw: block j goes to member j of the other group.
  std::vector<long long> out(at(K * n_other)), in(out.size());
  for (int j = 0; j < n_other; ++j)
    for (int i = 0; i < K; ++i) out[at(j * K + i)] = value(rank, 1000 * other[at(j)] + i);
  auto clear_in = [&] { std::fill(in.begin(), in.end(), -1); };
  auto check_in = [&](const char* what) {
    for (int j = 0; j < n_other; ++j)
      for (int i = 0; i < K; ++i)
        EXPECT_EQ(in[at(j * K + i)], value(other[at(j)], 1000 * rank + i)) << what;
  };
  clear_in();
  EXPECT_PURE_OK(persist ? pure_alltoall_init(out.data(), K, LL, in.data(), K, LL, ic,
                                              PURE_INFO_NULL, &r)
                         : pure_ialltoall(out.data(), K, LL, in.data(), K, LL, ic, &r));
  complete(f, r, clear_in);
  check_in("alltoall");
  std::vector<int> d(at(n_other));
  for (int j = 0; j < n_other; ++j) d[at(j)] = j * K;
  clear_in();
  EXPECT_PURE_OK(persist ? pure_alltoallv_init(out.data(), counts.data(), d.data(), LL, in.data(),
                                               counts.data(), d.data(), LL, ic, PURE_INFO_NULL, &r)
                         : pure_ialltoallv(out.data(), counts.data(), d.data(), LL, in.data(),
                                           counts.data(), d.data(), LL, ic, &r));
  complete(f, r, clear_in);
  check_in("alltoallv");
  std::vector<int> bytes(at(n_other));
  for (int j = 0; j < n_other; ++j) bytes[at(j)] = j * K * 8;
  std::vector<PURE_Datatype> types(at(n_other), LL);
  clear_in();
  EXPECT_PURE_OK(persist ? pure_alltoallw_init(out.data(), counts.data(), bytes.data(),
                                               types.data(), in.data(), counts.data(),
                                               bytes.data(), types.data(), ic, PURE_INFO_NULL, &r)
                         : pure_ialltoallw(out.data(), counts.data(), bytes.data(), types.data(),
                                           in.data(), counts.data(), bytes.data(), types.data(),
                                           ic, &r));
  complete(f, r, clear_in);
  check_in("alltoallw");

  // allreduce with a non-commutative op: the other group's maps composed in
  // its rank order.
  PURE_Datatype pair_type;
  EXPECT_PURE_OK(pure_type_contiguous(2, LL, &pair_type));
  EXPECT_PURE_OK(pure_type_commit(&pair_type));
  PURE_Op op;
  EXPECT_PURE_OK(pure_op_create(compose, 0, &op));
  Affine fin[K], fout[K];
  for (int i = 0; i < K; ++i) fin[i] = coll_test::affine_of(rank, i);
  auto clear_f = [&] {
    for (Affine& x : fout) x = {-1, -1};
  };
  clear_f();
  EXPECT_PURE_OK(persist ? pure_allreduce_init(fin, fout, K, pair_type, op, ic, PURE_INFO_NULL, &r)
                         : pure_iallreduce(fin, fout, K, pair_type, op, ic, &r));
  complete(f, r, clear_f);
  for (int i = 0; i < K; ++i) {
    Affine acc = coll_test::affine_of(other.back(), i);
    for (int j = n_other - 2; j >= 0; --j) {
      Affine g = coll_test::affine_of(other[at(j)], i);
      int one = 1;
      compose(&g, &acc, &one, nullptr);
    }
    EXPECT_EQ(fout[i].a, acc.a) << "allreduce " << i;
    EXPECT_EQ(fout[i].b, acc.b) << "allreduce " << i;
  }
  EXPECT_PURE_OK(pure_op_free(&op));
  EXPECT_PURE_OK(pure_type_free(&pair_type));

  // reduce_scatter_block and reduce_scatter: the other group's sums spread
  // over this group; both groups' totals agree (2 * n_a * n_b items).
  const int rcount = 2 * n_other;
  std::vector<long long> contrib(at(rcount * n_mine));
  for (int i = 0; i < rcount * n_mine; ++i) contrib[at(i)] = value(rank, i);
  std::vector<long long> block(at(rcount));
  auto clear_block = [&] { std::fill(block.begin(), block.end(), -1); };
  auto check_block = [&](const char* what) {
    for (int i = 0; i < rcount; ++i) {
      long long want = 0;
      for (int w : other) want += value(w, me * rcount + i);
      EXPECT_EQ(block[at(i)], want) << what;
    }
  };
  clear_block();
  EXPECT_PURE_OK(persist ? pure_reduce_scatter_block_init(contrib.data(), block.data(), rcount, LL,
                                                          PURE_SUM, ic, PURE_INFO_NULL, &r)
                         : pure_ireduce_scatter_block(contrib.data(), block.data(), rcount, LL,
                                                      PURE_SUM, ic, &r));
  complete(f, r, clear_block);
  check_block("reduce_scatter_block");
  std::vector<int> rcounts(at(n_mine), rcount);
  clear_block();
  EXPECT_PURE_OK(persist ? pure_reduce_scatter_init(contrib.data(), block.data(), rcounts.data(),
                                                    LL, PURE_SUM, ic, PURE_INFO_NULL, &r)
                         : pure_ireduce_scatter(contrib.data(), block.data(), rcounts.data(), LL,
                                                PURE_SUM, ic, &r));
  complete(f, r, clear_block);
  check_block("reduce_scatter");
}

TEST_P(InterNonblocking, EveryCollectiveInEveryForm) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    for (int low : {-1, size > 2 ? 1 : -1}) {
      Pair p = make_pair_of(rank, size, low);
      for (Form f : {Form::nonblocking, Form::persistent}) every_collective(rank, p, f);
      free_pair(p);
    }
  });
}

// Blocking alltoallw on an intercommunicator (a schedule waited for), and
// several nonblocking collectives in flight at once with a blocking one in
// between, completed in reverse order.
TEST_P(InterNonblocking, SeveralInFlightAndBlockingAlltoallw) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    Pair p = make_pair_of(rank, size);
    const std::vector<int>& other = p.theirs();
    const int n_other = static_cast<int>(other.size());
    std::vector<int> out(at(n_other)), in(at(n_other), -1), ones(at(n_other), 1),
        bytes(at(n_other));
    std::vector<PURE_Datatype> types(at(n_other), PURE_INT);
    for (int j = 0; j < n_other; ++j) {
      out[at(j)] = rank * 1000 + other[at(j)];
      bytes[at(j)] = j * 4;
    }
    EXPECT_PURE_OK(pure_alltoallw(out.data(), ones.data(), bytes.data(), types.data(), in.data(),
                                  ones.data(), bytes.data(), types.data(), p.inter));
    for (int j = 0; j < n_other; ++j) EXPECT_EQ(in[at(j)], other[at(j)] * 1000 + rank);

    constexpr int kCalls = 4;
    long long mine = rank, sums[kCalls], gathered[kCalls][16];
    PURE_Request reqs[2 * kCalls];
    for (int k = 0; k < kCalls; ++k) {
      sums[k] = -1;
      EXPECT_PURE_OK(pure_iallreduce(&mine, &sums[k], 1, PURE_LONG_LONG, PURE_SUM, p.inter,
                                     &reqs[2 * k]));
      EXPECT_PURE_OK(pure_iallgather(&mine, 1, PURE_LONG_LONG, gathered[k], 1, PURE_LONG_LONG,
                                     p.inter, &reqs[2 * k + 1]));
      if (k == 1) {
        EXPECT_PURE_OK(pure_barrier(p.inter));
      }
    }
    for (int k = 2 * kCalls; k-- > 0;) EXPECT_PURE_OK(pure_wait(&reqs[k], PURE_STATUS_IGNORE));
    long long want = 0;
    for (int w : other) want += w;
    for (int k = 0; k < kCalls; ++k) {
      EXPECT_EQ(sums[k], want);
      for (int j = 0; j < n_other; ++j) EXPECT_EQ(gathered[k][j], other[at(j)]);
    }
    // Scans stay refused.
    EXPECT_PURE_OK(pure_comm_set_errhandler(p.inter, PURE_ERRORS_RETURN));
    PURE_Request r;
    EXPECT_EQ(pure_iscan(&mine, sums, 1, PURE_LONG_LONG, PURE_SUM, p.inter, &r), PURE_ERR_COMM);
    EXPECT_EQ(pure_ibcast(&mine, 1, PURE_LONG_LONG, n_other, p.inter, &r), PURE_ERR_ROOT);
    free_pair(p);
  });
}

// pure_comm_idup of an intercommunicator: the request completes with an
// intercommunicator of the same groups (congruent), whose messages and
// collectives are its own. Starting it blocks nobody: the first member of
// the second group starts its duplicate only after a message that the
// first member of the first group sends after starting its own.
TEST_P(InterNonblocking, IdupOfAnIntercommunicator) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    for (int low : {-1, size > 2 ? 1 : -1}) {
      Pair p = make_pair_of(rank, size, low);
      const std::vector<int>& other = p.theirs();
      const int me = my_index(p.mine(), rank);
      const bool first_of_b = !p.in_a && me == 0;
      PURE_Comm dup = PURE_COMM_NULL, hinted = PURE_COMM_NULL;
      PURE_Request r[2];
      int go = -1;
      if (first_of_b) {
        EXPECT_PURE_OK(pure_recv(&go, 1, PURE_INT, 0, 5, p.inter, PURE_STATUS_IGNORE));
      }
      EXPECT_PURE_OK(pure_comm_idup(p.inter, &dup, &r[0]));
      PURE_Info info;
      EXPECT_PURE_OK(pure_info_create(&info));
      EXPECT_PURE_OK(pure_info_set(info, "mpi_assert_no_any_tag", "true"));
      EXPECT_PURE_OK(pure_comm_idup_with_info(p.inter, info, &hinted, &r[1]));
      EXPECT_PURE_OK(pure_info_free(&info));
      if (p.in_a && me == 0) {
        go = 1;
        EXPECT_PURE_OK(pure_send(&go, 1, PURE_INT, 0, 5, p.inter));
      }
      EXPECT_PURE_OK(pure_waitall(2, r, PURE_STATUSES_IGNORE));
      if (first_of_b) {
        EXPECT_EQ(go, 1);
      }
      for (PURE_Comm c : {dup, hinted}) {
        ASSERT_NE(c, PURE_COMM_NULL);
        int inter = 0, result = -1, remote = -1, local_rank = -1;
        EXPECT_PURE_OK(pure_comm_test_inter(c, &inter));
        EXPECT_EQ(inter, 1);
        EXPECT_PURE_OK(pure_comm_compare(c, p.inter, &result));
        EXPECT_EQ(result, PURE_CONGRUENT);
        EXPECT_PURE_OK(pure_comm_remote_size(c, &remote));
        EXPECT_EQ(remote, static_cast<int>(other.size()));
        EXPECT_PURE_OK(pure_comm_rank(c, &local_rank));
        EXPECT_EQ(local_rank, me);
        // Point-to-point between the members of equal index in both groups.
        if (me < static_cast<int>(std::min(other.size(), p.mine().size()))) {
          int out = rank, in = -1;
          EXPECT_PURE_OK(pure_sendrecv(&out, 1, PURE_INT, me, 9, &in, 1, PURE_INT, me, 9, c,
                                       PURE_STATUS_IGNORE));
          EXPECT_EQ(in, other[static_cast<std::size_t>(me)]);
        }
        long long mine = rank, sum = -1, want = 0;
        for (int w : other) want += w;
        EXPECT_PURE_OK(pure_allreduce(&mine, &sum, 1, PURE_LONG_LONG, PURE_SUM, c));
        EXPECT_EQ(sum, want);
      }
      PURE_Info got;
      char value[16] = {};
      int flag = 0;
      EXPECT_PURE_OK(pure_comm_get_info(hinted, &got));
      EXPECT_PURE_OK(pure_info_get(got, "mpi_assert_no_any_tag", 15, value, &flag));
      EXPECT_EQ(flag, 1);
      EXPECT_STREQ(value, "true");
      EXPECT_PURE_OK(pure_info_free(&got));
      EXPECT_PURE_OK(pure_comm_free(&hinted));
      EXPECT_PURE_OK(pure_comm_free(&dup));
      free_pair(p);
    }
  });
}

}  // namespace
}  // namespace pure_testing
