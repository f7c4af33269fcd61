// Nonblocking collectives through the flat API, at 2 to 16 rank threads:
// every collective, several in flight on one communicator completed in
// reverse order and through every completion call, mixed with
// point-to-point requests; non-commutative ops in rank order; derived
// datatypes; in-place forms; progress while a rank waits for something
// else; comm_idup; bad arguments. Every byte of every result is checked.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "collectives_harness.h"
#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class Nonblocking : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};
INSTANTIATE_TEST_SUITE_P(, Nonblocking, testing::Values(2, 3, 4, 5, 8, 16), rank_count_name);

// Rank r's input element i (exact in doubles and long longs for the sums here).
long long input(int r, int i, int salt = 0) { return (r + 1) * 1000003LL + i * 7 + salt; }
long long sum_inputs(int lo, int hi, int i, int salt = 0) {
  long long s = 0;
  for (int r = lo; r <= hi; ++r) s += input(r, i, salt);
  return s;
}

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

// Nonblocking collectives outstanding on the world, a duplicate and a split
// while the ranks run blocking collectives and point-to-point on the same
// communicators, then more nonblocking ones; all completed through waitsome
// in whatever order they finish. Large and small payloads, so ring and
// tree schedules overlap with the blocking ones' own rounds.
TEST_P(Nonblocking, OutstandingAcrossBlockingCollectivesAndPointToPoint) {
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
TEST_P(Nonblocking, ProgressWhileWaitingForSomethingElse) {
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
TEST_P(Nonblocking, CommIdup) {
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
TEST_P(Nonblocking, NeverMatchUserPointToPoint) {
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

}  // namespace
}  // namespace pure_testing
