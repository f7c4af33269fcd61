// Nonblocking collectives through the flat API, at 2 to 16 rank threads:
// every collective, several in flight on one communicator completed in
// reverse order and through every completion call, mixed with
// point-to-point requests; non-commutative ops in rank order; derived
// datatypes; in-place forms. Every byte of every result is checked. (Among
// the rest of a program, and bad arguments: nonblocking_interplay_test.cpp.)
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

class Nonblocking : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};
INSTANTIATE_TEST_SUITE_P(, Nonblocking, pure_testing::rank_sweep({2, 3, 4, 5, 8, 16}), rank_count_name);


// Every collective started, in one order on every rank, then completed in
// reverse order with pure_wait; point-to-point requests in between.
void every_collective_reverse(int me, int n, int count) {
  const int root = n - 1;
  std::vector<PURE_Request> reqs;
  PURE_Request r = PURE_REQUEST_NULL;
  // Called with the call's result, after the call stored its request in r.
  auto add = [&](int rc) {
    EXPECT_PURE_OK(rc);
    reqs.push_back(r);
  };

  add(pure_ibarrier(W, &r));

  std::vector<long long> bc(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) bc[static_cast<std::size_t>(i)] = me == root ? input(root, i, 1) : -1;
  add(pure_ibcast(bc.data(), count, PURE_LONG_LONG, root, W, &r));

  // A point-to-point exchange around the ring, on the same communicator.
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  std::vector<char> p2p_out = make_payload(static_cast<std::size_t>(count) * 3, key_of(me, right, 7));
  std::vector<char> p2p_in(p2p_out.size());
  add(pure_irecv(p2p_in.data(), static_cast<int>(p2p_in.size()), PURE_BYTE, left, 7, W, &r));
  add(pure_isend(p2p_out.data(), static_cast<int>(p2p_out.size()), PURE_BYTE, right, 7, W, &r));

  std::vector<long long> in(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = input(me, i);
  std::vector<long long> red(static_cast<std::size_t>(count), -1), all(red), scan(red), exscan(red);
  add(pure_ireduce(in.data(), red.data(), count, PURE_LONG_LONG, PURE_SUM, root, W, &r));
  add(pure_iallreduce(in.data(), all.data(), count, PURE_LONG_LONG, PURE_SUM, W, &r));
  add(pure_iscan(in.data(), scan.data(), count, PURE_LONG_LONG, PURE_SUM, W, &r));
  add(pure_iexscan(in.data(), exscan.data(), count, PURE_LONG_LONG, PURE_SUM, W, &r));

  const std::size_t nn = static_cast<std::size_t>(n), cc = static_cast<std::size_t>(count);
  std::vector<long long> gathered(nn * cc, -1), scattered(cc, -1), allgathered(nn * cc, -1);
  std::vector<long long> to_scatter(nn * cc);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < count; ++i) to_scatter[static_cast<std::size_t>(k) * cc + static_cast<std::size_t>(i)] = input(k, i, 2);
  add(pure_igather(in.data(), count, PURE_LONG_LONG, gathered.data(), count, PURE_LONG_LONG, 0, W, &r));
  add(pure_iscatter(to_scatter.data(), count, PURE_LONG_LONG, scattered.data(), count,
                    PURE_LONG_LONG, 0, W, &r));
  add(pure_iallgather(in.data(), count, PURE_LONG_LONG, allgathered.data(), count, PURE_LONG_LONG,
                      W, &r));

  // v-variants: member k contributes k + 1 + count items.
  std::vector<int> vcounts(nn), vdispls(nn);
  int total = 0;
  for (int k = 0; k < n; ++k) {
    vcounts[static_cast<std::size_t>(k)] = k + 1 + count;
    vdispls[static_cast<std::size_t>(k)] = total + 1;  // a gap of one between blocks
    total += k + 2 + count;
  }
  std::vector<long long> vin(static_cast<std::size_t>(me + 1 + count));
  for (std::size_t i = 0; i < vin.size(); ++i) vin[i] = input(me, static_cast<int>(i), 3);
  std::vector<long long> gv(static_cast<std::size_t>(total), -1), agv(static_cast<std::size_t>(total), -1);
  std::vector<long long> sv_src(static_cast<std::size_t>(total), -1), sv(vin.size(), -1);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < vcounts[static_cast<std::size_t>(k)]; ++i)
      sv_src[static_cast<std::size_t>(vdispls[static_cast<std::size_t>(k)] + i)] = input(k, i, 4);
  add(pure_igatherv(vin.data(), me + 1 + count, PURE_LONG_LONG, gv.data(), vcounts.data(),
                    vdispls.data(), PURE_LONG_LONG, root, W, &r));
  add(pure_iscatterv(sv_src.data(), vcounts.data(), vdispls.data(), PURE_LONG_LONG, sv.data(),
                     me + 1 + count, PURE_LONG_LONG, root, W, &r));
  add(pure_iallgatherv(vin.data(), me + 1 + count, PURE_LONG_LONG, agv.data(), vcounts.data(),
                       vdispls.data(), PURE_LONG_LONG, W, &r));

  // alltoall: block for k is input(me, k * count + i, 5).
  std::vector<long long> a2a_out(nn * cc), a2a_in(nn * cc, -1);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < count; ++i)
      a2a_out[static_cast<std::size_t>(k) * cc + static_cast<std::size_t>(i)] = input(me, k * count + i, 5);
  add(pure_ialltoall(a2a_out.data(), count, PURE_LONG_LONG, a2a_in.data(), count, PURE_LONG_LONG,
                     W, &r));
  // alltoallv: to k, (me + k) % 3 + count items.
  std::vector<int> sc(nn), sd(nn), rc(nn), rd(nn);
  int stotal = 0, rtotal = 0;
  for (int k = 0; k < n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    sc[kk] = (me + k) % 3 + count;
    sd[kk] = stotal;
    stotal += sc[kk];
    rc[kk] = (k + me) % 3 + count;
    rd[kk] = rtotal;
    rtotal += rc[kk];
  }
  std::vector<long long> v_out(static_cast<std::size_t>(stotal)), v_in(static_cast<std::size_t>(rtotal), -1);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < sc[static_cast<std::size_t>(k)]; ++i)
      v_out[static_cast<std::size_t>(sd[static_cast<std::size_t>(k)] + i)] = input(me, k * 100 + i, 6);
  add(pure_ialltoallv(v_out.data(), sc.data(), sd.data(), PURE_LONG_LONG, v_in.data(), rc.data(),
                      rd.data(), PURE_LONG_LONG, W, &r));
  // alltoallw: the same, with byte displacements and per-peer types.
  std::vector<int> sdb(nn), rdb(nn);
  std::vector<PURE_Datatype> types(nn, PURE_LONG_LONG);
  for (std::size_t k = 0; k < nn; ++k) {
    sdb[k] = sd[k] * 8;
    rdb[k] = rd[k] * 8;
  }
  std::vector<long long> w_in(static_cast<std::size_t>(rtotal), -1);
  add(pure_ialltoallw(v_out.data(), sc.data(), sdb.data(), types.data(), w_in.data(), rc.data(),
                      rdb.data(), types.data(), W, &r));

  // reduce_scatter: member k gets k % 2 + count items.
  std::vector<int> rs_counts(nn);
  int rs_total = 0;
  for (int k = 0; k < n; ++k) rs_total += rs_counts[static_cast<std::size_t>(k)] = k % 2 + count;
  std::vector<long long> rs_in(static_cast<std::size_t>(rs_total));
  for (int i = 0; i < rs_total; ++i) rs_in[static_cast<std::size_t>(i)] = input(me, i, 8);
  std::vector<long long> rs_out(static_cast<std::size_t>(me % 2 + count), -1);
  add(pure_ireduce_scatter(rs_in.data(), rs_out.data(), rs_counts.data(), PURE_LONG_LONG, PURE_SUM,
                           W, &r));
  std::vector<long long> rsb_in(nn * cc), rsb_out(cc, -1);
  for (std::size_t i = 0; i < rsb_in.size(); ++i) rsb_in[i] = input(me, static_cast<int>(i), 9);
  add(pure_ireduce_scatter_block(rsb_in.data(), rsb_out.data(), count, PURE_LONG_LONG, PURE_SUM, W,
                                 &r));

  // Complete in reverse order.
  for (std::size_t k = reqs.size(); k-- > 0;) {
    PURE_Status st;
    EXPECT_PURE_OK(pure_wait(&reqs[k], &st));
    EXPECT_EQ(reqs[k], PURE_REQUEST_NULL);
  }

  const std::string at = " (rank " + std::to_string(me) + " of " + std::to_string(n) + ", count " +
                         std::to_string(count) + ")";
  for (int i = 0; i < count; ++i) {
    const std::size_t ii = static_cast<std::size_t>(i);
    ASSERT_EQ(bc[ii], input(root, i, 1)) << "ibcast" << at;
    if (me == root) {
      ASSERT_EQ(red[ii], sum_inputs(0, n - 1, i)) << "ireduce" << at;
    }
    ASSERT_EQ(all[ii], sum_inputs(0, n - 1, i)) << "iallreduce" << at;
    ASSERT_EQ(scan[ii], sum_inputs(0, me, i)) << "iscan" << at;
    if (me > 0) {
      ASSERT_EQ(exscan[ii], sum_inputs(0, me - 1, i)) << "iexscan" << at;
    }
    ASSERT_EQ(scattered[ii], input(me, i, 2)) << "iscatter" << at;
    ASSERT_EQ(rsb_out[ii], sum_inputs(0, n - 1, me * count + i, 9)) << "ireduce_scatter_block" << at;
    for (int k = 0; k < n; ++k) {
      const std::size_t at_k = static_cast<std::size_t>(k) * cc + ii;
      if (me == 0) {
        ASSERT_EQ(gathered[at_k], input(k, i)) << "igather" << at;
      }
      ASSERT_EQ(allgathered[at_k], input(k, i)) << "iallgather" << at;
      ASSERT_EQ(a2a_in[at_k], input(k, me * count + i, 5)) << "ialltoall" << at;
    }
  }
  if (me == 0) {
    for (int i = 0; i < count; ++i) {
      EXPECT_EQ(exscan[static_cast<std::size_t>(i)], -1) << "iexscan rank 0 untouched" << at;
    }
  }
  EXPECT_TRUE(payload_ok(p2p_in.data(), p2p_in.size(), key_of(left, me, 7))) << "p2p" << at;
  for (int k = 0; k < n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    for (int i = 0; i < vcounts[kk]; ++i) {
      const std::size_t pos = static_cast<std::size_t>(vdispls[kk] + i);
      if (me == root) {
        ASSERT_EQ(gv[pos], input(k, i, 3)) << "igatherv" << at;
      }
      ASSERT_EQ(agv[pos], input(k, i, 3)) << "iallgatherv" << at;
    }
    // The gaps stay untouched.
    if (me == root) {
      ASSERT_EQ(gv[static_cast<std::size_t>(vdispls[kk] - 1)], -1) << "igatherv gap" << at;
    }
    ASSERT_EQ(agv[static_cast<std::size_t>(vdispls[kk] - 1)], -1) << "iallgatherv gap" << at;
    for (int i = 0; i < rc[kk]; ++i) {
      const std::size_t pos = static_cast<std::size_t>(rd[kk] + i);
      ASSERT_EQ(v_in[pos], input(k, me * 100 + i, 6)) << "ialltoallv" << at;
      ASSERT_EQ(w_in[pos], input(k, me * 100 + i, 6)) << "ialltoallw" << at;
    }
  }
  for (std::size_t i = 0; i < sv.size(); ++i) {
    ASSERT_EQ(sv[i], input(me, static_cast<int>(i), 4)) << "iscatterv" << at;
  }
  int first = 0;
  for (int k = 0; k < me; ++k) first += rs_counts[static_cast<std::size_t>(k)];
  for (std::size_t i = 0; i < rs_out.size(); ++i)
    ASSERT_EQ(rs_out[i], sum_inputs(0, n - 1, first + static_cast<int>(i), 8)) << "ireduce_scatter" << at;
}

TEST_P(Nonblocking, EveryCollectiveInFlightCompletedInReverseOrder) {
  expect_clean_run(n(), [&](int me, int size) {
    for (int count : {1, 5, 300}) every_collective_reverse(me, size, count);
  });
}

// Large reductions take the ring (reduce-scatter, allgather); counts that
// do not divide by the ranks, and fewer items than ranks, included.
TEST_P(Nonblocking, LargeAllreduceAndReduceScatter) {
  expect_clean_run(n(), [&](int me, int size) {
    for (int count : {3, 9000, 100003}) {
      std::vector<double> in(static_cast<std::size_t>(count)), out(in.size(), -1);
      for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = static_cast<double>(input(me, i));
      PURE_Request r;
      EXPECT_PURE_OK(pure_iallreduce(in.data(), out.data(), count, PURE_DOUBLE, PURE_SUM, W, &r));
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
      for (int i = 0; i < count; ++i)
        ASSERT_EQ(out[static_cast<std::size_t>(i)], static_cast<double>(sum_inputs(0, size - 1, i)))
            << "count " << count << " element " << i;
      // In place, with MAX.
      std::vector<int> mx(static_cast<std::size_t>(count));
      for (int i = 0; i < count; ++i) mx[static_cast<std::size_t>(i)] = (i * 31 + me * 17) % 1000;
      EXPECT_PURE_OK(pure_iallreduce(PURE_IN_PLACE, mx.data(), count, PURE_INT, PURE_MAX, W, &r));
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
      for (int i = 0; i < count; ++i) {
        int want = 0;
        for (int k = 0; k < size; ++k) want = std::max(want, (i * 31 + k * 17) % 1000);
        ASSERT_EQ(mx[static_cast<std::size_t>(i)], want) << "max in place, element " << i;
      }
      // reduce_scatter_block in place: the result lands at the front.
      const int each = count / size + 1;
      std::vector<long long> rs(static_cast<std::size_t>(each * size));
      for (std::size_t i = 0; i < rs.size(); ++i) rs[i] = input(me, static_cast<int>(i));
      EXPECT_PURE_OK(pure_ireduce_scatter_block(PURE_IN_PLACE, rs.data(), each, PURE_LONG_LONG,
                                                PURE_SUM, W, &r));
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
      for (int i = 0; i < each; ++i)
        ASSERT_EQ(rs[static_cast<std::size_t>(i)], sum_inputs(0, size - 1, me * each + i))
            << "reduce_scatter_block in place, element " << i;
    }
  });
}

// Large reductions in flight together, some in place and one with a
// datatype that has gaps (packed and unpacked around the fold), waited in
// the reverse of their order: every member's slice of every output is
// written by another member while it waits on something else.
TEST_P(Nonblocking, LargeReductionsInFlightTogether) {
  expect_clean_run(n(), [&](int me, int size) {
    const int count = 100003;
    const std::size_t cc = static_cast<std::size_t>(count);
    std::vector<std::vector<double>> in(3, std::vector<double>(cc)), out(3, std::vector<double>(cc, -1));
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < count; ++i)
        in[static_cast<std::size_t>(c)][static_cast<std::size_t>(i)] = static_cast<double>(input(me, i + c));
    std::vector<long long> inplace(cc);
    for (int i = 0; i < count; ++i) inplace[static_cast<std::size_t>(i)] = input(me, i, 3);
    PURE_Datatype gaps;  // every other int
    EXPECT_PURE_OK(pure_type_vector(count, 1, 2, PURE_INT, &gaps));
    EXPECT_PURE_OK(pure_type_commit(&gaps));
    std::vector<int> gin(2 * cc, -5), gout(2 * cc, -7);
    for (int i = 0; i < count; ++i) gin[2 * static_cast<std::size_t>(i)] = (i + me) % 1000;
    // reduce_scatter with uneven blocks (over 16 KiB in all, so in memory).
    std::vector<int> counts(static_cast<std::size_t>(size));
    int total = 0;
    for (int k = 0; k < size; ++k) total += counts[static_cast<std::size_t>(k)] = 10 * (k + 1) + 2777;
    std::vector<long long> rs_in(static_cast<std::size_t>(total)), rs_out(static_cast<std::size_t>(counts[static_cast<std::size_t>(me)]), -1);
    for (int i = 0; i < total; ++i) rs_in[static_cast<std::size_t>(i)] = input(me, i, 5);
    const int root = size - 1;
    std::vector<PURE_Request> r(7);
    EXPECT_PURE_OK(pure_iallreduce(in[0].data(), out[0].data(), count, PURE_DOUBLE, PURE_SUM, W, &r[0]));
    EXPECT_PURE_OK(pure_iallreduce(PURE_IN_PLACE, inplace.data(), count, PURE_LONG_LONG, PURE_SUM, W, &r[1]));
    EXPECT_PURE_OK(pure_ireduce(in[1].data(), out[1].data(), count, PURE_DOUBLE, PURE_MAX, root, W, &r[2]));
    EXPECT_PURE_OK(pure_iallreduce(gin.data(), gout.data(), 1, gaps, PURE_MAX, W, &r[3]));
    EXPECT_PURE_OK(pure_type_free(&gaps));
    EXPECT_PURE_OK(pure_ireduce_scatter(rs_in.data(), rs_out.data(), counts.data(), PURE_LONG_LONG, PURE_SUM, W, &r[4]));
    EXPECT_PURE_OK(pure_iallreduce(in[2].data(), out[2].data(), count, PURE_DOUBLE, PURE_MIN, W, &r[5]));
    std::vector<double> own(in[2]);  // in place at the root: its input is its output
    EXPECT_PURE_OK(pure_ireduce(me == 0 ? PURE_IN_PLACE : own.data(), own.data(), count, PURE_DOUBLE,
                                PURE_SUM, 0, W, &r[6]));
    for (std::size_t k = r.size(); k-- > 0;) EXPECT_PURE_OK(pure_wait(&r[k], PURE_STATUS_IGNORE));
    for (int i = 0; i < count; ++i) {
      const std::size_t ii = static_cast<std::size_t>(i);
      ASSERT_EQ(out[0][ii], static_cast<double>(sum_inputs(0, size - 1, i))) << "allreduce, element " << i;
      ASSERT_EQ(inplace[ii], sum_inputs(0, size - 1, i, 3)) << "allreduce in place, element " << i;
      double most = -1e300, least = 1e300, sum2 = 0;
      int gmost = 0;
      for (int k = 0; k < size; ++k) {
        most = std::max(most, static_cast<double>(input(k, i + 1)));
        least = std::min(least, static_cast<double>(input(k, i + 2)));
        sum2 += static_cast<double>(input(k, i + 2));
        gmost = std::max(gmost, (i + k) % 1000);
      }
      ASSERT_EQ(out[1][ii], me == root ? most : -1)
          << "reduce to the last rank (non-roots' buffers untouched), element " << i;
      ASSERT_EQ(gout[2 * ii], gmost) << "allreduce of a type with gaps, element " << i;
      ASSERT_EQ(gout[2 * ii + 1], -7) << "the gaps stay untouched";
      ASSERT_EQ(out[2][ii], least) << "allreduce min, element " << i;
      ASSERT_EQ(own[ii], me == 0 ? sum2 : in[2][ii])
          << "reduce in place at the root (others' buffers untouched), element " << i;
    }
    int first = 0;
    for (int k = 0; k < me; ++k) first += counts[static_cast<std::size_t>(k)];
    for (std::size_t i = 0; i < rs_out.size(); ++i)
      ASSERT_EQ(rs_out[i], sum_inputs(0, size - 1, first + static_cast<int>(i), 5)) << "reduce_scatter, element " << i;
  });
}

// A non-commutative op is applied in rank order: reduce (to every root),
// allreduce, scan, exscan and reduce_scatter.
TEST_P(Nonblocking, NonCommutativeOpsInRankOrder) {
  using coll_test::Affine;
  expect_clean_run(n(), [&](int me, int size) {
    PURE_Datatype pair;
    EXPECT_PURE_OK(pure_type_contiguous(2, PURE_LONG_LONG, &pair));
    EXPECT_PURE_OK(pure_type_commit(&pair));
    PURE_Op op;
    EXPECT_PURE_OK(pure_op_create(coll_test::compose, 0, &op));
    for (int count : {1, 4, 40000}) {
      std::vector<Affine> in(static_cast<std::size_t>(count));
      for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = coll_test::affine_of(me, i);
      std::vector<Affine> all(in.size(), Affine{-1, -1}), scan(all), exscan(all), red(all);
      std::vector<PURE_Request> reqs(4 + static_cast<std::size_t>(size));
      EXPECT_PURE_OK(pure_iallreduce(in.data(), all.data(), count, pair, op, W, &reqs[0]));
      EXPECT_PURE_OK(pure_iscan(in.data(), scan.data(), count, pair, op, W, &reqs[1]));
      EXPECT_PURE_OK(pure_iexscan(in.data(), exscan.data(), count, pair, op, W, &reqs[2]));
      std::vector<std::vector<Affine>> reduced(static_cast<std::size_t>(size), all);
      for (int root = 0; root < size; ++root)
        EXPECT_PURE_OK(pure_ireduce(in.data(), reduced[static_cast<std::size_t>(root)].data(), count,
                                    pair, op, root, W, &reqs[3 + static_cast<std::size_t>(root)]));
      std::vector<int> counts(static_cast<std::size_t>(size), count);
      std::vector<Affine> rs_in(static_cast<std::size_t>(count * size));
      for (int i = 0; i < count * size; ++i) rs_in[static_cast<std::size_t>(i)] = coll_test::affine_of(me, i);
      std::vector<Affine> rs_out(static_cast<std::size_t>(count), Affine{-1, -1});
      EXPECT_PURE_OK(pure_ireduce_scatter(rs_in.data(), rs_out.data(), counts.data(), pair, op, W,
                                          &reqs.back()));
      EXPECT_PURE_OK(pure_waitall(static_cast<int>(reqs.size()), reqs.data(), PURE_STATUSES_IGNORE));
      for (int i = 0; i < count; ++i) {
        const std::size_t ii = static_cast<std::size_t>(i);
        const Affine whole = coll_test::fold_affine(0, size - 1, i);
        ASSERT_TRUE(all[ii].a == whole.a && all[ii].b == whole.b) << "iallreduce element " << i;
        const Affine upto = coll_test::fold_affine(0, me, i);
        ASSERT_TRUE(scan[ii].a == upto.a && scan[ii].b == upto.b) << "iscan element " << i;
        if (me > 0) {
          const Affine below = coll_test::fold_affine(0, me - 1, i);
          ASSERT_TRUE(exscan[ii].a == below.a && exscan[ii].b == below.b) << "iexscan element " << i;
        }
        const Affine mine = reduced[static_cast<std::size_t>(me)][ii];
        ASSERT_TRUE(mine.a == whole.a && mine.b == whole.b) << "ireduce at root " << me << ", element " << i;
        const Affine part = coll_test::fold_affine(0, size - 1, me * count + i);
        ASSERT_TRUE(rs_out[ii].a == part.a && rs_out[ii].b == part.b)
            << "ireduce_scatter element " << i;
      }
    }
    EXPECT_PURE_OK(pure_op_free(&op));
    EXPECT_PURE_OK(pure_type_free(&pair));
  });
}

// Strided datatypes on both sides; the type may be freed while the
// collective is in flight.
TEST_P(Nonblocking, DerivedDatatypes) {
  expect_clean_run(n(), [&](int me, int size) {
    const int count = 257;
    PURE_Datatype strided;
    EXPECT_PURE_OK(pure_type_vector(count, 1, 3, PURE_INT, &strided));
    EXPECT_PURE_OK(pure_type_commit(&strided));
    std::vector<int> buf(static_cast<std::size_t>(count) * 3, -7), sum(buf);
    for (int i = 0; i < count; ++i) buf[static_cast<std::size_t>(i) * 3] = me == 1 % size ? i * 5 + 1 : -1;
    std::vector<int> in(static_cast<std::size_t>(count) * 3, -7);
    for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i) * 3] = me + i;
    PURE_Request r[2];
    EXPECT_PURE_OK(pure_ibcast(buf.data(), 1, strided, 1 % size, W, &r[0]));
    EXPECT_PURE_OK(pure_iallreduce(in.data(), sum.data(), 1, strided, PURE_SUM, W, &r[1]));
    EXPECT_PURE_OK(pure_type_free(&strided));
    EXPECT_PURE_OK(pure_waitall(2, r, PURE_STATUSES_IGNORE));
    for (int i = 0; i < count; ++i) {
      const std::size_t at = static_cast<std::size_t>(i) * 3;
      ASSERT_EQ(buf[at], i * 5 + 1) << "ibcast element " << i;
      ASSERT_EQ(sum[at], size * (size - 1) / 2 + size * i) << "iallreduce element " << i;
      ASSERT_EQ(buf[at + 1], -7);
      ASSERT_EQ(sum[at + 2], -7) << "the gaps stay untouched";
    }
  });
}

// In-place forms of the data-moving collectives.
TEST_P(Nonblocking, InPlace) {
  expect_clean_run(n(), [&](int me, int size) {
    const int count = 3;
    const std::size_t nn = static_cast<std::size_t>(size), cc = count;
    std::vector<long long> g(nn * cc, -1), ag(nn * cc, -1), a2a(nn * cc), sc(nn * cc, -1);
    for (int i = 0; i < count; ++i) {
      g[static_cast<std::size_t>(me) * cc + static_cast<std::size_t>(i)] = input(me, i);
      ag[static_cast<std::size_t>(me) * cc + static_cast<std::size_t>(i)] = input(me, i, 1);
    }
    for (int k = 0; k < size; ++k)
      for (int i = 0; i < count; ++i) {
        a2a[static_cast<std::size_t>(k) * cc + static_cast<std::size_t>(i)] = input(me, k * count + i, 2);
        if (me == 0) sc[static_cast<std::size_t>(k) * cc + static_cast<std::size_t>(i)] = input(k, i, 3);
      }
    PURE_Request r[4];
    if (me == 0)
      EXPECT_PURE_OK(pure_igather(PURE_IN_PLACE, count, PURE_LONG_LONG, g.data(), count,
                                  PURE_LONG_LONG, 0, W, &r[0]));
    else
      EXPECT_PURE_OK(pure_igather(&g[static_cast<std::size_t>(me) * cc], count, PURE_LONG_LONG,
                                  nullptr, 0, PURE_LONG_LONG, 0, W, &r[0]));
    EXPECT_PURE_OK(pure_iallgather(PURE_IN_PLACE, 0, PURE_DATATYPE_NULL, ag.data(), count,
                                   PURE_LONG_LONG, W, &r[1]));
    EXPECT_PURE_OK(pure_ialltoall(PURE_IN_PLACE, 0, PURE_DATATYPE_NULL, a2a.data(), count,
                                  PURE_LONG_LONG, W, &r[2]));
    std::vector<long long> mine(cc, -1);
    if (me == 0)
      EXPECT_PURE_OK(pure_iscatter(sc.data(), count, PURE_LONG_LONG, PURE_IN_PLACE, count,
                                   PURE_LONG_LONG, 0, W, &r[3]));
    else
      EXPECT_PURE_OK(pure_iscatter(nullptr, 0, PURE_LONG_LONG, mine.data(), count, PURE_LONG_LONG,
                                   0, W, &r[3]));
    EXPECT_PURE_OK(pure_waitall(4, r, PURE_STATUSES_IGNORE));
    for (int k = 0; k < size; ++k)
      for (int i = 0; i < count; ++i) {
        const std::size_t at = static_cast<std::size_t>(k) * cc + static_cast<std::size_t>(i);
        if (me == 0) {
          ASSERT_EQ(g[at], input(k, i)) << "igather in place";
        }
        ASSERT_EQ(ag[at], input(k, i, 1)) << "iallgather in place";
        ASSERT_EQ(a2a[at], input(k, me * count + i, 2)) << "ialltoall in place";
      }
    if (me != 0)
      for (int i = 0; i < count; ++i) {
        ASSERT_EQ(mine[static_cast<std::size_t>(i)], input(me, i, 3));
      }
    // alltoallw in place, blocking and not: the send arguments are ignored
    // (null here, as MPI allows), the receive blocks go out and come back.
    std::vector<int> counts(nn, count), displs(nn);
    std::vector<PURE_Datatype> types(nn, PURE_LONG_LONG);
    for (int k = 0; k < size; ++k) displs[static_cast<std::size_t>(k)] = k * count * 8;
    for (const bool blocking : {true, false}) {
      for (int k = 0; k < size; ++k)
        for (int i = 0; i < count; ++i)
          a2a[static_cast<std::size_t>(k) * cc + static_cast<std::size_t>(i)] =
              input(me, k * count + i, blocking ? 4 : 5);
      if (blocking) {
        EXPECT_PURE_OK(pure_alltoallw(PURE_IN_PLACE, nullptr, nullptr, nullptr, a2a.data(),
                                      counts.data(), displs.data(), types.data(), W));
      } else {
        PURE_Request w;
        EXPECT_PURE_OK(pure_ialltoallw(PURE_IN_PLACE, nullptr, nullptr, nullptr, a2a.data(),
                                       counts.data(), displs.data(), types.data(), W, &w));
        EXPECT_PURE_OK(pure_wait(&w, PURE_STATUS_IGNORE));
      }
      for (int k = 0; k < size; ++k)
        for (int i = 0; i < count; ++i)
          ASSERT_EQ(a2a[static_cast<std::size_t>(k) * cc + static_cast<std::size_t>(i)],
                    input(k, me * count + i, blocking ? 4 : 5))
              << (blocking ? "alltoallw" : "ialltoallw") << " in place, from " << k;
    }
  });
}

// Collectives and point-to-point requests in one array, completed through
// waitany, waitsome, testany, testsome, testall and waitall.
TEST_P(Nonblocking, MixedArraysThroughEveryCompletionCall) {
  expect_clean_run(n(), [&](int me, int size) {
    const int right = (me + 1) % size, left = (me + size - 1) % size;
    for (int call = 0; call < 6; ++call) {
      std::vector<PURE_Request> reqs(6);
      int sum = -1, bval = me == 0 ? 42 + call : -1, one = me + call;
      std::vector<char> out = make_payload(10000, key_of(me, call)), in(10000);
      EXPECT_PURE_OK(pure_irecv(in.data(), 10000, PURE_BYTE, left, call, W, &reqs[0]));
      EXPECT_PURE_OK(pure_iallreduce(&one, &sum, 1, PURE_INT, PURE_SUM, W, &reqs[1]));
      EXPECT_PURE_OK(pure_ibarrier(W, &reqs[2]));
      EXPECT_PURE_OK(pure_isend(out.data(), 10000, PURE_BYTE, right, call, W, &reqs[3]));
      EXPECT_PURE_OK(pure_ibcast(&bval, 1, PURE_INT, 0, W, &reqs[4]));
      reqs[5] = PURE_REQUEST_NULL;
      int done = 0;
      PollGuard guard("mixed completion");
      while (done < 5) {
        int index = -1, flag = 0, outcount = 0;
        std::vector<int> indices(6);
        std::vector<PURE_Status> st(6);
        switch (call) {
          case 0:
            EXPECT_PURE_OK(pure_waitany(6, reqs.data(), &index, &st[0]));
            ASSERT_NE(index, PURE_UNDEFINED);
            ++done;
            break;
          case 1:
            EXPECT_PURE_OK(pure_waitsome(6, reqs.data(), &outcount, indices.data(), st.data()));
            ASSERT_GT(outcount, 0);
            done += outcount;
            break;
          case 2:
            EXPECT_PURE_OK(pure_testany(6, reqs.data(), &index, &flag, &st[0]));
            done += flag;
            guard();
            break;
          case 3:
            EXPECT_PURE_OK(pure_testsome(6, reqs.data(), &outcount, indices.data(), st.data()));
            done += outcount;
            guard();
            break;
          case 4:
            EXPECT_PURE_OK(pure_testall(6, reqs.data(), &flag, st.data()));
            if (flag) done = 5;
            guard();
            break;
          default:
            EXPECT_PURE_OK(pure_waitall(6, reqs.data(), st.data()));
            done = 5;
        }
      }
      for (PURE_Request q : reqs) {
        EXPECT_EQ(q, PURE_REQUEST_NULL);
      }
      int idx = 0;
      EXPECT_PURE_OK(pure_waitany(6, reqs.data(), &idx, PURE_STATUS_IGNORE));
      EXPECT_EQ(idx, PURE_UNDEFINED);
      EXPECT_EQ(sum, size * (size - 1) / 2 + size * call);
      EXPECT_EQ(bval, 42 + call);
      EXPECT_TRUE(payload_ok(in.data(), 10000, key_of(left, call)));
    }
  });
}

// Many collectives in flight on one communicator and on a split of it.
TEST_P(Nonblocking, ManyInFlightOnSeveralCommunicators) {
  expect_clean_run(n(), [&](int me, int size) {
    PURE_Comm half;
    EXPECT_PURE_OK(pure_comm_split(W, me % 2, -me, &half));
    int hme, hsize;
    pure_comm_rank(half, &hme);
    pure_comm_size(half, &hsize);
    const int k = 64;
    std::vector<PURE_Request> reqs;
    std::vector<int> ins(2 * k), outs(2 * k, -1);
    for (int i = 0; i < k; ++i) {
      ins[static_cast<std::size_t>(2 * i)] = me * i;
      ins[static_cast<std::size_t>(2 * i + 1)] = me + i;
      PURE_Request r;
      EXPECT_PURE_OK(pure_iallreduce(&ins[static_cast<std::size_t>(2 * i)], &outs[static_cast<std::size_t>(2 * i)], 1, PURE_INT, PURE_SUM, W, &r));
      reqs.push_back(r);
      EXPECT_PURE_OK(pure_iallreduce(&ins[static_cast<std::size_t>(2 * i + 1)], &outs[static_cast<std::size_t>(2 * i + 1)], 1, PURE_INT, PURE_MAX, half, &r));
      reqs.push_back(r);
    }
    // Odd positions first, then even, each backwards.
    for (int parity = 1; parity >= 0; --parity)
      for (int i = k - 1; i >= 0; --i)
        EXPECT_PURE_OK(pure_wait(&reqs[static_cast<std::size_t>(2 * i + parity)], PURE_STATUS_IGNORE));
    int hmax = -1;  // the largest world rank of my half
    for (int r = 0; r < size; ++r)
      if (r % 2 == me % 2) hmax = r;
    for (int i = 0; i < k; ++i) {
      EXPECT_EQ(outs[static_cast<std::size_t>(2 * i)], i * size * (size - 1) / 2) << "world sum " << i;
      EXPECT_EQ(outs[static_cast<std::size_t>(2 * i + 1)], hmax + i) << "half max " << i;
    }
    (void)hme;
    (void)hsize;
    EXPECT_PURE_OK(pure_comm_free(&half));
  });
}

}  // namespace
}  // namespace pure_testing
