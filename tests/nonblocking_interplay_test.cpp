// Nonblocking collectives among the rest of a program, at 2 to 16 rank
// threads: outstanding across blocking collectives and point-to-point on
// the same communicators, progress while a rank waits for something else,
// stealing while waiting, comm_idup, separation from user point-to-point,
// and bad arguments. (The results of each collective:
// nonblocking_collectives_test.cpp.)
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "collectives_harness.h"
#include "harness.h"
#include "nonblocking_inputs.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class NonblockingAmong : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};
INSTANTIATE_TEST_SUITE_P(, NonblockingAmong, pure_testing::rank_sweep({2, 3, 4, 5, 8, 16}), rank_count_name);

// Nonblocking collectives outstanding on the world, a duplicate and a split
// while the ranks run blocking collectives and point-to-point on the same
// communicators, then more nonblocking ones; all completed through waitsome
// in whatever order they finish. Large and small payloads, so ring and
// tree schedules overlap with the blocking ones' own rounds.
TEST_P(NonblockingAmong, OutstandingAcrossBlockingCollectivesAndPointToPoint) {
  for (const int count : {3, 5000}) {
    SCOPED_TRACE(count);
    expect_clean_run(n(), [&](int me, int size) {
      const std::size_t cc = static_cast<std::size_t>(count), nn = static_cast<std::size_t>(size);
      PURE_Comm dup, half;
      EXPECT_PURE_OK(pure_comm_dup(W, &dup));
      EXPECT_PURE_OK(pure_comm_split(W, me % 2, size - me, &half));
      int hme = -1, hsize = -1;
      EXPECT_PURE_OK(pure_comm_rank(half, &hme));
      EXPECT_PURE_OK(pure_comm_size(half, &hsize));
      const int root = size - 1, right = (me + 1) % size, left = (me + size - 1) % size;
      std::vector<PURE_Request> reqs;
      PURE_Request r;
      auto add = [&](int rc) {
        EXPECT_PURE_OK(rc);
        reqs.push_back(r);
      };
      std::vector<long long> in(cc), bc(cc), sum(cc, -1), hmax(cc, -1), scan(cc, -1);
      for (std::size_t i = 0; i < cc; ++i) {
        in[i] = input(me, static_cast<int>(i));
        bc[i] = me == root ? input(root, static_cast<int>(i), 1) : -1;
      }
      std::vector<long long> allg(nn * cc, -1), hout(static_cast<std::size_t>(hsize) * cc),
          hin(static_cast<std::size_t>(hsize) * cc, -1);
      for (std::size_t k = 0; k < hout.size(); ++k) hout[k] = input(me, static_cast<int>(k), 2);
      add(pure_ibcast(bc.data(), count, PURE_LONG_LONG, root, W, &r));
      add(pure_iallreduce(in.data(), sum.data(), count, PURE_LONG_LONG, PURE_SUM, dup, &r));
      add(pure_ialltoall(hout.data(), count, PURE_LONG_LONG, hin.data(), count, PURE_LONG_LONG,
                         half, &r));
      add(pure_ibarrier(W, &r));
      add(pure_iallgather(in.data(), count, PURE_LONG_LONG, allg.data(), count, PURE_LONG_LONG,
                          dup, &r));
      add(pure_iallreduce(in.data(), hmax.data(), count, PURE_LONG_LONG, PURE_MAX, half, &r));

      // Blocking collectives on the same three communicators meanwhile.
      std::vector<long long> bsum(cc, -1), bbc(cc), ball(nn * cc, -1);
      EXPECT_PURE_OK(pure_allreduce(in.data(), bsum.data(), count, PURE_LONG_LONG, PURE_SUM, W));
      for (std::size_t i = 0; i < cc; ++i) bbc[i] = hme == 0 ? input(me, static_cast<int>(i), 3) : -1;
      EXPECT_PURE_OK(pure_bcast(bbc.data(), count, PURE_LONG_LONG, 0, half));
      EXPECT_PURE_OK(pure_allgather(in.data(), count, PURE_LONG_LONG, ball.data(), count,
                                    PURE_LONG_LONG, dup));
      // Point-to-point on the world and the duplicate, on the same tag.
      std::vector<char> out = make_payload(cc * 8, key_of(me, count)), got(cc * 8), got2(cc * 8);
      EXPECT_PURE_OK(pure_sendrecv(out.data(), count * 8, PURE_BYTE, right, 0, got.data(),
                                   count * 8, PURE_BYTE, left, 0, W, PURE_STATUS_IGNORE));
      EXPECT_PURE_OK(pure_sendrecv(out.data(), count * 8, PURE_BYTE, left, 0, got2.data(),
                                   count * 8, PURE_BYTE, PURE_ANY_SOURCE, PURE_ANY_TAG, dup,
                                   PURE_STATUS_IGNORE));
      EXPECT_PURE_OK(pure_barrier(dup));
      // And more nonblocking ones after the blocking ones.
      add(pure_iscan(in.data(), scan.data(), count, PURE_LONG_LONG, PURE_SUM, W, &r));
      add(pure_ibarrier(half, &r));

      std::size_t done = 0;
      std::vector<int> indices(reqs.size());
      while (done < reqs.size()) {
        int outcount = 0;
        EXPECT_PURE_OK(pure_waitsome(static_cast<int>(reqs.size()), reqs.data(), &outcount,
                                     indices.data(), PURE_STATUSES_IGNORE));
        ASSERT_GT(outcount, 0);
        done += static_cast<std::size_t>(outcount);
      }
      // The half's members in world ranks: my parity, ordered by key size - r.
      std::vector<int> members;
      for (int w = size - 1; w >= 0; --w)
        if (w % 2 == me % 2) members.push_back(w);
      for (std::size_t i = 0; i < cc; ++i) {
        const int ii = static_cast<int>(i);
        EXPECT_EQ(bc[i], input(root, ii, 1)) << i;
        EXPECT_EQ(sum[i], sum_inputs(0, size - 1, ii)) << i;
        EXPECT_EQ(bsum[i], sum_inputs(0, size - 1, ii)) << i;
        EXPECT_EQ(scan[i], sum_inputs(0, me, ii)) << i;
        EXPECT_EQ(hmax[i], input(members.front(), ii)) << i;
        EXPECT_EQ(bbc[i], input(members.front(), ii, 3)) << i;
        for (int k = 0; k < size; ++k) {
          EXPECT_EQ(allg[static_cast<std::size_t>(k) * cc + i], input(k, ii)) << k << " " << i;
          EXPECT_EQ(ball[static_cast<std::size_t>(k) * cc + i], input(k, ii)) << k << " " << i;
        }
        for (int k = 0; k < hsize; ++k)
          EXPECT_EQ(hin[static_cast<std::size_t>(k) * cc + i],
                    input(members[static_cast<std::size_t>(k)], hme * count + ii, 2))
              << k << " " << i;
      }
      EXPECT_TRUE(payload_ok(got.data(), cc * 8, key_of(left, count)));
      EXPECT_TRUE(payload_ok(got2.data(), cc * 8, key_of(right, count)));
      EXPECT_PURE_OK(pure_comm_free(&dup));
      EXPECT_PURE_OK(pure_comm_free(&half));
    });
  }
}

// Progress: a rank blocked in a receive (or a blocking collective) keeps
// advancing its nonblocking collectives, whose next rounds others wait for.
TEST_P(NonblockingAmong, ProgressWhileWaitingForSomethingElse) {
  expect_clean_run(n(), [&](int me, int size) {
    int one = 1, sum = 0, token = 0;
    PURE_Request r;
    EXPECT_PURE_OK(pure_iallreduce(&one, &sum, 1, PURE_INT, PURE_SUM, W, &r));
    if (me == 0) {
      // Blocks until the last rank finished its allreduce, which needs our
      // schedule's messages of every round.
      EXPECT_PURE_OK(pure_recv(&token, 1, PURE_INT, size - 1, 5, W, PURE_STATUS_IGNORE));
      EXPECT_EQ(token, size);
    } else if (me == size - 1) {
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
      EXPECT_EQ(sum, size);
      EXPECT_PURE_OK(pure_send(&sum, 1, PURE_INT, 0, 5, W));
    }
    if (r != PURE_REQUEST_NULL) {
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    }
    EXPECT_EQ(sum, size);
    // The same across a blocking barrier.
    EXPECT_PURE_OK(pure_ibarrier(W, &r));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
  });
}

// A rank waiting on a nonblocking collective steals chunks of another
// rank's task: rank 0 joins the barrier only once its task is done, and
// the chunk rank 0 runs waits until another rank has run the other one.
TEST(NonblockingSteal, WaitingRankStealsTaskChunks) {
  expect_clean_run(2, [&](int me, int) {
    static std::atomic<int> others{0};
    if (me == 0) {
      others.store(0);
      PURE_Task_function* chunk = [](PURE_Chunk_id, PURE_Chunk_id, void*, void*) {
        int who = -1;
        pure_comm_rank(W, &who);
        if (who != 0) {
          others.fetch_add(1);
          return;
        }
        PollGuard guard("the owner's chunk waiting for a stolen one");
        while (others.load() == 0) guard();
      };
      EXPECT_PURE_OK(pure_task_execute(chunk, nullptr, 2, nullptr));
      EXPECT_EQ(others.load(), 1);
    }
    PURE_Request r;
    EXPECT_PURE_OK(pure_ibarrier(W, &r));
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
  });
}

// comm_idup: several in flight with other collectives; the new
// communicators work and are independent of the parent.
TEST_P(NonblockingAmong, CommIdup) {
  expect_clean_run(n(), [&](int me, int size) {
    PURE_Comm dup1 = PURE_COMM_NULL, dup2 = PURE_COMM_NULL;
    PURE_Request r[3];
    int one = 1, sum = 0;
    EXPECT_PURE_OK(pure_comm_idup(W, &dup1, &r[0]));
    EXPECT_PURE_OK(pure_iallreduce(&one, &sum, 1, PURE_INT, PURE_SUM, W, &r[1]));
    EXPECT_PURE_OK(pure_comm_idup(W, &dup2, &r[2]));
    EXPECT_PURE_OK(pure_waitall(3, r, PURE_STATUSES_IGNORE));
    EXPECT_EQ(sum, size);
    ASSERT_NE(dup1, PURE_COMM_NULL);
    ASSERT_NE(dup2, PURE_COMM_NULL);
    int result = -1;
    EXPECT_PURE_OK(pure_comm_compare(W, dup1, &result));
    EXPECT_EQ(result, PURE_CONGRUENT);
    EXPECT_PURE_OK(pure_comm_compare(dup1, dup2, &result));
    EXPECT_EQ(result, PURE_CONGRUENT);
    int rank = -1;
    EXPECT_PURE_OK(pure_comm_rank(dup2, &rank));
    EXPECT_EQ(rank, me);
    // Messages on the parent and the duplicates never mix.
    const int right = (me + 1) % size, left = (me + size - 1) % size;
    int a = -1, b = -1, c = -1;
    int va = me, vb = me + 100, vc = me + 200;
    PURE_Request q[6];
    EXPECT_PURE_OK(pure_irecv(&c, 1, PURE_INT, left, 0, dup2, &q[0]));
    EXPECT_PURE_OK(pure_irecv(&b, 1, PURE_INT, left, 0, dup1, &q[1]));
    EXPECT_PURE_OK(pure_irecv(&a, 1, PURE_INT, left, 0, W, &q[2]));
    EXPECT_PURE_OK(pure_isend(&va, 1, PURE_INT, right, 0, W, &q[3]));
    EXPECT_PURE_OK(pure_isend(&vb, 1, PURE_INT, right, 0, dup1, &q[4]));
    EXPECT_PURE_OK(pure_isend(&vc, 1, PURE_INT, right, 0, dup2, &q[5]));
    EXPECT_PURE_OK(pure_waitall(6, q, PURE_STATUSES_IGNORE));
    EXPECT_EQ(a, left);
    EXPECT_EQ(b, left + 100);
    EXPECT_EQ(c, left + 200);
    EXPECT_PURE_OK(pure_allreduce(&one, &sum, 1, PURE_INT, PURE_SUM, dup1));
    EXPECT_EQ(sum, size);
    EXPECT_PURE_OK(pure_iallreduce(&one, &sum, 1, PURE_INT, PURE_SUM, dup2, &r[0]));
    EXPECT_PURE_OK(pure_wait(&r[0], PURE_STATUS_IGNORE));
    EXPECT_EQ(sum, size);
    EXPECT_PURE_OK(pure_comm_free(&dup1));
    EXPECT_PURE_OK(pure_comm_free(&dup2));
  });
}

// Nonblocking collectives never match point-to-point messages, not even
// receives with wildcards posted before them.
TEST_P(NonblockingAmong, NeverMatchUserPointToPoint) {
  expect_clean_run(n(), [&](int me, int size) {
    int got = -1;
    PURE_Request recv, coll;
    EXPECT_PURE_OK(pure_irecv(&got, 1, PURE_INT, PURE_ANY_SOURCE, PURE_ANY_TAG, W, &recv));
    int bval = me == 0 ? 77 : 0;
    EXPECT_PURE_OK(pure_ibcast(&bval, 1, PURE_INT, 0, W, &coll));
    EXPECT_PURE_OK(pure_wait(&coll, PURE_STATUS_IGNORE));
    EXPECT_EQ(bval, 77);
    int flag = 1;
    EXPECT_PURE_OK(pure_test(&recv, &flag, PURE_STATUS_IGNORE));
    EXPECT_EQ(flag, 0) << "the wildcard receive took a collective's message";
    EXPECT_PURE_OK(pure_barrier(W));  // nobody sends before everyone looked
    const int value = 1000 + me;
    EXPECT_PURE_OK(pure_send(&value, 1, PURE_INT, (me + 1) % size, 3, W));
    EXPECT_PURE_OK(pure_wait(&recv, PURE_STATUS_IGNORE));
    EXPECT_EQ(got, 1000 + (me + size - 1) % size);
  });
}

// ---- bad arguments: each names the value and returns MPI's error class ----

TEST(NonblockingErrors, BadArgumentsReturnTheirClass) {
  expect_clean_run(3, [&](int me, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    int x = 1, y = 0;
    PURE_Request r;
    EXPECT_EQ(pure_ibcast(&x, 1, PURE_INT, 3, W, &r), PURE_ERR_ROOT);
    EXPECT_EQ(pure_ibcast(&x, 1, PURE_INT, 0, W, nullptr), PURE_ERR_REQUEST);
    EXPECT_EQ(pure_ibarrier(PURE_COMM_NULL, &r), PURE_ERR_COMM);
    EXPECT_EQ(pure_iallreduce(&x, &y, -1, PURE_INT, PURE_SUM, W, &r), PURE_ERR_COUNT);
    EXPECT_EQ(pure_iallreduce(&x, &y, 1, PURE_DATATYPE_NULL, PURE_SUM, W, &r), PURE_ERR_TYPE);
    EXPECT_EQ(pure_iallreduce(&x, &y, 1, PURE_INT, PURE_OP_NULL, W, &r), PURE_ERR_OP);
    EXPECT_EQ(pure_iallreduce(&x, &y, 1, PURE_FLOAT, PURE_BAND, W, &r), PURE_ERR_OP);
    // PURE_IN_PLACE is the send buffer at the root only.
    if (me != 1) {
      EXPECT_EQ(pure_ireduce(PURE_IN_PLACE, &y, 1, PURE_INT, PURE_SUM, 1, W, &r), PURE_ERR_BUFFER);
    }
    EXPECT_EQ(pure_ireduce(&x, &y, 1, PURE_INT, PURE_SUM, -1, W, &r), PURE_ERR_ROOT);
    EXPECT_EQ(pure_igatherv(&x, 1, PURE_INT, &y, nullptr, nullptr, PURE_INT, me, W, &r), PURE_ERR_ARG);
    EXPECT_EQ(pure_ialltoallw(&x, nullptr, nullptr, nullptr, &y, nullptr, nullptr, nullptr, W, &r),
              PURE_ERR_ARG);
    EXPECT_EQ(pure_comm_idup(W, nullptr, &r), PURE_ERR_ARG);
  });
}

TEST(NonblockingErrors, ActiveCollectiveRequestCannotBeFreedOrCancelled) {
  expect_clean_run(2, [&](int me, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    PURE_Request r;
    if (me == 1) {
      // Rank 0 joins only after our checks: the barrier stays active.
      EXPECT_PURE_OK(pure_ibarrier(W, &r));
      PURE_Request kept = r;
      EXPECT_EQ(pure_request_free(&r), PURE_ERR_REQUEST);
      EXPECT_EQ(r, kept);
      EXPECT_EQ(pure_cancel(&r), PURE_ERR_REQUEST);
      EXPECT_PURE_OK(pure_send(&me, 1, PURE_INT, 0, 0, W));
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
      // The completed handle is stale.
      EXPECT_EQ(pure_wait(&kept, PURE_STATUS_IGNORE), PURE_ERR_REQUEST);
    } else {
      int token;
      EXPECT_PURE_OK(pure_recv(&token, 1, PURE_INT, 1, 0, W, PURE_STATUS_IGNORE));
      EXPECT_PURE_OK(pure_ibarrier(W, &r));
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    }
  });
}

// Counts that disagree between the ranks: the receiving side reports
// PURE_ERR_TRUNCATE when its request completes, naming the sizes.
TEST(NonblockingErrors, CountMismatchIsReportedAtCompletion) {
  const JobResult res = run_ranks_capturing(2, [&](int me, int) {
    std::vector<int> buf(8, 0);
    PURE_Request r;
    EXPECT_PURE_OK(pure_ibcast(buf.data(), me == 0 ? 8 : 4, PURE_INT, 0, W, &r));
    pure_wait(&r, PURE_STATUS_IGNORE);
  });
  EXPECT_NE(res.code, 0);
  EXPECT_NE(res.err.find("rank 1: pure_wait"), std::string::npos) << res.err;
  EXPECT_NE(res.err.find("32 bytes"), std::string::npos) << res.err;
  EXPECT_NE(res.err.find("PURE_ERR_TRUNCATE"), std::string::npos) << res.err;
}

// Reductions of 16 KiB and more run in memory when every member lives in
// the process (nonblocking/direct_reduce.cpp): members that pass different counts are
// told so by every wait, with the sizes, and no output is touched; so are
// members in different reductions, or with other roots or recvcounts. Under
// PURE_ERRORS_RETURN the communicator stays usable.
TEST(NonblockingErrors, ReductionCountMismatchIsReportedByEveryMember) {
  const JobResult res = run_ranks_capturing(3, [&](int me, int) {
    std::vector<double> in(4096, 1.0), out(4096, -1.0);
    PURE_Request r;
    EXPECT_PURE_OK(
        pure_iallreduce(in.data(), out.data(), me == 1 ? 2048 : 4096, PURE_DOUBLE, PURE_SUM, W, &r));
    pure_wait(&r, PURE_STATUS_IGNORE);
  });
  EXPECT_NE(res.code, 0);
  EXPECT_NE(res.err.find("pure_wait"), std::string::npos) << res.err;
  EXPECT_NE(res.err.find("count mismatch: rank 1 passes 16384 bytes of data but rank 0 passes 32768"),
            std::string::npos)
      << res.err;
  EXPECT_NE(res.err.find("PURE_ERR_COUNT"), std::string::npos) << res.err;
}

TEST(NonblockingErrors, ReductionDisagreementsReturnedThenTheCommWorks) {
  expect_clean_run(4, [&](int me, int size) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    std::vector<long long> in(4000, me + 1), out(4000, -1);
    PURE_Request r[3];
    EXPECT_PURE_OK(pure_iallreduce(in.data(), out.data(), me == 2 ? 3999 : 4000, PURE_LONG_LONG,
                                   PURE_SUM, W, &r[0]));
    EXPECT_PURE_OK(pure_ireduce_scatter_block(in.data(), out.data(), me == 0 ? 800 : 1000,
                                              PURE_LONG_LONG, PURE_SUM, W, &r[1]));
    EXPECT_PURE_OK(pure_ireduce(in.data(), out.data(), me == 3 ? 2100 : 2200, PURE_LONG_LONG, PURE_MAX,
                                1, W, &r[2]));
    for (PURE_Request& q : r) EXPECT_EQ(pure_wait(&q, PURE_STATUS_IGNORE), PURE_ERR_COUNT);
    for (long long v : out) ASSERT_EQ(v, -1) << "an output was written despite the mismatch";
    // Same byte counts, other disagreements: the call (an allreduce against
    // a reduce_scatter_block of the same bytes, a reduce against an
    // allreduce), the root, the recvcounts.
    const std::vector<int> even(static_cast<std::size_t>(size), 1000), uneven = [&] {
      std::vector<int> c(static_cast<std::size_t>(size), 1000);
      c[0] = 800;
      c[1] = 1200;
      return c;
    }();
    PURE_Request d[4];
    if (me == 1)
      EXPECT_PURE_OK(pure_ireduce_scatter_block(in.data(), out.data(), 1000, PURE_LONG_LONG,
                                                PURE_SUM, W, &d[0]));
    else
      EXPECT_PURE_OK(pure_iallreduce(in.data(), out.data(), 4000, PURE_LONG_LONG, PURE_SUM, W, &d[0]));
    if (me == 0)
      EXPECT_PURE_OK(pure_ireduce(in.data(), out.data(), 4000, PURE_LONG_LONG, PURE_SUM, 0, W, &d[1]));
    else
      EXPECT_PURE_OK(pure_iallreduce(in.data(), out.data(), 4000, PURE_LONG_LONG, PURE_SUM, W, &d[1]));
    EXPECT_PURE_OK(pure_ireduce(in.data(), out.data(), 4000, PURE_LONG_LONG, PURE_SUM,
                                me == 3 ? 2 : 1, W, &d[2]));
    EXPECT_PURE_OK(pure_ireduce_scatter(in.data(), out.data(), me == 2 ? uneven.data() : even.data(),
                                        PURE_LONG_LONG, PURE_SUM, W, &d[3]));
    EXPECT_EQ(pure_wait(&d[0], PURE_STATUS_IGNORE), PURE_ERR_OTHER);
    EXPECT_EQ(pure_wait(&d[1], PURE_STATUS_IGNORE), PURE_ERR_OTHER);
    EXPECT_EQ(pure_wait(&d[2], PURE_STATUS_IGNORE), PURE_ERR_ROOT);
    EXPECT_EQ(pure_wait(&d[3], PURE_STATUS_IGNORE), PURE_ERR_COUNT);
    for (long long v : out) ASSERT_EQ(v, -1) << "an output was written despite the mismatch";
    PURE_Request ok;
    EXPECT_PURE_OK(pure_iallreduce(in.data(), out.data(), 4000, PURE_LONG_LONG, PURE_SUM, W, &ok));
    EXPECT_PURE_OK(pure_wait(&ok, PURE_STATUS_IGNORE));
    for (long long v : out) ASSERT_EQ(v, static_cast<long long>(size) * (size + 1) / 2);
  });
}

}  // namespace
}  // namespace pure_testing
